import Foundation
import RoadmapFormat
import Testing

/// `migrate` of a roadmap with more features than the server takes in one batch call.
@Suite struct MigrateLargeBatchEndToEndTests {
  /// Bug: `migrate` sent every feature in one `POST /features/batch`, which the server refuses
  /// whole past 20,000 features (`413 too_large`): a roadmap of 20,001 features could not be
  /// migrated at all (its stages were created, then the run failed). The features now go in
  /// parts of at most 20,000, and a rerun plans no change.
  @Test func moreFeaturesThanOneBatchHolds() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let count = 20_001
    let features = (0..<count).map { #"{"id":"f\#($0)","title":"T\#($0)","status":"planned"}"# }
    try directory.write("roadmap.json", "[" + features.joined(separator: ",") + "]")
    let board = try await SyncSupport.serve(in: directory, name: "board")
    defer { board.process.kill() }
    let migrate = [
      "migrate", "roadmap.json", "--server", SyncSupport.url(board), "--project", "big-app",
      "--key", SyncSupport.token, "--format", "json",
    ]
    let first = try await Roadmapctl.run(
      migrate, workingDirectory: directory.url, timeout: .seconds(600))
    #expect(first.exitCode == 0, "\(first.stderrText)")
    #expect(first.stderrText.contains("upserting 20001 features in 2 batches"))
    let plan = try #require(
      try JSONSerialization.jsonObject(with: Data(first.stdout)) as? [String: Any])
    #expect(plan["result"] as? [String: Int] == ["created": count, "updated": 0, "unchanged": 0])

    let again = try await Roadmapctl.run(
      migrate + ["--dry-run"], workingDirectory: directory.url, timeout: .seconds(600))
    #expect(again.exitCode == 0, "\(again.stderrText)")
    let actions = try #require(
      (try JSONSerialization.jsonObject(with: Data(again.stdout)) as? [String: Any])?["features"]
        as? [[String: Any]])
    #expect(actions.count == count)
    #expect(actions.allSatisfy { $0["action"] as? String == "unchanged" })
  }
}
