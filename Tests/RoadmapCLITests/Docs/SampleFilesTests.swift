import Foundation
import Testing

/// The files in `Samples/` that a user hands to other tools, read by those tools' rules: the
/// GitHub Actions workflow as YAML that Actions runs (PyYAML), with the system packages its
/// build needs, and the JSON Schema as a Draft 2020-12 validator applies it (Python's
/// `jsonschema`) to the sample roadmap and the broken one. `.ci/run` installs PyYAML and
/// `jsonschema` when Python lacks them; the tests fail, never skip, without them.
@Suite struct SampleFilesTests {
  /// Runs `python3 -c script arguments…` in the package root; returns its status and output.
  static func python(_ script: String, _ arguments: [String]) async throws -> (
    status: Int32, output: String
  ) {
    let child = try ChildProcess(
      binary: URL(fileURLWithPath: "/usr/bin/env"),
      arguments: ["python3", "-c", script] + arguments, stdin: nil, environment: [:],
      workingDirectory: PackageFiles.packageRoot, keepStdinOpen: false)
    defer { child.kill() }
    let status = try await child.waitForExit(timeout: .seconds(120))
    try await child.waitForOutputEnd(timeout: .seconds(30))
    return (status, child.stdoutText + child.stderrText)
  }

  /// The Debian packages Package.swift's system libraries name (`.apt([...])`).
  static func aptPackages() throws -> [String] {
    let manifest = try PackageFiles.text("Package.swift")
    var packages: [String] = []
    var rest = manifest[...]
    while let open = rest.range(of: ".apt([") {
      let close = try #require(rest.range(of: "])", range: open.upperBound..<rest.endIndex))
      packages += rest[open.upperBound..<close.lowerBound].split(separator: ",").map {
        $0.trimmingCharacters(in: CharacterSet(charactersIn: " \""))
      }
      rest = rest[close.upperBound...]
    }
    return packages
  }

  @Test func theWorkflowInstallsTheHeadersOfEverySystemLibrary() throws {
    let packages = try Self.aptPackages()
    #expect(packages.contains("libsqlite3-dev"))
    #expect(packages.count >= 3)
    let workflow = try SampleWorkflowTests.workflow()
    let install = try #require(
      workflow.split(separator: "\n").first { $0.contains("apt-get install") })
    let words = install.split(separator: " ").map(String.init)
    for package in packages {
      #expect(
        words.contains(package),
        "the workflow's build step needs \(package) (Package.swift), but it installs: \(install)")
    }
  }

  @Test func theReadmeNamesThePackagesTheBuildNeeds() throws {
    let readme = try PackageFiles.text("README.md")
    let line = try #require(
      readme.range(of: "`apt-get install ").map { readme[$0.upperBound...].prefix { $0 != "`" } },
      "README.md does not say which packages the build needs")
    let words = line.split(separator: " ").map(String.init)
    for package in try Self.aptPackages() {
      #expect(words.contains(package), "README.md's apt-get install line lacks \(package)")
    }
  }

  /// Parses the workflow and checks the shape Actions requires of it; prints every problem.
  static let workflowCheck = #"""
    import re, sys, yaml
    problems = []
    with open(sys.argv[1], encoding="utf-8") as f:
        workflow = yaml.safe_load(f)
    # YAML 1.1 reads the key `on` as true; Actions reads it as "on".
    triggers = workflow.get("on", workflow.get(True))
    if not isinstance(triggers, dict) or set(triggers) != {"push", "pull_request"}:
        problems.append("on: %r, not push and pull_request" % (triggers,))
    for key in workflow:
        if key not in ("name", "on", True, "env", "jobs", "permissions", "concurrency", "defaults"):
            problems.append("unknown top-level key %r" % (key,))
    env = workflow.get("env") or {}
    for name in ("ROADMAPBRIDGE_REPOSITORY", "ROADMAPBRIDGE_REF", "ROADMAP_FILE", "REQUIRED_LANGUAGES"):
        if not isinstance(env.get(name), str) or not env[name]:
            problems.append("env.%s is not set to text" % name)
    step_keys = {"name", "id", "if", "uses", "with", "run", "env", "shell",
                 "working-directory", "continue-on-error", "timeout-minutes"}
    jobs = workflow.get("jobs") or {}
    if not jobs:
        problems.append("no jobs")
    for job_name, job in jobs.items():
        if "runs-on" not in job:
            problems.append("job %s has no runs-on" % job_name)
        steps = job.get("steps") or []
        if not steps:
            problems.append("job %s has no steps" % job_name)
        for index, step in enumerate(steps):
            label = "job %s, step %d (%s)" % (job_name, index + 1, step.get("name"))
            for key in step:
                if key not in step_keys:
                    problems.append("%s: unknown key %r" % (label, key))
            if ("uses" in step) == ("run" in step):
                problems.append("%s: needs exactly one of uses and run" % label)
            if "uses" in step and not re.fullmatch(r"[\w.-]+/[\w.-]+(/[\w./-]+)?@[\w.-]+", step["uses"]):
                problems.append("%s: uses %r is not owner/repo@ref" % (label, step["uses"]))
            if "run" in step and not isinstance(step["run"], str):
                problems.append("%s: run is not text" % label)
            texts = [str(value) for value in step.values()]
            texts += [str(value) for value in (step.get("with") or {}).values()]
            for text in texts:
                for expression in re.findall(r"\$\{\{(.*?)\}\}", text):
                    head = re.match(r"\s*([A-Za-z_]+)", expression)
                    if not head or head.group(1) not in ("env", "github", "runner", "hashFiles"):
                        problems.append("%s: expression %r" % (label, expression))
                    for name in re.findall(r"\benv\.(\w+)", expression):
                        if name not in env:
                            problems.append("%s: env.%s is not set" % (label, name))
            for name in re.findall(r"\$(ROADMAP\w*|REQUIRED\w*)", step.get("run") or ""):
                if name not in env:
                    problems.append("%s: $%s is not set" % (label, name))
    for problem in problems:
        print(problem)
    sys.exit(1 if problems else 0)
    """#

  @Test func theWorkflowIsYAMLThatActionsRuns() async throws {
    let (status, output) = try await Self.python(Self.workflowCheck, [SampleWorkflowTests.path])
    #expect(status == 0, "\(output)")
    // The check itself catches a step with both `run` and `uses`.
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let broken = try SampleWorkflowTests.workflow().replacingOccurrences(
      of: "        uses: actions/cache@v4\n",
      with: "        uses: actions/cache@v4\n        run: echo\n")
    try directory.write("broken.yml", broken)
    let (brokenStatus, brokenOutput) = try await Self.python(
      Self.workflowCheck, [directory.url.appendingPathComponent("broken.yml").path])
    #expect(brokenStatus == 1)
    #expect(brokenOutput.contains("needs exactly one of uses and run"), "\(brokenOutput)")
  }

  @Test func theFetchStepPassesTheBaseBranchsRoadmapAsPrevious() async throws {
    let step = try SampleWorkflowTests.script(
      ofStep: "Fetch the published version (pull requests)", in: try SampleWorkflowTests.workflow())
    #expect(!step.contains("${{"), "an expression pasted into the script's text: \(step)")
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let root = directory.url.path
    // The roadmap's repository: main holds the published roadmap; the workspace is a clone of
    // it on another branch, as actions/checkout leaves a pull request (all branches fetched).
    let setup = try await SampleWorkflowTests.sh(
      """
      set -e
      git init -q --bare -b main origin.git
      git clone -q origin.git workspace
      cd workspace
      cp "$SAMPLE" roadmap.json
      git add roadmap.json
      git -c user.name=t -c user.email=t@example.com commit -q -m published
      git push -q origin main
      git checkout -q -b change
      mkdir ../temp
      """,
      environment: [
        "HOME": root,
        "SAMPLE": PackageFiles.packageRoot.appendingPathComponent("Samples/roadmap.json").path,
      ],
      in: directory.url)
    #expect(setup.status == 0, "\(setup.output)")
    let environment = [
      "HOME": root, "BASE_REF": "main", "RUNNER_TEMP": "\(root)/temp",
      "GITHUB_ENV": "\(root)/github_env", "GITHUB_WORKSPACE": "\(root)/workspace",
    ]
    let workspace = directory.url.appendingPathComponent("workspace")
    var found = environment
    found["ROADMAP_FILE"] = "roadmap.json"
    let run = try await SampleWorkflowTests.sh(step, environment: found, in: workspace)
    #expect(run.status == 0, "\(run.output)")
    #expect(
      (try? String(contentsOfFile: "\(root)/github_env", encoding: .utf8))
        == "PREVIOUS=--previous=\(root)/temp/previous.json\n")
    #expect(
      try String(contentsOfFile: "\(root)/temp/previous.json", encoding: .utf8)
        == (try PackageFiles.text("Samples/roadmap.json")))
    // A roadmap the base branch does not have yet: no --previous, and the step passes.
    try FileManager.default.removeItem(atPath: "\(root)/github_env")
    var new = environment
    new["ROADMAP_FILE"] = "new-roadmap.json"
    let none = try await SampleWorkflowTests.sh(step, environment: new, in: workspace)
    #expect(none.status == 0, "\(none.output)")
    #expect(!FileManager.default.fileExists(atPath: "\(root)/github_env"))
  }

  @Test func anEmptyLanguageListRequiresNoTranslation() async throws {
    let step = try SampleWorkflowTests.script(
      ofStep: "Validate the roadmap", in: try SampleWorkflowTests.workflow())
    let script = step.replacingOccurrences(
      of: ".roadmapbridge/.build/release/roadmapctl", with: try Roadmapctl.binaryURL().path)
    #expect(try SampleWorkflowTests.workflow().contains(#""" requires none"#))
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", #"[{"id": "1", "title": "Dark mode"}]"#)
    let none = try await SampleWorkflowTests.sh(
      script,
      environment: ["ROADMAP_FILE": "roadmap.json", "REQUIRED_LANGUAGES": "", "PREVIOUS": ""],
      in: directory.url)
    #expect(none.status == 0, "\(none.output)")
    let english = try await SampleWorkflowTests.sh(
      script,
      environment: ["ROADMAP_FILE": "roadmap.json", "REQUIRED_LANGUAGES": "en", "PREVIOUS": ""],
      in: directory.url)
    #expect(english.status == 1)
    #expect(english.output.contains("title=missing-language::"), "\(english.output)")
  }

  /// Validates files against the schema with Draft 2020-12 and prints each error's path.
  static let schemaCheck = #"""
    import json, re, sys
    from jsonschema import Draft202012Validator
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    print("schema", schema.get("$schema"))
    validator = Draft202012Validator(schema)
    for path in sys.argv[2:]:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        # A trailing comma stops Python's reader before any schema is applied; take it out.
        document = json.loads(re.sub(r",(\s*[}\]])", r"\1", text))
        errors = sorted("/".join(str(part) for part in error.absolute_path)
                        for error in validator.iter_errors(document))
        print(path, "errors:", " ".join(errors) if errors else "none")
    """#

  @Test func theSchemaAcceptsTheSampleAndRejectsWhatTheBrokenOneGetsWrong() async throws {
    let (status, output) = try await Self.python(
      Self.schemaCheck,
      ["Samples/roadmap.schema.json", "Samples/roadmap.json", "Samples/broken-roadmap.json"])
    #expect(status == 0, "\(output)")
    #expect(
      output == """
        schema https://json-schema.org/draft/2020-12/schema
        Samples/roadmap.json errors: none
        Samples/broken-roadmap.json errors: 0/localizedTitle 1/id

        """)
  }
}
