import Foundation
import Testing
import VoteFirstAPI

/// `roadmapctl backup` and `restore` carry the counters and the VoteFirst boards together.
@Suite struct BackupRestoreEndToEndTests {
  @Test func aBackupRestoredElsewhereServesTheSameBoardAndVotes() async throws {
    let source = try TemporaryDirectory()
    let target = try TemporaryDirectory()
    defer {
      source.remove()
      target.remove()
    }
    let first = try await ServeProcess.start(
      dataDirectory: source.url, ["--admin-token", VoteFirstServer.token])
    let server = VoteFirstServer(serve: first, directory: source)
    let admin = server.admin()
    let stage = try await admin.createStage(Stage(name: "Planned"))
    _ = try await admin.upsertFeatures([
      FeatureUpsert(
        content: FeatureContent(ref: "1", title: "One", stage: stage.id), importedVotes: 4),
      FeatureUpsert(content: FeatureContent(ref: "2", title: "Two"), importedVotes: 1),
    ])
    let ann = server.client(voter: "ann")
    let one = try #require(try await ann.allFeatures().first { $0.ref == "1" })
    #expect(try await ann.upvote(featureID: one.id).votes == 5)
    _ = try await ann.submit(SuggestionDraft(title: "Later", description: "maybe"))
    let before = try await admin.exportProject()
    #expect(try await first.stop() == 0)

    let file = source.url.appendingPathComponent("backup.json").path
    let backup = try await Roadmapctl.run(
      ["backup", "--data-dir", source.path, "--output", file])
    #expect(backup.exitCode == 0, "\(backup.stderrText)")
    #expect(backup.stderrText.contains("1 board projects and 2 features"))

    // The voter key travels with the data: hashed voter ids only match under the same key.
    try FileManager.default.copyItem(
      at: source.url.appendingPathComponent("votes.sqlite3-voter-key"),
      to: target.url.appendingPathComponent("votes.sqlite3-voter-key"))
    let restore = try await Roadmapctl.run(["restore", file, "--data-dir", target.path])
    #expect(restore.exitCode == 0, "\(restore.stderrText)")

    let again = try await Roadmapctl.run(["restore", file, "--data-dir", target.path])
    #expect(again.exitCode == 1)
    #expect(again.stderrText.contains("already exists"))
    #expect(again.stderrText.contains("nothing was restored"))

    let second = try await ServeProcess.start(
      dataDirectory: target.url, ["--admin-token", VoteFirstServer.token])
    let restored = VoteFirstServer(serve: second, directory: target)
    do {
      let after = try await restored.admin().exportProject()
      #expect(after.features == before.features)
      #expect(after.stages == before.stages)
      #expect(after.suggestions == before.suggestions)
      #expect(after.settings == before.settings)
      let annAgain = restored.client(voter: "ann")
      let feature = try await annAgain.feature(id: one.id)
      #expect(feature.votes == 5 && feature.voted)
      // Ids go on where they stopped: nothing is numbered twice.
      #expect(try await restored.admin().createStage(Stage(name: "Next")).id == stage.id + 1)
      #expect(try await second.get("/get/demo-app/feature1").body == #"{"value":5}"#)
    } catch {
      _ = try? await second.stop()
      throw error
    }
    #expect(try await second.stop() == 0)
  }

  @Test func restoreRefusesWhatIsNotABackup() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = try directory.write("not-a-backup.json", #"{"version":1,"counters":[]}"#)
    let result = try await Roadmapctl.run(
      ["restore", file.path, "--data-dir", directory.url.appendingPathComponent("data").path])
    #expect(result.exitCode == 1)
    #expect(result.stderrText.contains("is not a roadmapctl backup"))
  }
}
