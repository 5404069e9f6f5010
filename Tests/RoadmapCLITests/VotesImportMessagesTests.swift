import Foundation
import Testing

/// `votes import` through the real binary: every refusal says in words what is wrong and
/// where, a failed import into a new data directory leaves nothing behind, and the summary
/// counts in good English.
@Suite struct VotesImportMessagesTests {
  static let record =
    #"{"record":{"id":1,"namespace":"app.example","key":"feature1","value":3,"enableReset":false,"updateLowerBound":-1,"updateUpperBound":1,"createdAt":1700000000000,"updatedAt":1700000000000},"voters":[]}"#

  /// Runs `votes import FILE --data-dir DIR/data` on `text` and checks that it failed with
  /// exit 1, the data directory was not created, and stderr holds no Swift error dump.
  static func refuse(
    _ text: String, bytes: [UInt8]? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> String {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = try directory.write("wrong.json", bytes: bytes ?? Array(text.utf8))
    let data = directory.url.appendingPathComponent("data")
    let result = try await Roadmapctl.run(["votes", "import", file.path, "--data-dir", data.path])
    #expect(result.exitCode == 1, "\(result.stderrText)", sourceLocation: sourceLocation)
    #expect(result.stdoutText.isEmpty, sourceLocation: sourceLocation)
    #expect(
      !FileManager.default.fileExists(atPath: data.path), "data dir created",
      sourceLocation: sourceLocation)
    for dump in ["DecodingError", "Dictionary<String, Any>", "CodingKeys", "Context("] {
      #expect(
        !result.stderrText.contains(dump), "\(result.stderrText)", sourceLocation: sourceLocation)
    }
    return result.stderrText.replacingOccurrences(of: file.path, with: "FILE")
  }

  static let header = "Error: nothing was imported: FILE has "

  @Test func aWrongShapeNamesThePlaceInWords() async throws {
    #expect(
      try await Self.refuse(#"[{"id":"1"}]"#)
        == Self.header + "1 problem:\n"
        + #"  FILE:1:1: the top level: expected an object ({"version":2,"voterKey":…,"counters":[…]}), found an array."#
        + "\n")
    // Every bad record is reported, each with its line, column, path and counter.
    let second = Self.record.replacingOccurrences(of: #""value":3"#, with: #""value":"3""#)
      .replacingOccurrences(of: "feature1", with: "feature2")
    let third = Self.record.replacingOccurrences(of: #""value":3"#, with: #""value":null"#)
      .replacingOccurrences(of: "feature1", with: "feature3")
    let mismatch = try await Self.refuse(
      "{\"version\":1,\"counters\":[\n\(Self.record),\n\(second),\n\(third)]}")
    #expect(mismatch.hasPrefix(Self.header + "2 problems:\n"), "\(mismatch)")
    #expect(
      mismatch.contains(
        "\n  FILE:3:70: counters[1].record.value (counter 2, app.example/feature2): expected an integer, found a string.\n"
      ), "\(mismatch)")
    #expect(
      mismatch.contains(
        "\n  FILE:4:70: counters[2].record.value (counter 3, app.example/feature3): expected an integer, found null.\n"
      ), "\(mismatch)")
    let missing = Self.record.replacingOccurrences(of: #""key":"feature1","#, with: "")
    #expect(
      try await Self.refuse(#"{"version":1,"counters":[\#(missing)]}"#)
        .hasSuffix(
          #"  FILE:1:36: counters[0].record (counter 1): the member "key" is missing."# + "\n"))
    let huge = Self.record.replacingOccurrences(
      of: #""value":3"#, with: #""value":99999999999999999999"#)
    let tooBig = try await Self.refuse(#"{"version":1,"counters":[\#(huge)]}"#)
    #expect(
      tooBig.contains(
        "FILE:1:95: counters[0].record.value (counter 1, app.example/feature1): 99999999999999999999 is out of range"
      ), "\(tooBig)")
  }

  @Test func syntaxErrorsHaveALineAndColumn() async throws {
    let broken = try await Self.refuse("{\"version\":1,\n  \"counters\": [x]}\n")
    #expect(
      broken == "Error: FILE:2:16: not valid JSON: unexpected 'x' where a value should be.\n",
      "\(broken)")
    #expect(
      try await Self.refuse("  \n")
        == "Error: FILE is empty; expected a 'roadmapctl votes export' file (JSON: {\"version\":2,\"voterKey\":…,\"counters\":[…]}).\n"
    )
    let binary = try await Self.refuse("", bytes: [0x50, 0x4B, 0x03, 0x04, 0x00, 0xFF, 0xFE])
    #expect(
      binary.hasPrefix(
        "Error: FILE:1:5: not a text file (the byte 0x00 is not UTF-8 text there); expected "),
      "\(binary)")
    // One bad byte deep in an export is said with its place (it was said without one).
    let stray = try await Self.refuse(
      "", bytes: Array("{\"version\":1,\n  \"counters\": [\"caf".utf8) + [0xE9] + Array("\"]}".utf8)
    )
    #expect(
      stray.hasPrefix(
        "Error: FILE:2:20: not a text file (the byte 0xE9 is not UTF-8 text there); expected "),
      "\(stray)")
  }

  @Test func aRefusedImportIntoANewDataDirLeavesNoStore() async throws {
    // Valid JSON of the right shape that the store refuses (a negative count).
    let negative = Self.record.replacingOccurrences(of: #""value":3"#, with: #""value":-3"#)
    let refused = try await Self.refuse(#"{"version":1,"counters":[\#(negative)]}"#)
    #expect(refused.contains(": -3 is out of range: a count must be 0 to "), "\(refused)")
    // An existing, empty data directory keeps existing, without a database in it.
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = try directory.write("wrong.json", #"{"version":1,"counters":[\#(negative)]}"#)
    let result = try await Roadmapctl.run(
      ["votes", "import", file.path, "--data-dir", directory.path])
    #expect(result.exitCode == 1)
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(left == ["wrong.json"], "\(left)")
  }

  @Test func aDataDirThatCannotBeOpenedIsLeftAsItWas() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let good = try directory.write("one.json", #"{"version":1,"counters":[\#(Self.record)]}"#)
    let notADirectory = try directory.write("data", "a plain file, not a directory\n")
    let result = try await Roadmapctl.run(
      ["votes", "import", good.path, "--data-dir", notADirectory.path])
    #expect(result.exitCode == 1)
    #expect(result.stderrText.hasPrefix("Error: "), "\(result.stderrText)")
    #expect(
      try String(contentsOf: notADirectory, encoding: .utf8) == "a plain file, not a directory\n")
  }

  @Test func theSummaryCountsInGoodEnglish() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let one = try directory.write("one.json", #"{"version":1,"counters":[\#(Self.record)]}"#)
    let data = directory.url.appendingPathComponent("data").path
    let first = try await Roadmapctl.run(["votes", "import", one.path, "--data-dir", data])
    #expect(first.exitCode == 0, "\(first.stderrText)")
    #expect(first.stderrText == "Imported 1 counter.\n")
    let again = try await Roadmapctl.run(["votes", "import", one.path, "--data-dir", data])
    #expect(
      again.stderrText
        == "Imported 0 counters, skipped 1 that already exists (use --replace to overwrite it).\n")
    let empty = try directory.write("none.json", #"{"version":1,"counters":[]}"#)
    let none = try await Roadmapctl.run(["votes", "import", empty.path, "--data-dir", data])
    #expect(none.stderrText == "Imported 0 counters.\n")
  }

  /// The closing summary goes to standard error, as `votes export`'s, `backup`'s and
  /// `restore`'s do (docs/cli.md); standard output stays empty.
  @Test func theSummaryGoesToStandardErrorAndStandardOutputStaysEmpty() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let records = (1...10).map {
      Self.record.replacingOccurrences(of: #""id":1"#, with: #""id":\#($0)"#)
        .replacingOccurrences(of: #""key":"feature1""#, with: #""key":"feature\#($0)""#)
    }
    let ten = try directory.write(
      "ten.json", #"{"version":1,"counters":["# + records.joined(separator: ",") + "]}")
    let data = directory.url.appendingPathComponent("data").path
    for input in [ten.path, "-"] {
      let result = try await Roadmapctl.run(
        ["votes", "import", input, "--replace", "--data-dir", data],
        stdin: input == "-" ? Array(try Data(contentsOf: ten)) : nil)
      #expect(result.exitCode == 0, "\(result.stderrText)")
      #expect(result.stdout.isEmpty, "\(result.stdoutText)")
      #expect(result.stderrText == "Imported 10 counters.\n")
    }
  }
}
