import Foundation
import Testing

/// Issue 7, item 1, through the real binary: `votes import` applies the rules of a live
/// write, names every bad record with its line and column, and changes nothing.
@Suite struct VotesImportRulesTests {
  static func record(_ key: String, _ change: (String) -> String = { $0 }) -> String {
    change(
      #"{"record":{"id":0,"namespace":"app.example","key":"\#(key)","value":2,"enableReset":false,"updateLowerBound":-1,"updateUpperBound":1,"createdAt":1700000000000,"updatedAt":1700000000000},"voters":["ann"]}"#
    )
  }

  @Test func everyBadRecordIsNamedAndNothingChanges() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let data = directory.url.appendingPathComponent("data").path
    let good = try directory.write(
      "good.json", "{\"version\":1,\"counters\":[\(Self.record("feature1"))]}")
    let first = try await Roadmapctl.run(["votes", "import", good.path, "--data-dir", data])
    #expect(first.exitCode == 0, "\(first.stderrText)")
    let before = try await Roadmapctl.run(["votes", "export", "--data-dir", data])

    let records = [
      Self.record("feature1") { $0.replacingOccurrences(of: #""value":2"#, with: #""value":7"#) },
      Self.record("feature2") {
        $0.replacingOccurrences(
          of: "1700000000000,\"updatedAt\"", with: "-9223372036854775808,\"updatedAt\"")
      },
      Self.record("feature3") {
        $0.replacingOccurrences(of: #""value":2"#, with: #""value":9223372036854775807"#)
      },
      Self.record(""),
      Self.record("feature5") {
        $0.replacingOccurrences(of: #""value":2"#, with: #""value":1,"value":999"#)
      },
      Self.record("feature6") { $0.replacingOccurrences(of: #"["ann"]"#, with: #"["ann","ann"]"#) },
    ]
    let bad = try directory.write(
      "bad.json", "{\"version\":1,\"counters\":[\n" + records.joined(separator: ",\n") + "\n]}\n")
    let refused = try await Roadmapctl.run(
      ["votes", "import", bad.path, "--replace", "--data-dir", data])
    #expect(refused.exitCode == 1)
    let lines = refused.stderrText.replacingOccurrences(of: bad.path, with: "FILE")
      .split(separator: "\n").map(String.init)
    #expect(lines.first == "Error: nothing was imported: FILE has 5 problems:", "\(lines)")
    let expected = [
      ("FILE:3:", "counters[1].record.createdAt (counter 2, app.example/feature2)", "out of range"),
      ("FILE:4:", "counters[2].record.value (counter 3, app.example/feature3)", "out of range"),
      ("FILE:5:", "counters[3].record.key (counter 4, app.example/)", #""" is empty: a key is"#),
      ("FILE:6:", "counters[4].record.value (counter 5, app.example/feature5)", "appears twice"),
      ("FILE:7:", "counters[5].voters[1] (counter 6, app.example/feature6)", "appears twice"),
    ]
    #expect(lines.count == expected.count + 1)
    for (line, (place, path, reason)) in zip(lines.dropFirst(), expected) {
      #expect(line.hasPrefix("  " + place), "\(line)")
      #expect(line.contains(": " + path + ": "), "\(line)")
      #expect(line.contains(reason), "\(line)")
    }
    #expect(!refused.stderrText.contains("not valid JSON"))
    let after = try await Roadmapctl.run(["votes", "export", "--data-dir", data])
    #expect(after.stdout == before.stdout)
  }

  /// A file of thousands of bad counters lists the first hundred, then how many more.
  @Test func aFileOfManyBadCountersListsTheFirstHundred() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let records = (1...2500).map {
      Self.record("feature\($0)") {
        $0.replacingOccurrences(of: #""value":2"#, with: #""value":9223372036854775807"#)
      }
    }
    let bad = try directory.write(
      "bad.json", "{\"version\":1,\"counters\":[\n" + records.joined(separator: ",\n") + "\n]}\n")
    let data = directory.url.appendingPathComponent("data")
    let refused = try await Roadmapctl.run(["votes", "import", bad.path, "--data-dir", data.path])
    #expect(refused.exitCode == 1)
    let lines = refused.stderrText.replacingOccurrences(of: bad.path, with: "FILE")
      .split(separator: "\n").map(String.init)
    #expect(lines.first == "Error: nothing was imported: FILE has 2500 problems:")
    #expect(lines.count == 102, "\(lines.count) lines")
    #expect(lines[1].hasPrefix("  FILE:2:"), "\(lines[1])")
    #expect(lines[100].contains("(counter 100, app.example/feature100)"), "\(lines[100])")
    #expect(lines.last == "  … and 2400 more, not listed")
  }
}
