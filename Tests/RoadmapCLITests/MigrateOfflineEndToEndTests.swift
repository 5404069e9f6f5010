import Foundation
import Testing

/// `roadmapctl migrate` and `publish`: what they refuse before any board call.
@Suite struct MigrateOfflineEndToEndTests {
  static let roadmap =
    #"[{"id":"1","title":"Widgets"},{"id":"2","title":"Sync","isFinished":true}]"#

  func run(
    _ arguments: [String], in directory: TemporaryDirectory, environment: [String: String] = [:]
  )
    async throws -> ProcessResult
  {
    try await Roadmapctl.run(
      arguments, environment: environment, workingDirectory: directory.url,
      timeout: .seconds(120))
  }

  @Test func usageErrors() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", Self.roadmap)
    let base = [
      "migrate", "roadmap.json", "--server", "http://127.0.0.1:1", "--project", "demo-app",
    ]
    let noKey = try await run(base, in: directory, environment: ["ROADMAPCTL_ADMIN_TOKEN": ""])
    #expect(noKey.exitCode == 64)
    #expect(noKey.stderrText.contains("--key"))
    let noNamespace = try await run(
      base + ["--key", "t", "--votes-from", "http://127.0.0.1:1"], in: directory)
    #expect(noNamespace.exitCode == 64)
    #expect(noNamespace.stderrText.contains("--votes-from needs --namespace."))
    let badServer = try await run(
      ["migrate", "roadmap.json", "--server", "ftp://x", "--project", "demo-app", "--key", "t"],
      in: directory)
    #expect(badServer.exitCode == 64)
    #expect(badServer.stderrText.contains("--server needs an http or https base URL"))
    let publish = try await run(["publish", "--server", "http://127.0.0.1:1"], in: directory)
    #expect(publish.exitCode == 64)
    #expect(publish.stderrText.contains("--project"))
  }

  @Test func aBrokenRoadmapOrUnreadableVotesStopBeforeTheServer() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", Self.roadmap)
    try directory.write("broken.json", #"[{"id": 1}]"#)
    let port = try await SyncSupport.closedPort(in: directory)
    let server = "http://127.0.0.1:\(port)"
    let broken = try await run(
      ["migrate", "broken.json", "--server", server, "--project", "demo-app", "--key", "t"],
      in: directory)
    #expect(broken.exitCode == 1)
    #expect(broken.stderrText.contains("[id-not-string]"))
    #expect(broken.stderrText.contains("'broken.json' has errors (above); nothing was written."))
    let votes = try await run(
      [
        "migrate", "roadmap.json", "--server", server, "--project", "demo-app", "--key", "t",
        "--votes-from", server, "--namespace", "old-app",
      ], in: directory)
    #expect(votes.exitCode == 1)
    #expect(votes.stderrText.contains("cannot read the count of feature 2: offline"))
    #expect(
      votes.stderrText.contains("2 of 2 counts could not be read (above); nothing was written."))
    let unreachable = try await run(
      ["migrate", "roadmap.json", "--server", server, "--project", "demo-app", "--key", "t"],
      in: directory)
    #expect(unreachable.exitCode == 1)
    #expect(
      unreachable.stderrText.contains(
        "Error: GET the export of project demo-app on \(server) failed: \(server)/api/v1/demo-app/export:"
      ))
    // No answer at all: the user learns a rerun is safe.
    #expect(
      unreachable.stderrText.hasSuffix(
        ". Running the command again is safe: it finishes what is missing.\n"),
      "\(unreachable.stderrText)")
    // publish and reconcile write nothing, so a rerun has nothing to finish.
    for command in [
      ["publish", "--server", server, "--project", "demo-app"],
      ["reconcile", "roadmap.json", "--server", server, "--project", "demo-app"],
    ] {
      let readOnly = try await run(command, in: directory)
      #expect(readOnly.exitCode == 1, "\(command[0])")
      #expect(
        readOnly.stderrText.hasSuffix(". Running the command again is safe.\n"),
        "\(command[0]): \(readOnly.stderrText)")
    }
  }
}
