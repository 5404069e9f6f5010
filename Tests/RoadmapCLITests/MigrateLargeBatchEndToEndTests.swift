import Foundation
import RoadmapFormat
import Testing

@testable import RoadmapCLI

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

  /// A run cut off between two parts keeps the first (its own transaction), says so, and the
  /// rerun writes only the rest.
  @Test func aRunCutOffBetweenPartsSaysWhatIsStoredAndARerunFinishes() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let count = 20_001
    let features = (0..<count).map { #"{"id":"f\#($0)","title":"T\#($0)","status":"planned"}"# }
    try directory.write("roadmap.json", "[" + features.joined(separator: ",") + "]")
    // Two writes pass (the stage, the first part); the second part is refused.
    let limited = try await SyncSupport.serve(in: directory, name: "board")
    defer { limited.process.kill() }
    let proxy = try await WriteLimitingProxy.start(for: limited, burst: 2, perSecond: 0.001)
    defer { proxy.stop() }
    func migrate(_ server: String) -> [String] {
      [
        "migrate", "roadmap.json", "--server", server, "--project", "big-app", "--key",
        SyncSupport.token,
      ]
    }
    let cut = try await Roadmapctl.run(
      migrate(proxy.url) + ["--format", "json"], environment: ["ROADMAPCTL_RATE_LIMIT_WAIT": "0"],
      workingDirectory: directory.url, timeout: .seconds(600))
    #expect(cut.exitCode == 1)
    #expect(cut.stderrText.contains("HTTP 429 rate_limited"), "\(cut.stderrText)")
    let stored =
      "20000 of 20001 features stored before this failure; running the migration again "
      + "writes only the rest."
    #expect(cut.stderrText.contains(stored), "\(cut.stderrText)")
    // And in the JSON document, whose "result" is null: it said only the refusal.
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(cut.stdout)) as? [String: Any])
    #expect(document["result"] is NSNull)
    #expect((document["error"] as? String)?.contains(stored) == true, "\(document)")

    let rerun = try await Roadmapctl.run(
      migrate(SyncSupport.url(limited)), workingDirectory: directory.url,
      timeout: .seconds(600))
    #expect(rerun.exitCode == 0, "\(rerun.stderrText)")
    #expect(
      rerun.stdoutText.contains("0 stages; 1 feature to create, 0 to change, 20000 unchanged."),
      "\(rerun.stdoutText)")
  }

  /// Bug: the parts were cut by count alone, and 6,000 features with long descriptions and
  /// their translations (36 MB of JSON, each feature within VoteFirst's limits) made one call
  /// larger than the 32 MiB body the server takes for a batch: `413 too_large`, nothing
  /// stored, and no rerun could store it. A part now also holds at most 16 MiB of features.
  @Test func longFeaturesGoInPartsTheServerTakes() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let count = 6_000
    let long = String(repeating: "x", count: 1_990)
    let translated = #"[{"language":"en","value":"\#(long)"},{"language":"de","value":"\#(long)"}]"#
    let features = (0..<count).map {
      #"{"id":"f\#($0)","title":"T\#($0)","status":"planned","description":"\#(long)","#
        + #""localizedDescription":\#(translated)}"#
    }
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
    #expect(
      first.stderrText.contains("upserting 6000 features in 3 batches"), "\(first.stderrText)")
    let plan = try #require(
      try JSONSerialization.jsonObject(with: Data(first.stdout)) as? [String: Any])
    #expect(plan["result"] as? [String: Int] == ["created": count, "updated": 0, "unchanged": 0])
  }

  /// Parts end at `size` items or before `bytes` of weight, and an item heavier than `bytes`
  /// goes alone.
  @Test func partsHoldAtMostSizeItemsAndBytes() {
    let weights = [5, 5, 5, 20, 1, 1, 1, 1]
    let parts = Migration.parts(of: weights, size: 3, bytes: 10) { $0 }
    #expect(parts == [[5, 5], [5], [20], [1, 1, 1], [1]])
    #expect(Migration.parts(of: [Int](), size: 3, bytes: 10) { $0 }.isEmpty)
    #expect(Migration.parts(of: Array(0..<7), size: 3) == [[0, 1, 2], [3, 4, 5], [6]])
  }
}
