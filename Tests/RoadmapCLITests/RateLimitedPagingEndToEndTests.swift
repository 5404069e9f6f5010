import Foundation
import RoadmapFormat
import Testing

/// `publish` and `reconcile` read a board 100 features a call; a server whose read limit
/// answers 429 part way is waited for, and the page it refused is sent again (the whole
/// listing was, from its first page: on a board of more pages than the limit lets through
/// at once, the commands never finished).
@Suite struct RateLimitedPagingEndToEndTests {
  /// Features on the board: five pages of 100.
  static let count = 450

  /// The server's `roadmap_rate_limited_total`.
  func refusals(_ server: ServeProcess) async throws -> Int {
    let metrics = try await server.get("/metrics")
    let line = try #require(
      metrics.body.split(separator: "\n").first { $0.hasPrefix("roadmap_rate_limited_total ") })
    return try #require(Int(line.split(separator: " ")[1]))
  }

  /// Uses up the test's address's reads (the commands run from the same address): reads
  /// until the server answers 429.
  func drainReads(_ server: ServeProcess) async throws {
    for _ in 0..<200 where try await server.get("/get/drain/key").status != 429 {}
  }

  @Test func aBoardOfMorePagesThanTheReadLimitLetsThroughIsReadWhole() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let roadmap = (1...Self.count).map { #"{"id":"\#($0)","title":"Feature \#($0)"}"# }
    try directory.write("roadmap.json", "[" + roadmap.joined(separator: ",") + "]")
    // 60 reads a minute: a burst of 30, then one a second, with `Retry-After: 1`.
    let board = try await SyncSupport.serve(in: directory, name: "board", readLimit: 60)
    defer { board.process.kill() }
    let server = SyncSupport.url(board)
    // The waiting each call may do, far above what the fix needs (about a second a page)
    // and far below the 10 minutes the restarting reads took to give up.
    let environment = ["ROADMAPCTL_RATE_LIMIT_WAIT": "30"]
    let migrated = try await Roadmapctl.run(
      [
        "migrate", "roadmap.json", "--server", server, "--project", "paged.app", "--key",
        SyncSupport.token,
      ], environment: environment, workingDirectory: directory.url, timeout: .seconds(300))
    #expect(migrated.exitCode == 0, "\(migrated.stderrText)")

    try await drainReads(board)
    let before = try await refusals(board)
    let published = try await Roadmapctl.run(
      ["publish", "--server", server, "--project", "paged.app", "--out", "published.json"],
      environment: environment, workingDirectory: directory.url, timeout: .seconds(300))
    #expect(published.exitCode == 0, "\(published.stderrText)")
    let afterPublish = try await refusals(board)
    // The reads were refused part way, and waited for.
    #expect(afterPublish > before, "no 429 while publishing")
    let bytes = Array(try Data(contentsOf: directory.url.appendingPathComponent("published.json")))
    let ids = try RoadmapDocument.read(bytes, mode: .compatible).features.map(\.id)
    #expect(Set(ids) == Set((1...Self.count).map(String.init)))
    #expect(ids.count == Self.count)

    try await drainReads(board)
    let beforeReconcile = try await refusals(board)
    let reconciled = try await Roadmapctl.run(
      ["reconcile", "roadmap.json", "--server", server, "--project", "paged.app"],
      environment: environment, workingDirectory: directory.url, timeout: .seconds(300))
    #expect(reconciled.exitCode == 0, "\(reconciled.stdoutText)\(reconciled.stderrText)")
    #expect(
      reconciled.stdoutText == "roadmap.json and paged.app on \(server) are in sync.\n",
      "\(reconciled.stdoutText)")
    #expect(try await refusals(board) > beforeReconcile, "no 429 while reconciling")
  }
}
