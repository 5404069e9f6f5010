import Foundation
import RoadmapFormat
import Testing

@testable import FeatureVoting

/// A vote file's top-level members that are all counts (`[String: Int]`), all lists of voter
/// ids (`[String: [String]]`) or all numbers (`[Int]`) are decoded as that type at once,
/// instead of value by value, where each value cost a failed decoding (a vote in a file of
/// 50,000 keys took seconds). These tests pin what that must not change: each value reads as
/// the same kind as before, in the same order of kinds, and what cannot be read is still named.
@Suite("VoteFile's decoding of uniform members")
struct VoteFileValueTests {
  private static func number(_ value: Int) -> VoteFileValue {
    .number(Double(value), text: String(value))
  }

  @Test("each top-level member reads as the kind it read as value by value")
  func kindsKept() throws {
    let cases: [(json: String, expected: VoteFileValue)] = [
      (#"{"a":1,"b":2}"#, .object(["a": Self.number(1), "b": Self.number(2)])),
      (
        #"{"a":["x","1"],"b":[]}"#,
        .object(["a": .array([.string("x"), .string("1")]), "b": .array([])])
      ),
      ("[1,2]", .array([Self.number(1), Self.number(2)])),
      ("[]", .array([])),
      ("{}", .object([:])),
      // A number-like string stays a string; an integer is never a boolean.
      (#"["1","2"]"#, .array([.string("1"), .string("2")])),
      (#"["1",2]"#, .array([.string("1"), Self.number(2)])),
      ("[true,1]", .array([.bool(true), Self.number(1)])),
      ("[1,null]", .array([Self.number(1), .null])),
      (#"{"a":"1","b":2}"#, .object(["a": .string("1"), "b": Self.number(2)])),
      (#"{"a":1,"b":null}"#, .object(["a": Self.number(1), "b": .null])),
      (#"{"a":[1,2]}"#, .object(["a": .array([Self.number(1), Self.number(2)])])),
      (#"{"a":["x"],"b":"y"}"#, .object(["a": .array([.string("x")]), "b": .string("y")])),
      (
        "[1,1.5]",
        .array([Self.number(1), .number(1.5, text: "1.5", exact: Decimal(string: "1.5"))])
      ),
      ("[1e400,1]", .array([.unreadableNumber, Self.number(1)])),
      (#""1""#, .string("1")),
      ("1", Self.number(1)),
      // A string or key Swift cannot hold is still named as one, wherever it is.
      (#"["a","\ud800"]"#, .array([.string("a"), .unreadableString])),
      (#"{"k":["\ud800"]}"#, .object(["k": .array([.unreadableString])])),
      (#"{"k":"\ud800","n":1}"#, .object(["k": .unreadableString, "n": Self.number(1)])),
      (#"{"k":{"\ud800":1}}"#, .object(["k": .unreadableKey])),
    ]
    let members = cases.enumerated().map { #""k\#($0.offset)":\#($0.element.json)"# }
    let file = try temporaryDirectory().appendingPathComponent("votes.json")
    let text = #"{"version":1,"counts":{},"voters":{},\#(members.joined(separator: ","))}"#
    try Data(text.utf8).write(to: file)
    let content = try VoteFile.read(file)
    #expect(content.unknown.count == cases.count)
    for (index, (json, expected)) in cases.enumerated() {
      #expect(content.unknown["k\(index)"] == expected, "\(json)")
    }
  }

  @Test("a vote file's counts and voters of the wrong kind, or unreadable, are still refused")
  func refusalsKept() async throws {
    let directory = try temporaryDirectory()
    let surrogate = #"a string with a lone surrogate such as "\ud800""#
    let cases: [(content: String, detail: String)] = [
      (
        #"{"version":1,"counts":{"feature1":"3","feature2":"4"},"voters":{}}"#,
        #"counts.feature1 is "3", not a whole number of votes"#
      ),
      (
        #"{"version":1,"counts":{},"voters":{"feature1":[1,2]}}"#,
        "voters.feature1[0] is 1, not a voter id"
      ),
      (
        #"{"version":1,"counts":{},"voters":{"feature1":["alice","\ud800"]}}"#,
        "voters.feature1[1] is \(surrogate), not a voter id"
      ),
      (
        #"{"version":1,"counts":{"feature1":"\ud800"},"voters":{}}"#,
        "counts.feature1 is \(surrogate), not a whole number of votes"
      ),
    ]
    for (index, (content, detail)) in cases.enumerated() {
      let file = directory.appendingPathComponent("votes-\(index).json")
      try Data(content.utf8).write(to: file)
      let voter = FileVoter(file: file)
      for error in [
        await votingError { try await voter.count(for: RoadmapFeature(id: "1")) },
        await votingError { try await voter.castVote(for: RoadmapFeature(id: "1")) },
      ] {
        #expect(error?.kind == .storage && error?.file == file.path, "\(content)")
        #expect(error?.message == "\(file.path): \(detail); it was left unchanged", "\(content)")
      }
      #expect(try String(contentsOf: file, encoding: .utf8) == content)
    }
    // Voter ids that look like numbers are ids, and count.
    let file = directory.appendingPathComponent("votes.json")
    try Data(#"{"version":1,"counts":{"feature1":0},"voters":{"feature1":["1","2"]}}"#.utf8)
      .write(to: file)
    #expect(try await FileVoter(file: file).count(for: RoadmapFeature(id: "1")) == 2)
    #expect(try await FileVoter(file: file).castVote(for: RoadmapFeature(id: "1")) == 3)
    let written = try String(contentsOf: file, encoding: .utf8)
    #expect(written.contains(#""voters":{"feature1":["1","2"]}"#), "\(written)")
  }
}
