import Foundation
import Testing

/// `roadmapctl show --votes-from`: the real binary reading counts from a real
/// `roadmapctl serve` on port 0, in each dialect the server speaks.
@Suite struct ShowVotesEndToEndTests {
  static let roadmap = """
    [{"id":"1","title":"Dark mode","status":"planned"},
     {"id":"2","title":"Widgets","status":"planned"},
     {"id":"3","title":"Sync"},
     {"id":"4","title":"Done","isFinished":true}]
    """

  /// A served store with feature2 at 2 votes and feature3 at 1 in namespace com.example.app.
  func seeded() async throws -> (ServeProcess, TemporaryDirectory) {
    let directory = try TemporaryDirectory()
    try directory.write("roadmap.json", Self.roadmap)
    let server = try await ServeProcess.start(
      dataDirectory: directory.url.appendingPathComponent("data"))
    for target in [
      "/hit/com.example.app/feature2", "/hit/com.example.app/feature2",
      "/hit/com.example.app/feature3",
    ] {
      #expect(try await server.get(target).status == 200)
    }
    return (server, directory)
  }

  /// How to read the votes without where to read them from: a forgotten --votes-from, which
  /// showed the roadmap without votes and said nothing.
  @Test(arguments: [
    ["--namespace", "com.example.app"], ["--dialect", "countapi"], ["--key-template", "f{id}"],
  ])
  func aVotesOptionWithoutVotesFromIsAUsageError(_ option: [String]) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", Self.roadmap)
    let result = try await Roadmapctl.run(
      ["show", "roadmap.json"] + option, workingDirectory: directory.url)
    #expect(result.exitCode == 64)
    #expect(
      result.stderrText.hasPrefix(
        "Error: \(option[0]) says how to read the votes from --votes-from URL, which is not given."),
      "\(result.stderrText)")
  }

  @Test(arguments: ["roadmapctl", "ours", "countapi", "counterapi"])
  func votesColumnSortedByVotes(dialect: String) async throws {
    let (server, directory) = try await seeded()
    defer {
      server.process.kill()
      directory.remove()
    }
    let result = try await Roadmapctl.run(
      [
        "show", "roadmap.json", "--votes-from", "http://127.0.0.1:\(server.port)", "--dialect",
        dialect,
        "--namespace", "com.example.app", "--sort", "votes",
      ],
      workingDirectory: directory.url)
    #expect(result.exitCode == 0, "\(result.stderrText)")
    #expect(
      result.stdoutText == """
        ID  TITLE      STATUS   VOTES  FINISHED
        2   Widgets    planned      2  no
        3   Sync       -            1  no
        1   Dark mode  planned      0  no
        4   Done       -            -  yes

        """)
    #expect(result.stderrText.isEmpty)
  }

  @Test func jsonWithVotesInFileOrder() async throws {
    let (server, directory) = try await seeded()
    defer {
      server.process.kill()
      directory.remove()
    }
    let result = try await Roadmapctl.run(
      [
        "show", "roadmap.json", "--votes-from", "http://127.0.0.1:\(server.port)",
        "--namespace", "com.example.app", "--format", "json",
      ],
      workingDirectory: directory.url)
    #expect(result.exitCode == 0)
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any]
    let features = try #require(object?["features"] as? [[String: Any]])
    #expect(features.map { $0["id"] as? String } == ["1", "2", "3", "4"])
    #expect(features.map { $0["votes"] as? Int } == [0, 2, 1, nil])
  }

  /// A feature whose counter key the server refuses (a space, a slash) loses its own count,
  /// not the board's.
  @Test(arguments: ["roadmapctl", "countapi"])
  func aRefusedKeyLeavesTheOtherCounts(dialect: String) async throws {
    let (server, directory) = try await seeded()
    defer {
      server.process.kill()
      directory.remove()
    }
    try directory.write(
      "odd.json",
      #"[{"id":"2","title":"Widgets"},{"id":"dark mode/2","title":"Dark"},{"id":"3","title":"Sync"}]"#
    )
    let result = try await Roadmapctl.run(
      [
        "show", "odd.json", "--votes-from", "http://127.0.0.1:\(server.port)", "--dialect",
        dialect, "--namespace", "com.example.app",
      ],
      workingDirectory: directory.url)
    #expect(result.exitCode == 0, "\(result.stderrText)")
    #expect(
      result.stdoutText == """
        ID           TITLE    STATUS  VOTES  FINISHED
        2            Widgets  -           2  no
        dark mode/2  Dark     -           -  no
        3            Sync     -           1  no

        """)
    #expect(
      result.stderrText.hasPrefix(
        #"odd.json: note: the votes of feature "dark mode/2" are not shown (-): "#),
      "\(result.stderrText)")
    #expect(result.stderrText.contains("refused (400)"), "\(result.stderrText)")
  }

  @Test func unreachableServerIsAnError() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", Self.roadmap)
    // A port held and never listened on (a stopped server's port could be handed to another
    // test's server, and was once, which then answered).
    let port = try await SyncSupport.closedPort(in: directory)
    let result = try await Roadmapctl.run(
      ["show", "roadmap.json", "--votes-from", "http://127.0.0.1:\(port)"],
      workingDirectory: directory.url)
    #expect(result.exitCode == 1)
    #expect(result.stdoutText.isEmpty)
    #expect(
      result.stderrText.hasPrefix(
        "Error: cannot read the votes from http://127.0.0.1:\(port): offline"))
  }

  @Test func badOptionsAreUsageErrors() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", Self.roadmap)
    for (arguments, message) in [
      (["--votes-from", "ftp://example.com"], "Error: --votes-from needs an http or https URL"),
      (
        ["--votes-from", "http://127.0.0.1:9", "--key-template", "feature"],
        "Error: --key-template must contain {id} once."
      ),
      (["--dialect", "sidetrack"], "Error: "),
      (
        ["--votes-from", "http://127.0.0.1:9", "--namespace", ""],
        "Error: --namespace needs a namespace"
      ),
      (["--sort", "title"], "Error: "),
    ] {
      let result = try await Roadmapctl.run(
        ["show", "roadmap.json"] + arguments, workingDirectory: directory.url)
      #expect(result.exitCode == 64, "\(arguments)")
      #expect(result.stderrText.hasPrefix(message), "\(result.stderrText)")
    }
  }

  @Test func sortByTheFilesVotesWithoutAServer() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("votes.json", #"[{"id":"a","votes":1},{"id":"b","votes":5},{"id":"c"}]"#)
    let result = try await Roadmapctl.run(
      ["show", "votes.json", "--sort", "votes", "--format", "json"], workingDirectory: directory.url
    )
    let object = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any]
    let features = try #require(object?["features"] as? [[String: Any]])
    #expect(features.map { $0["id"] as? String } == ["b", "a", "c"])
  }
}
