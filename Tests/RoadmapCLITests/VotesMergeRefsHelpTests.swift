import Testing

/// What `votes merge-refs --help` says about a running server.
@Suite struct VotesMergeRefsHelpTests {
  /// Bug: the help said "stop 'serve' first on SQLite", as if it could run beside a server on
  /// PostgreSQL, while serve's warning and docs/serving.md say to stop serve: on PostgreSQL
  /// nothing refuses it, and votes taken meanwhile on the features merged away are not
  /// guarded. It now says to stop every server, and how it refuses to run beside one on each
  /// store (on PostgreSQL by the advisory lock each serve holds).
  @Test func theHelpSaysToStopEveryServer() async {
    let result = await InProcess.run(["votes", "merge-refs", "--help"])
    #expect(result.exitCode == 0)
    let text = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(text.contains("Stop every 'roadmapctl serve' on the store first"), "\(text)")
    #expect(text.contains("the command refuses to run beside one"), "\(text)")
    #expect(text.contains("on PostgreSQL by the advisory lock every serve instance holds"))
    #expect(!text.contains("nothing can tell"), "\(text)")
    #expect(!text.contains("stop 'serve' first on SQLite"), "\(text)")
  }
}
