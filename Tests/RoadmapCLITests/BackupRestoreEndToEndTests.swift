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
    #expect(backup.stderrText.contains("1 board project and 2 features"))

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

  /// Bug: a backup (or export) of a board whose feature's ref holds `/` (counter
  /// `featurea/b`) or that has a feature without a ref (U+001F + vf + its id) was refused
  /// whole, though the store made those counters itself.
  @Test func countersOfRefsWithASlashAndOfRefLessFeaturesRestoreAndImport() async throws {
    let source = try TemporaryDirectory()
    let restored = try TemporaryDirectory()
    let imported = try TemporaryDirectory()
    defer {
      source.remove()
      restored.remove()
      imported.remove()
    }
    let first = try await ServeProcess.start(
      dataDirectory: source.url, ["--admin-token", VoteFirstServer.token])
    let server = VoteFirstServer(serve: first, directory: source)
    var ids: [Int] = []
    do {
      let admin = server.admin("min.app")
      let slash = try await admin.upsertFeature(
        ref: "a/b", FeatureUpsert(content: FeatureContent(ref: "a/b", title: "Slash")))
      let ann = server.client("min.app", voter: "ann")
      let made = try await admin.upsertFeature(
        ref: "later", FeatureUpsert(content: FeatureContent(ref: "later", title: "Later")))
      let bare = try await admin.updateFeature(id: made.id, FeatureContent(title: "Later"))
      #expect(bare.ref == nil)
      ids = [slash.id, bare.id]
      for id in ids { #expect(try await ann.upvote(featureID: id).votes == 1) }
    } catch {
      _ = try? await first.stop()
      throw error
    }
    #expect(try await first.stop() == 0)

    let backupFile = source.url.appendingPathComponent("bk.json").path
    let backup = try await Roadmapctl.run(["backup", "-o", backupFile, "--data-dir", source.path])
    #expect(backup.exitCode == 0, "\(backup.stderrText)")
    let exportFile = source.url.appendingPathComponent("votes.json").path
    let export = try await Roadmapctl.run(
      ["votes", "export", "-o", exportFile, "--data-dir", source.path])
    #expect(export.exitCode == 0, "\(export.stderrText)")
    #expect(export.stderrText.hasPrefix("Exported 2 counters and 2 votes with voter ids"))
    for target in [restored, imported] {
      try FileManager.default.copyItem(
        at: source.url.appendingPathComponent("votes.sqlite3-voter-key"),
        to: target.url.appendingPathComponent("votes.sqlite3-voter-key"))
    }
    let restore = try await Roadmapctl.run(["restore", backupFile, "--data-dir", restored.path])
    #expect(restore.exitCode == 0, "\(restore.stderrText)")
    #expect(restore.stderrText.hasPrefix("Restored 2 counters, 1 board project and 2 features."))
    let load = try await Roadmapctl.run(
      ["votes", "import", exportFile, "--data-dir", imported.path])
    #expect(load.exitCode == 0, "\(load.stderrText)")
    #expect(load.stderrText == "Imported 2 counters.\n")

    // Both hold exactly the source's counters, with their voters.
    let original = try await Roadmapctl.run(["votes", "export", "--data-dir", source.path])
    #expect(original.stdoutText.contains(#""featurea/b""#), "\(original.stdoutText)")
    #expect(original.stdoutText.contains(#""\u001fvf"#), "\(original.stdoutText)")
    for target in [restored, imported] {
      let copy = try await Roadmapctl.run(["votes", "export", "--data-dir", target.path])
      #expect(copy.exitCode == 0)
      #expect(copy.stdoutText == original.stdoutText)
    }
    let second = try await ServeProcess.start(
      dataDirectory: restored.url, ["--admin-token", VoteFirstServer.token])
    do {
      let ann = VoteFirstServer(serve: second, directory: restored).client("min.app", voter: "ann")
      for id in ids {
        let feature = try await ann.feature(id: id)
        #expect(feature.votes == 1 && feature.voted, "\(feature)")
        #expect(try await ann.upvote(featureID: id).votes == 1)
      }
    } catch {
      _ = try? await second.stop()
      throw error
    }
    #expect(try await second.stop() == 0)
  }

  /// A `votes import` file of version 1 with `counters`, each `namespace/key` with the
  /// count and voters given.
  static func exportFile(_ counters: [(String, String, Int, [String])]) -> String {
    let records = counters.enumerated().map { index, counter in
      let (namespace, key, value, voters) = counter
      return
        #"{"record":{"id":\#(index + 1),"namespace":"\#(namespace)","key":"\#(key)","value":\#(value),"enableReset":false,"updateLowerBound":-1,"updateUpperBound":1,"createdAt":1700000000000,"updatedAt":1700000000000},"voters":[\#(voters.map { "\"\($0)\"" }.joined(separator: ","))]}"#
    }
    return #"{"version":1,"counters":[\#(records.joined(separator: ","))]}"#
  }

  /// Bug: an export or backup without a single voter id was refused by a new store for its
  /// voter key, though there is nothing to match. It goes in, saying nothing about keys; one
  /// with voter ids is still refused without the key, and leaves no store behind.
  @Test func withoutVoterIdsAnExportOrBackupNeedsNoVoterKey() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    func data(_ name: String) -> String { directory.url.appendingPathComponent(name).path }
    for (name, voters) in [("anonymous", [String]()), ("identified", ["ann"])] {
      let seed = try directory.write(
        "\(name)-seed.json", Self.exportFile([("app.example", "feature1", 3, voters)]))
      let seeded = try await Roadmapctl.run(
        ["votes", "import", seed.path, "--data-dir", data("\(name)-source")])
      #expect(seeded.exitCode == 0, "\(seeded.stderrText)")
      let exportFile = data("\(name)-export.json")
      let export = try await Roadmapctl.run(
        ["votes", "export", "-o", exportFile, "--data-dir", data("\(name)-source")])
      #expect(export.exitCode == 0, "\(export.stderrText)")
      #expect(
        export.stderrText.hasPrefix(
          "Exported 1 counter and \(voters.isEmpty ? "0 votes" : "1 vote") with voter ids"))
      let backupFile = data("\(name)-backup.json")
      let backup = try await Roadmapctl.run(
        ["backup", "-o", backupFile, "--data-dir", data("\(name)-source")])
      #expect(backup.exitCode == 0, "\(backup.stderrText)")

      // New stores, each with a voter key of its own.
      let load = try await Roadmapctl.run(
        ["votes", "import", exportFile, "--data-dir", data("\(name)-imported")])
      let restore = try await Roadmapctl.run(
        ["restore", backupFile, "--data-dir", data("\(name)-restored")])
      if voters.isEmpty {
        #expect(load.exitCode == 0, "\(load.stderrText)")
        #expect(load.stderrText == "Imported 1 counter.\n")
        #expect(load.stdoutText.isEmpty, "\(load.stdoutText)")
        #expect(restore.exitCode == 0, "\(restore.stderrText)")
        #expect(!restore.stderrText.contains("key"), "\(restore.stderrText)")
        for target in ["imported", "restored"] {
          let copy = try await Roadmapctl.run(
            ["votes", "export", "--data-dir", data("\(name)-\(target)")])
          let counters = try JSONSerialization.jsonObject(with: Data(copy.stdout))
          let values = ((counters as? [String: Any])?["counters"] as? [[String: Any]])?
            .compactMap { ($0["record"] as? [String: Any])?["value"] as? Int }
          #expect(values == [3], "\(copy.stdoutText)")
        }
      } else {
        #expect(load.exitCode == 1)
        #expect(
          load.stderrText.hasPrefix("Error: nothing was imported: invalid: the export's voter ids"),
          "\(load.stderrText)")
        #expect(load.stderrText.contains("its voters could never be matched"))
        #expect(!FileManager.default.fileExists(atPath: data("\(name)-imported")))
        #expect(restore.exitCode == 1)
        #expect(restore.stderrText.contains("its voters could never be matched"))
        #expect(restore.stderrText.contains("then import or restore again"))
        // Refused, it leaves no store (with a key of its own) behind, as the import does.
        #expect(!FileManager.default.fileExists(atPath: data("\(name)-restored")))
      }
    }
  }

  /// Bug: over a store that holds some of the backup's counters, the refusal named the
  /// first clash of whichever namespace came first and counted only that namespace's others
  /// (3, 2, 2, 0 in four runs for 13 clashes). It names the first by namespace then key and
  /// counts every other clash.
  @Test func aRestoreOverExistingCountersNamesTheFirstClashAndCountsAllTheOthers() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    func data(_ name: String) -> String { directory.url.appendingPathComponent(name).path }
    let clashing = ["nsa", "nsb", "nsc", "nsd", "nse"].enumerated().flatMap { index, namespace in
      (1...(index < 3 ? 3 : 2)).map { (namespace, "key\($0)", 1, [String]()) }
    }
    #expect(clashing.count == 13)
    let seed = try directory.write(
      "seed.json", Self.exportFile(clashing + [("nsf", "key1", 2, [])]))
    #expect(
      try await Roadmapctl.run(["votes", "import", seed.path, "--data-dir", data("source")])
        .exitCode == 0)
    let backupFile = data("backup.json")
    let backup = try await Roadmapctl.run([
      "backup", "-o", backupFile, "--data-dir", data("source"),
    ])
    #expect(backup.exitCode == 0, "\(backup.stderrText)")

    // The target holds all 13 (in the reverse order of the backup, under other ids).
    let taken = try directory.write("taken.json", Self.exportFile(clashing.reversed()))
    #expect(
      try await Roadmapctl.run(["votes", "import", taken.path, "--data-dir", data("target")])
        .exitCode == 0)
    let before = try await Roadmapctl.run(["votes", "export", "--data-dir", data("target")])
    for _ in 0..<3 {
      let refused = try await Roadmapctl.run(["restore", backupFile, "--data-dir", data("target")])
      #expect(refused.exitCode == 1)
      #expect(
        refused.stderrText
          == "Error: the counter nsa/key1 already exists in this store (and 12 more of the "
          + "backup's); nothing was restored\n")
    }
    let after = try await Roadmapctl.run(["votes", "export", "--data-dir", data("target")])
    #expect(after.stdout == before.stdout)

    // One clash alone is named without "and 0 more".
    let one = try directory.write("one.json", Self.exportFile([("nsd", "key2", 1, [])]))
    #expect(
      try await Roadmapctl.run(["votes", "import", one.path, "--data-dir", data("single")]).exitCode
        == 0)
    let single = try await Roadmapctl.run(["restore", backupFile, "--data-dir", data("single")])
    #expect(single.exitCode == 1)
    #expect(
      single.stderrText
        == "Error: the counter nsd/key2 already exists in this store; nothing was restored\n")
  }

  /// A file that is not a backup this build reads is refused with what it is instead, in
  /// words (not the decoder's dump), before a store is created.
  @Test(arguments: [
    ("hello", ":1:1: not valid JSON: "),
    ("[1,2]", "is not a roadmapctl backup: expected an object\n"),
    (#"{"version":1,"counters":[]}"#, "is not a roadmapctl backup: it has no 'format'"),
    (
      #"{"format":"roadmapctl-backup","version":2}"#,
      "is a roadmapctl-backup document of version 2; this build reads roadmapctl-backup version 1"
    ),
    (
      " \n",
      #"is empty; expected a 'roadmapctl backup' document (JSON: {"format":"roadmapctl-backup","version":1,…})"#
    ),
    (#"{"format":"votes","version":1}"#, "is a votes document of version 1;"),
    (#"{"format":"roadmapctl-backup"}"#, "document of no version;"),
    (#"{"format":"roadmapctl-backup","version":"1"}"#, "backup: at version: expected a number\n"),
    (#"{"format":"roadmapctl-backup","version":1}"#, "backup: 'votes' is missing\n"),
    (
      BackupRestoreEndToEndTests.backup {
        $0.replacingOccurrences(of: #""value":3"#, with: #""value":"3""#)
      },
      "backup: at votes.counters[0].record.value: expected a number\n"
    ),
    (
      BackupRestoreEndToEndTests.backup {
        $0.replacingOccurrences(
          of: #""project":"com.example.app","settings""#, with: #""settings""#)
      },
      "backup: 'boards.projects[0].project' is missing\n"
    ),
  ])
  func restoreRefusesWhatIsNotABackup(text: String, message: String) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = try directory.write("not-a-backup.json", text)
    let data = directory.url.appendingPathComponent("data")
    let result = try await Roadmapctl.run(["restore", file.path, "--data-dir", data.path])
    #expect(result.exitCode == 1)
    #expect(result.stderrText.hasPrefix("Error: \(file.path)"), "\(result.stderrText)")
    #expect(result.stderrText.contains(message), "\(result.stderrText)")
    #expect(!result.stderrText.contains("DecodingError"))
    #expect(!FileManager.default.fileExists(atPath: data.path))
  }

  @Test(arguments: [["restore"], ["votes", "import"]])
  func aFileThatCannotBeReadIsNamedInPlainWords(command: [String]) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let data = directory.url.appendingPathComponent("data").path
    let folder = directory.url.appendingPathComponent("folder").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    let missing = directory.url.appendingPathComponent("missing.json").path
    for (file, reason) in [(folder, "it is a directory"), (missing, "no such file")] {
      let result = try await Roadmapctl.run(command + [file, "--data-dir", data])
      #expect(result.exitCode == 1)
      #expect(result.stderrText == "Error: cannot read '\(file)': \(reason)\n")
    }
    #expect(!FileManager.default.fileExists(atPath: data))
  }

  /// A backup of one counter and one project with two features, as `roadmapctl backup` writes
  /// it, with `change` applied to its text.
  static func backup(_ change: (String) -> String = { $0 }) -> String {
    let feature = { (id: Int, ref: String) in
      #"{"board":"roadmap","comments":0,"counterKey":"feature\#(ref)","createdAt":1796327519331,"doc":"{\"board\":\"roadmap\",\"comments\":0,\"ref\":\"\#(ref)\",\"tags\":[],\"title\":\"t\#(ref)\"}","id":\#(id),"project":"com.example.app","ref":"\#(ref)","search":"t\#(ref)","tags":[]}"#
    }
    return change(
      #"{"format":"roadmapctl-backup","version":1,"votes":{"version":1,"counters":["#
        + #"{"record":{"id":1,"namespace":"com.example.app","key":"feature1","value":3,"enableReset":false,"updateLowerBound":-1,"updateUpperBound":1,"createdAt":1700000000000,"updatedAt":1700000000000},"voters":[]}]},"#
        + #""boards":{"version":1,"projects":[{"createdAt":1796327519093,"project":"com.example.app","settings":"{}"}],"#
        + #""items":[{"kind":"vf_boards","row":{"doc":"{\"isPublic\":true,\"name\":\"Roadmap\",\"slug\":\"roadmap\",\"votingEnabled\":true}","id":1,"key":"roadmap","project":"com.example.app","sort":0}}],"#
        + #""features":["# + feature(1, "1") + "," + feature(2, "2") + "],"
        + #""sequences":[{"kind":"board","next":2,"project":"com.example.app"},{"kind":"feature","next":3,"project":"com.example.app"}]}}"#
    )
  }

  @Test(arguments: [
    (
      #""id":2,"project""#, #""id":1,"project""#,
      "feature id 1 of project com.example.app appears twice (features[0] and features[1])"
    ),
    (
      #""ref":"2","search""#, #""ref":"1","search""#,
      #"features[0] and features[1] of project com.example.app have the same ref "1""#
    ),
    (
      #""kind":"feature","next":3"#, #""kind":"board","next":3"#,
      "the board sequence of project com.example.app appears twice (sequences[0] and sequences[1])"
    ),
    (
      #""id":2,"project":"com.example.app""#, #""id":2,"project":"com.other.app""#,
      "features[1] belongs to project com.other.app, which the backup does not hold"
    ),
    // What serve could not read, or no admin call leaves behind.
    (
      #"\"title\":\"t2\""#, #"\"name\":\"t2\""#,
      "features[1] (feature 2 of project com.example.app): its document cannot be read: "
        + "'title' is missing"
    ),
    (
      #"\"ref\":\"2\","#, #"\"ref\":\"2\",\"stage\":5,"#,
      "features[1] (feature 2 of project com.example.app): there is no stage 5"
    ),
    (
      #""counterKey":"feature2""#, #""counterKey":"featureX""#,
      #"features[1] (feature 2 of project com.example.app): its counterKey is "featureX" "#
        + #"where its document and the project's settings give "feature2""#
    ),
    (
      #""settings":"{}""#, #""settings":"[]""#,
      "projects[0] (project com.example.app): its settings cannot be read: expected an object"
    ),
    (
      #"\"slug\":\"roadmap\""#, #"\"slug\":\"ideas\""#,
      "items[0] (vf_boards id 1 of project com.example.app): its document is of board ideas"
    ),
  ])
  func aBackupThatCannotBeRestoredWholeWritesNothing(
    from: String, to: String, problem: String
  ) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let data = directory.url.appendingPathComponent("data").path
    let good = try directory.write("good.json", Self.backup())
    let bad = try directory.write(
      "bad.json", Self.backup { $0.replacingOccurrences(of: from, with: to) })
    let result = try await Roadmapctl.run(["restore", bad.path, "--data-dir", data])
    #expect(result.exitCode == 1)
    #expect(result.stderrText == "Error: \(bad.path): \(problem); nothing was restored\n")
    // Not the counter without the boards: the good backup then restores whole.
    let restore = try await Roadmapctl.run(["restore", good.path, "--data-dir", data])
    #expect(restore.exitCode == 0, "\(restore.stderrText)")
    #expect(restore.stderrText.contains("Restored 1 counter, 1 board project and 2 features."))
  }
}
