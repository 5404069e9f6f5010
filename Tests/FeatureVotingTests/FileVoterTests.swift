import FeatureVoting
import Foundation
import RoadmapFormat
import Testing

@Suite("FileVoter")
struct FileVoterTests {
  @Test("two processes voting through one file at once: every vote counted")
  func twoProcesses() async throws {
    let directory = try temporaryDirectory()
    let file = directory.appendingPathComponent("votes.json")
    let helper = try HelperBinary.url("file-voter-stress")
    let votes = 150
    async let first = HelperBinary.run(helper, [file.path, "a", "\(votes)", "7"])
    async let second = HelperBinary.run(helper, [file.path, "b", "\(votes)", "7"])
    let results = try await [first, second]
    for (status, out, err) in results {
      #expect(status == 0, "\(err)")
      #expect(out == "cast \(votes)\n")
    }
    let content = try #require(
      JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
    let counts = try #require(content["counts"] as? [String: Int])
    #expect(counts.values.reduce(0, +) == 2 * votes)
    let voters = try #require(content["voters"] as? [String: [String]])
    #expect(voters.values.map(\.count).reduce(0, +) == 2 * (votes - votes / 5))
    let board = (0..<7).map { RoadmapFeature(id: "\($0)") }
    let read = try await FileVoter(file: file).counts(for: board)
    #expect(read.values.reduce(0, +) == 2 * votes)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    #expect(leftovers == ["votes.json", "votes.json.lock"])
  }

  @Test("once per voter with an identity; anonymous votes count every time")
  func semantics() async throws {
    let file = try temporaryDirectory().appendingPathComponent("votes.json")
    let alice = FileVoter(file: file, identity: try VoterIdentity(appUserID: "alice"))
    let anonymous = FileVoter(file: file)
    let feature = RoadmapFeature(id: "1")
    #expect(try await alice.count(for: feature) == 0)
    #expect(try await alice.castVote(for: feature) == 1)
    #expect(try await alice.castVote(for: feature) == 1)
    #expect(try await anonymous.castVote(for: feature) == 2)
    #expect(try await anonymous.castVote(for: feature) == 3)
    #expect(try await anonymous.withdrawVote(for: feature) == 2)
    #expect(try await anonymous.withdrawVote(for: feature) == 1)
    // Alice's vote is hers: an anonymous unvote cannot take it.
    #expect(try await anonymous.withdrawVote(for: feature) == 1)
    #expect(try await alice.withdrawVote(for: feature) == 0)
    #expect(try await alice.withdrawVote(for: feature) == 0)
    #expect(await anonymous.fetch(for: feature) == 0)
    #expect(try await anonymous.counts(for: features("1", "2")) == ["1": 0, "2": 0])
    #expect(try await FileVoter(file: file, keys: .plainID).count(for: feature) == 0)
  }

  @Test(
    "a corrupt or unreadable file is an error naming it, never a reset",
    arguments: [
      "{\"version\":1,\"counts\":{\"feature1\":", "[]", "{\"version\":2,\"counts\":{}}",
      "{\"version\":1,\"counts\":{\"feature1\":-4}}",
      "{\"version\":1,\"counts\":{\"feature1\":\"3\"}}",
    ])
  func corrupt(content: String) async throws {
    let file = try temporaryDirectory().appendingPathComponent("votes.json")
    try Data(content.utf8).write(to: file)
    let voter = FileVoter(file: file)
    for error in [
      await votingError { try await voter.count(for: RoadmapFeature(id: "1")) },
      await votingError { try await voter.castVote(for: RoadmapFeature(id: "1")) },
      await votingError { try await voter.counts(for: features("1")) },
    ] {
      #expect(error?.kind == .storage)
      #expect(error?.file == file.path)
      #expect(error?.message.hasPrefix(file.path) == true)
    }
    #expect(await voter.vote(for: RoadmapFeature(id: "1")) == nil)
    #expect(try String(contentsOf: file, encoding: .utf8) == content)
  }

  /// Damaged vote files and what the error says about each, after the file's path.
  static let damage: [(content: String, detail: String)] = [
    // The version is checked first: a file of another version says so, whatever else it holds.
    (#"{"version":2,"counts":{}}"#, "has version 2, and this library reads version 1"),
    (
      #"{"version":2,"counts":{"feature1":1.5}}"#, "has version 2, and this library reads version 1"
    ),
    (#"{"counts":{},"voters":{}}"#, #"has no "version" key"#),
    (#"{"version":"1","counts":{},"voters":{}}"#, #"version is "1", not a version number"#),
    (#"{"version":1,"voters":{}}"#, #"has no "counts" key"#),
    (
      #"{"version":1,"counts":[1],"voters":{}}"#, "counts is a list, not an object of counts by key"
    ),
    // Then each count, named with its value, before a missing "voters" key.
    (
      #"{"version":1,"counts":{"feature1":1.5}}"#,
      "counts.feature1 is 1.5, not a whole number of votes"
    ),
    (
      #"{"version":1,"counts":{"feature1":-4}}"#,
      "counts.feature1 is -4, and a count cannot be negative"
    ),
    (
      #"{"version":1,"counts":{"feature1":"3"},"voters":{}}"#,
      #"counts.feature1 is "3", not a whole number of votes"#
    ),
    (
      #"{"version":1,"counts":{"feature1":true},"voters":{}}"#,
      "counts.feature1 is true, not a whole number of votes"
    ),
    (
      #"{"version":1,"counts":{"feature1":null},"voters":{}}"#,
      "counts.feature1 is null, not a whole number of votes"
    ),
    (
      #"{"version":1,"counts":{"feature1":{}},"voters":{}}"#,
      "counts.feature1 is an object, not a whole number of votes"
    ),
    (#"{"version":1,"counts":{"feature1":2}}"#, #"has no "voters" key"#),
    (
      #"{"version":1,"counts":{},"voters":[]}"#,
      "voters is a list, not an object of voter ids by key"
    ),
    (
      #"{"version":1,"counts":{},"voters":{"feature1":"alice"}}"#,
      #"voters.feature1 is "alice", not a list of voter ids"#
    ),
    (
      #"{"version":1,"counts":{},"voters":{"feature1":["alice",3]}}"#,
      "voters.feature1[1] is 3, not a voter id"
    ),
    ("[]", "is a list, not a vote file (a JSON object)"),
    ("", "is empty, not a vote file"),
  ]

  @Test("a damaged file's error names the problem: the key and its value, or the missing key")
  func damageNamed() async throws {
    let directory = try temporaryDirectory()
    for (index, (content, detail)) in Self.damage.enumerated() {
      let file = directory.appendingPathComponent("votes-\(index).json")
      try Data(content.utf8).write(to: file)
      let voter = FileVoter(file: file)
      for error in [
        await votingError { try await voter.count(for: RoadmapFeature(id: "1")) },
        await votingError { try await voter.castVote(for: RoadmapFeature(id: "1")) },
        await votingError { try await voter.withdrawVote(for: RoadmapFeature(id: "1")) },
        await votingError { try await voter.counts(for: features("1")) },
      ] {
        #expect(error?.kind == .storage && error?.file == file.path, "\(content)")
        #expect(error?.message == "\(file.path): \(detail); it was left unchanged", "\(content)")
      }
      #expect(try String(contentsOf: file, encoding: .utf8) == content)
    }
    // JSON cut short is not JSON, and says no more than the parser does.
    let file = directory.appendingPathComponent("votes.json")
    try Data(#"{"version":1,"counts":{"feature1":"#.utf8).write(to: file)
    let error = await votingError {
      try await FileVoter(file: file).count(for: RoadmapFeature(id: "1"))
    }
    #expect(
      error?.message.hasPrefix("\(file.path): is not JSON") == true, "\(String(describing: error))")
    #expect(error?.message.contains("DecodingError") == false)
    #expect(error?.message.contains("CodingKeys") == false)
    // A whole number written with a fraction is a count.
    try Data(#"{"version":1,"counts":{"feature1":3.0},"voters":{}}"#.utf8).write(to: file)
    #expect(try await FileVoter(file: file).count(for: RoadmapFeature(id: "1")) == 3)
  }

  @Test("a count past 2^53 − 1 is a damaged file and a count at it refuses the vote; no trap")
  func largestCount() async throws {
    let directory = try temporaryDirectory()
    let feature = RoadmapFeature(id: "1")
    // Past the largest count (Int.max among them): the file is damaged, for reads and votes
    // alike, every time, and stays as it is.
    for count in ["9223372036854775807", "9007199254740992"] {
      let file = directory.appendingPathComponent("past-\(count).json")
      let content = #"{"version":1,"counts":{"feature1":\#(count)},"voters":{}}"#
      try Data(content.utf8).write(to: file)
      let voter = FileVoter(file: file)
      for _ in 0..<2 {
        for error in [
          await votingError { try await voter.castVote(for: feature) },
          await votingError { try await voter.withdrawVote(for: feature) },
          await votingError { try await voter.count(for: feature) },
        ] {
          #expect(error?.kind == .storage && error?.file == file.path)
          #expect(
            error?.message
              == "\(file.path): counts.feature1 is \(count), more than the largest count a vote "
              + "file holds (9007199254740991); it was left unchanged")
        }
      }
      #expect(try String(contentsOf: file, encoding: .utf8) == content)
    }
    // At the largest count: reads answer it; a vote is refused, naming the file and the count,
    // and changes nothing; an unvote still counts.
    let file = directory.appendingPathComponent("votes.json")
    let content = #"{"version":1,"counts":{"feature1":9007199254740991},"voters":{}}"#
    try Data(content.utf8).write(to: file)
    let anonymous = FileVoter(file: file)
    let alice = FileVoter(file: file, identity: try VoterIdentity(appUserID: "alice"))
    #expect(try await anonymous.count(for: feature) == 9_007_199_254_740_991)
    for voter in [anonymous, alice] {
      let error = await votingError { try await voter.castVote(for: feature) }
      #expect(error?.kind == .storage && error?.file == file.path)
      #expect(
        error?.message
          == "\(file.path): counts.feature1 is 9007199254740991, the largest count a vote file "
          + "holds: the vote was not counted and the file was left unchanged")
      #expect(await voter.vote(for: feature) == nil)
    }
    #expect(try String(contentsOf: file, encoding: .utf8) == content)
    #expect(try await anonymous.withdrawVote(for: feature) == 9_007_199_254_740_990)
    #expect(try await alice.castVote(for: feature) == 9_007_199_254_740_991)
    #expect(try await alice.castVote(for: feature) == 9_007_199_254_740_991)
  }

  /// The file's content as JSON values, for comparing what a rewrite kept.
  private static func json(_ file: URL) throws -> NSDictionary {
    try #require(JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? NSDictionary)
  }

  @Test("a rewrite keeps the keys this version does not know, as they were")
  func unknownKeysKept() async throws {
    let file = try temporaryDirectory().appendingPathComponent("votes.json")
    let extra =
      #""comment":"edited by hand","next":{"writer":"v1.1","list":[1,2.5,true,null,"a/b",{}]},"#
      + #""big":12345678901234567890,"zero":0"#
    try Data(#"{"version":1,\#(extra),"counts":{"feature1":2},"voters":{}}"#.utf8).write(to: file)
    let expected = try Self.json(file)
    let feature = RoadmapFeature(id: "1")
    #expect(try await FileVoter(file: file).castVote(for: feature) == 3)
    #expect(
      try await FileVoter(file: file, identity: try VoterIdentity(appUserID: "alice"))
        .castVote(for: feature) == 4)
    #expect(try await FileVoter(file: file).withdrawVote(for: feature) == 3)
    let written = try Self.json(file)
    for key in ["comment", "next", "big", "zero"] {
      #expect(written[key] as? NSObject == expected[key] as? NSObject, "\(key)")
    }
    #expect(written["counts"] as? NSDictionary == ["feature1": 3])
    #expect(written["voters"] as? NSDictionary == ["feature1": ["alice"]])
    #expect(written.count == expected.count)
    // A number no Double holds is written back as it was, and the vote counts.
    let huge = #"{"version":1,"counts":{"feature1":2},"voters":{},"x":[1e400]}"#
    try Data(huge.utf8).write(to: file)
    #expect(try await FileVoter(file: file).count(for: feature) == 2)
    #expect(try await FileVoter(file: file).castVote(for: feature) == 3)
    #expect(
      try String(contentsOf: file, encoding: .utf8)
        == #"{"counts":{"feature1":3},"version":1,"voters":{},"x":[1e400]}"#)
  }

  @Test("more voters than the count: each listed voter's vote counts, and none is lost")
  func votersPastCount() async throws {
    let file = try temporaryDirectory().appendingPathComponent("votes.json")
    let content =
      #"{"version":1,"counts":{"feature1":1,"feature3":0},"#
      + #""voters":{"feature1":["bob","alice","bob"],"feature2":["carol"]}}"#
    try Data(content.utf8).write(to: file)
    let anonymous = FileVoter(file: file)
    let bob = FileVoter(file: file, identity: try VoterIdentity(appUserID: "bob"))
    let alice = FileVoter(file: file, identity: try VoterIdentity(appUserID: "alice"))
    #expect(
      try await anonymous.counts(for: features("1", "2", "3")) == ["1": 2, "2": 1, "3": 0])
    // An anonymous unvote finds no anonymous vote to take; bob's takes only bob's.
    #expect(try await anonymous.withdrawVote(for: RoadmapFeature(id: "1")) == 2)
    #expect(try await bob.withdrawVote(for: RoadmapFeature(id: "1")) == 1)
    #expect(try await alice.count(for: RoadmapFeature(id: "1")) == 1)
    #expect(try await alice.withdrawVote(for: RoadmapFeature(id: "1")) == 0)
    #expect(try await bob.castVote(for: RoadmapFeature(id: "2")) == 2)
    let written = try Self.json(file)
    #expect(written["counts"] as? NSDictionary == ["feature1": 0, "feature2": 2, "feature3": 0])
    #expect(written["voters"] as? NSDictionary == ["feature2": ["bob", "carol"]])
  }

  @Test("a vote file in a place that cannot be written is an error naming it")
  func unwritable() async throws {
    let blocker = try temporaryDirectory().appendingPathComponent("not-a-directory")
    try Data("x".utf8).write(to: blocker)
    let voter = FileVoter(file: blocker.appendingPathComponent("votes.json"))
    let error = await votingError { try await voter.castVote(for: RoadmapFeature(id: "1")) }
    #expect(error?.kind == .storage)
    #expect(error?.message.contains("not-a-directory") == true)
  }
}

/// Unknown top-level keys are written back as their text was read. A rewrite respelled
/// numbers under them (`-0` as `0`, `1E2` as `100`), dropped all but one of a key repeated
/// inside an object, and refused the vote for a number of more digits than a `Decimal` keeps or
/// a string with a lone surrogate ("cannot write back"). Their text is now kept byte for byte
/// while the vote changes only what it counts.
@Suite("FileVoter's unknown keys, as written")
struct FileVoterUnknownTextTests {
  @Test("a repeated key, -0, 1E2, escapes and layout under unknown keys are kept as written")
  func unknownTextKept() async throws {
    let file = try temporaryDirectory().appendingPathComponent("votes.json")
    let feature = RoadmapFeature(id: "1")
    let text = #"""
      {"version":1,"z":{"a":1,"a":2},"n":-0,"e":1E2,"s":"caf\u00e9 \\/ \/","\u0078":[ 1.50 ,
      true ],"counts":{"feature1":2},"voters":{}}
      """#
    try Data(text.utf8).write(to: file)
    #expect(try await FileVoter(file: file).castVote(for: feature) == 3)
    #expect(
      try await FileVoter(file: file, identity: try VoterIdentity(appUserID: "ann"))
        .castVote(for: feature) == 4)
    let written = try String(contentsOf: file, encoding: .utf8)
    let expected = #"""
      {"counts":{"feature1":4},"e":1E2,"n":-0,"s":"caf\u00e9 \\/ \/","version":1,"voters":{"feature1":["ann"]},"\u0078":[ 1.50 ,
      true ],"z":{"a":1,"a":2}}
      """#
    #expect(written == expected)
  }

  @Test("a number cut short on reading, or a lone surrogate, is written back and the vote counts")
  func unwritableUnknownKeys() async throws {
    let file = try temporaryDirectory().appendingPathComponent("votes.json")
    let feature = RoadmapFeature(id: "1")
    let cases = [
      (
        #""big":123456789012345678901234567890123456789012"#,
        #"{"big":123456789012345678901234567890123456789012,"counts":{"feature1":3},"#
          + #""version":1,"voters":{}}"#
      ),
      (
        #""s":{"t":["\ud800"]}"#,
        #"{"counts":{"feature1":3},"s":{"t":["\ud800"]},"version":1,"voters":{}}"#
      ),
    ]
    for (extra, rewritten) in cases {
      let text = #"{"version":1,\#(extra),"counts":{"feature1":2},"voters":{}}"#
      try Data(text.utf8).write(to: file)
      #expect(try await FileVoter(file: file).count(for: feature) == 2)
      #expect(try await FileVoter(file: file).castVote(for: feature) == 3)
      #expect(try String(contentsOf: file, encoding: .utf8) == rewritten)
    }
    // Numbers a Decimal holds whole are still written back exactly.
    let kept = #"{"version":1,"f":0.1000000000000000055511151231257827,"counts":{},"voters":{}}"#
    try Data(kept.utf8).write(to: file)
    #expect(try await FileVoter(file: file).castVote(for: feature) == 1)
    #expect(
      try String(contentsOf: file, encoding: .utf8).contains(
        #""f":0.1000000000000000055511151231257827"#))
  }
}

/// A key the JSON decoder cannot read (a lone surrogate such as `"\ud800"`, bytes that are not
/// UTF-8) was named as "a number out of range": a file whose top-level key was such was said to
/// be `is a number out of range, not a vote file (a JSON object)`, and a `counts` with one
/// `counts is a number out of range, not an object of counts by key`. The message now says a
/// key cannot be read.
@Suite("FileVoter's keys that cannot be read")
struct FileVoterUnreadableKeyTests {
  @Test("a key that cannot be read is named as one, and the file is left as it is")
  func unreadableKeyNamed() async throws {
    let file = try temporaryDirectory().appendingPathComponent("votes.json")
    let unreadable =
      #"an object with a key that cannot be read (a lone surrogate such as "\ud800", or bytes "#
      + "that are not UTF-8)"
    let topLevel =
      #"has a key that cannot be read (a lone surrogate such as "\ud800", or bytes that are "#
      + "not UTF-8)"
    let base = #""version":1,"counts":{"feature1":2},"voters":{}"#
    let cases: [([UInt8], String)] = [
      (Array(#"{\#(base),"\ud800":1}"#.utf8), topLevel),
      (Array(#"{\#(base),""#.utf8) + [0xFF] + Array(#"":1}"#.utf8), topLevel),
      (
        Array(#"{"version":1,"counts":{"\ud800":1},"voters":{}}"#.utf8),
        "counts is \(unreadable), not an object of counts by key"
      ),
    ]
    for (bytes, detail) in cases {
      try Data(bytes).write(to: file)
      let voter = FileVoter(file: file)
      for error in [
        await votingError { try await voter.count(for: RoadmapFeature(id: "1")) },
        await votingError { try await voter.castVote(for: RoadmapFeature(id: "1")) },
      ] {
        #expect(error?.kind == .storage && error?.file == file.path, "\(detail)")
        #expect(error?.message == "\(file.path): \(detail); it was left unchanged")
      }
      #expect(try [UInt8](Data(contentsOf: file)) == bytes)
    }
  }
}
