import Foundation
import Testing

/// Samples/github-actions/validate-roadmap.yml: where roadmapctl comes from is one marked
/// setting, nothing claims a repository that may not exist, and its shell steps work.
@Suite struct SampleWorkflowTests {
  static let path = "Samples/github-actions/validate-roadmap.yml"

  static func workflow() throws -> String {
    try PackageFiles.text(path)
  }

  /// The `run: |` script of the step named `name`, unindented.
  static func script(ofStep name: String, in workflow: String) throws -> String {
    let lines = workflow.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let start = try #require(lines.firstIndex { $0.contains("- name: \(name)") }, "no step \(name)")
    let run = try #require(
      lines[start...].firstIndex { $0.trimmingCharacters(in: .whitespaces) == "run: |" })
    let indent = lines[run].prefix(while: { $0 == " " }).count + 2
    var body: [String] = []
    for line in lines[(run + 1)...] {
      if !line.isEmpty, line.prefix(while: { $0 == " " }).count < indent { break }
      body.append(String(line.dropFirst(min(indent, line.count))))
    }
    return body.joined(separator: "\n")
  }

  @Test func theToolsOriginIsOneSetting() throws {
    let text = try Self.workflow()
    let settings = text.split(separator: "\n").filter {
      $0.hasPrefix("  ROADMAPBRIDGE_REPOSITORY:") || $0.hasPrefix("  ROADMAPBRIDGE_REF:")
    }
    #expect(settings.count == 2, "each setting once, in the top-level env")
    #expect(text.contains("WHERE ROADMAPCTL COMES FROM"))
    let repositories = text.split(separator: "\n").filter {
      $0.trimmingCharacters(in: .whitespaces).hasPrefix("repository:")
    }
    #expect(repositories == ["          repository: ${{ env.ROADMAPBRIDGE_REPOSITORY }}"])
    #expect(text.contains("ref: ${{ env.ROADMAPBRIDGE_REF }}"))
  }

  @Test func nothingClaimsARepositoryThatMayNotExist() throws {
    var files = PackageFiles.documentationPaths + [Self.path, "Samples/roadmap.schema.json"]
    files.append("Sources/RoadmapFormat/Schema/RoadmapSchema.swift")
    for file in files {
      #expect(
        !(try PackageFiles.text(file)).lowercased().contains("roadmapbridge/roadmapbridge"),
        "\(file) names the repository roadmapbridge/roadmapbridge")
    }
  }

  @Test func theGuardStopsUntilTheSettingIsChanged() async throws {
    let guardScript = try Self.script(
      ofStep: "Check that ROADMAPBRIDGE_REPOSITORY is set", in: try Self.workflow())
    let unset = try await Self.sh(
      guardScript, environment: ["ROADMAPBRIDGE_REPOSITORY": "YOUR-ORG/RoadmapBridge"])
    #expect(unset.status == 1)
    #expect(
      unset.output.hasPrefix("::error title=validate-roadmap.yml::Set ROADMAPBRIDGE_REPOSITORY"))
    let set = try await Self.sh(
      guardScript, environment: ["ROADMAPBRIDGE_REPOSITORY": "acme/RoadmapBridge"])
    #expect(set.status == 0)
    #expect(set.output.isEmpty)
  }

  @Test func theValidateStepPassesAGoodRoadmapAndAnnotatesABadOne() async throws {
    let step = try Self.script(ofStep: "Validate the roadmap", in: try Self.workflow())
    let binary = try Roadmapctl.binaryURL().path
    let script = step.replacingOccurrences(
      of: ".roadmapbridge/.build/release/roadmapctl", with: binary)
    #expect(script != step, "the step runs .roadmapbridge/.build/release/roadmapctl")
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("good.json", try PackageFiles.text("Samples/roadmap.json"))
    try directory.write("broken.json", try PackageFiles.text("Samples/broken-roadmap.json"))
    let good = try await Self.sh(
      script,
      environment: ["ROADMAP_FILE": "good.json", "REQUIRED_LANGUAGES": "en,de", "PREVIOUS": ""],
      in: directory.url)
    #expect(good.status == 0, "\(good.output)")
    #expect(good.output == "good.json: 5 features, no problems\n")
    let broken = try await Self.sh(
      script,
      environment: ["ROADMAP_FILE": "broken.json", "REQUIRED_LANGUAGES": "en", "PREVIOUS": ""],
      in: directory.url)
    #expect(broken.status == 1)
    #expect(broken.output.contains("::error file=broken.json,line=9,col=11,title=id-not-string::"))
  }

  /// Runs `script` with /bin/sh and returns its status and output (stdout and stderr).
  static func sh(_ script: String, environment: [String: String], in directory: URL? = nil)
    async throws -> (status: Int32, output: String)
  {
    let child = try ChildProcess(
      binary: URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "exec 2>&1\n" + script],
      stdin: nil, environment: environment, workingDirectory: directory, keepStdinOpen: false)
    defer { child.kill() }
    let status = try await child.waitForExit(timeout: .seconds(60))
    try await child.waitForOutputEnd(timeout: .seconds(10))
    return (status, child.stdoutText)
  }
}
