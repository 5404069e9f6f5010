import Foundation
import Testing
import VoteFirstAPI
import VoteStore

/// A store made before refs in another Unicode form were refused may hold two features whose
/// refs are one ref in two forms, each with its own counter; reads show one of them and the
/// other's votes are hidden. `serve` names them at start, and `backup`/`restore` and
/// `votes export`/`import` carry them (they refused the store's own files).
@Suite struct RefTwinsEndToEndTests {
  static let composed = "\u{E9}t\u{E9}"
  static let decomposed = "e\u{301}te\u{301}"

  @Test func aStoreWithARefInTwoFormsIsNamedAtStartAndBacksUpAndRestores() async throws {
    let server = try await VoteFirstServer.start()
    let source = server.directory
    let target = try TemporaryDirectory()
    let imported = try TemporaryDirectory()
    defer {
      source.remove()
      target.remove()
      imported.remove()
    }
    let admin = server.admin()
    _ = try await admin.upsertFeatures([
      FeatureUpsert(content: FeatureContent(ref: Self.composed, title: "Été"))
    ])
    let one = try #require(try await admin.allFeatures().first)
    for voter in ["ann", "bob"] {
      _ = try await server.client(voter: voter).upvote(featureID: one.id)
    }
    #expect(try await server.serve.stop() == 0)

    // The second form, as a store made before it was refused holds it.
    let store = try SQLiteVoteStore(directory: source.url)
    let boards = try SQLiteBoardStore(sharing: store)
    try await boards.write { tables in
      let first = try #require(try tables.features("demo-app").first)
      var document = try #require(
        try JSONSerialization.jsonObject(with: Data(first.doc.utf8)) as? [String: Any])
      document["ref"] = Self.decomposed
      var twin = first
      twin.id = 2
      twin.ref = Self.decomposed
      twin.counterKey = "feature" + Self.decomposed
      twin.doc = String(
        decoding: try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]),
        as: UTF8.self)
      try tables.put(twin)
      try tables.reserveID("demo-app", "feature", atLeast: 2)
    }
    for voter in ["carl", "ann"] {
      _ = try await store.apply(
        CounterMutation(
          namespace: "demo-app", key: "feature" + Self.decomposed, delta: 1, voter: voter,
          createIfMissing: CounterCreation(
            namespace: "demo-app", key: "feature" + Self.decomposed)))
    }
    await boards.close()
    await store.close()

    let again = try await ServeProcess.start(dataDirectory: source.url)
    #expect(try await again.stop() == 0)
    try await again.process.waitForOutputEnd(timeout: .seconds(10))
    let stderr = String(decoding: again.process.stderrBytes, as: UTF8.self)
    #expect(
      stderr.contains(
        #"warning: project demo-app has features whose refs are one ref in different Unicode "#
          + #"forms: feature 1 (ref "\u{E9}t\u{E9}", 2 votes), feature 2 (ref "#
          + #""e\u{301}te\u{301}", 2 votes)."#), "\(stderr)")

    let backupFile = source.url.appendingPathComponent("backup.json").path
    let backup = try await Roadmapctl.run(
      ["backup", "--data-dir", source.path, "--output", backupFile])
    #expect(backup.exitCode == 0, "\(backup.stderrText)")
    let exportFile = source.url.appendingPathComponent("votes.json").path
    let export = try await Roadmapctl.run(
      ["votes", "export", "--data-dir", source.path, "--output", exportFile])
    #expect(export.exitCode == 0, "\(export.stderrText)")
    for directory in [target, imported] {
      try FileManager.default.copyItem(
        at: source.url.appendingPathComponent("votes.sqlite3-voter-key"),
        to: directory.url.appendingPathComponent("votes.sqlite3-voter-key"))
    }

    let restore = try await Roadmapctl.run(["restore", backupFile, "--data-dir", target.path])
    #expect(restore.exitCode == 0, "\(restore.stderrText)")
    #expect(restore.stderrText.contains("Restored 2 counters, 1 board project and 2 features."))
    let votesImport = try await Roadmapctl.run(
      ["votes", "import", exportFile, "--data-dir", imported.path])
    #expect(votesImport.exitCode == 0, "\(votesImport.stderrText)")
    #expect(votesImport.stderrText.contains("Imported 2 counters."))

    // Merged: one feature, and ann, who voted on both, counts once.
    let merge = try await Roadmapctl.run(["votes", "merge-refs", "--data-dir", source.path])
    #expect(merge.exitCode == 0, "\(merge.stderrText)")
    #expect(
      merge.stderrText.contains(
        #"Merged feature 2 (ref "e\u{301}te\u{301}") into feature 1 (ref "\u{E9}t\u{E9}") of "#
          + "project demo-app: 3 votes."), "\(merge.stderrText)")
    let merged = VoteFirstServer(
      serve: try await ServeProcess.start(
        dataDirectory: source.url, ["--admin-token", VoteFirstServer.token]),
      directory: source)
    let features = try await merged.admin().allFeatures()
    #expect(features.map(\.id) == [1])
    #expect(features.first?.votes == 3)
    #expect(try await merged.serve.stop() == 0)
    try await merged.serve.process.waitForOutputEnd(timeout: .seconds(10))
    #expect(!String(decoding: merged.serve.process.stderrBytes, as: UTF8.self).contains("warning"))
    let nothing = try await Roadmapctl.run(["votes", "merge-refs", "--data-dir", source.path])
    #expect(nothing.stderrText.contains("No features have refs in different Unicode forms."))
  }
}
