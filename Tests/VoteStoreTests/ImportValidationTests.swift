import Foundation
import Testing
import VoteStore

/// Issue 7, item 1: an import applies exactly the rules of a live write, reports every bad
/// record by its position with a reason, and changes nothing.
@Suite struct ImportValidationTests {
  /// A good record with `change` applied to its JSON text.
  static func record(_ change: (String) -> String = { $0 }) -> String {
    change(
      #"{"record":{"id":1,"namespace":"app.example","key":"feature1","value":3,"enableReset":false,"updateLowerBound":-1,"updateUpperBound":1,"createdAt":1700000000000,"updatedAt":1700000000000},"voters":["ann","ben"]}"#
    )
  }

  static func document(_ records: [String], version: Int = 1) -> [UInt8] {
    Array(#"{"version":\#(version),"counters":[\#(records.joined(separator: ","))]}"#.utf8)
  }

  static func problems(_ bytes: [UInt8]) -> [ImportProblem] {
    switch VoteExport.read(bytes) {
    case .success: return []
    case .failure(let found): return found.problems
    }
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var from: String
    var to: String
    var path: String
    var message: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "createdAt −2^63", from: #""createdAt":1700000000000"#,
      to: #""createdAt":-9223372036854775808"#, path: "counters[0].record.createdAt",
      message: "-9223372036854775808 is out of range: a time must be"),
    Case(
      name: "value 2^63−1", from: #""value":3"#, to: #""value":9223372036854775807"#,
      path: "counters[0].record.value",
      message: "is out of range: a count must be 0 to 9007199254740991"),
    Case(
      name: "value 2^64, beyond any integer", from: #""value":3"#,
      to: #""value":18446744073709551616"#, path: "counters[0].record.value",
      message: "18446744073709551616 is out of range"),
    Case(
      name: "a negative count", from: #""value":3"#, to: #""value":-3"#,
      path: "counters[0].record.value", message: "-3 is out of range"),
    Case(
      name: "a lower bound of −2^63", from: #""updateLowerBound":-1"#,
      to: #""updateLowerBound":-9223372036854775808"#, path: "counters[0].record.updateLowerBound",
      message: "a bound must be within ±9007199254740991"),
    Case(
      name: "an upper bound of 2^63", from: #""updateUpperBound":1"#,
      to: #""updateUpperBound":9223372036854775808"#, path: "counters[0].record.updateUpperBound",
      message: "9223372036854775808 is out of range"),
    Case(
      name: "inverted bounds", from: #""updateLowerBound":-1,"updateUpperBound":1"#,
      to: #""updateLowerBound":5,"updateUpperBound":1"#,
      path: "counters[0].record.updateLowerBound",
      message: "the lower bound 5 is above the upper bound 1"),
    Case(
      name: "a key with CR LF", from: #""key":"feature1""#, to: #""key":"feat\r\nure""#,
      path: "counters[0].record.key",
      message: #""feat\r\nure" is not a valid key: character 5 is the control character U+000D"#),
    Case(
      name: "a key with U+001F inside", from: #""key":"feature1""#, to: #""key":"feature\u001f1""#,
      path: "counters[0].record.key",
      message: #"is not a valid key: character 8 is the control character U+001F"#),
    Case(
      name: "a key with DEL", from: #""key":"feature1""#, to: #""key":"feature\u007f""#,
      path: "counters[0].record.key", message: "the control character U+007F"),
    Case(
      name: "an empty key", from: #""key":"feature1""#, to: #""key":"""#,
      path: "counters[0].record.key",
      message: #""" is empty: a key is 1 to 314 characters without control characters"#),
    Case(
      name: "a key of 315 characters", from: #""key":"feature1""#,
      to: #""key":"\#(String(repeating: "k", count: 315))""#, path: "counters[0].record.key",
      message: "is not a valid key: it is 315 characters long: a key is 1 to 314 characters"),
    Case(
      name: "a ref-less key without an id", from: #""key":"feature1""#, to: #""key":"\u001fvf""#,
      path: "counters[0].record.key",
      message: "after U+001F + vf comes the id of a VoteFirst feature without a ref"),
    Case(
      name: "a ref-less key with a leading zero", from: #""key":"feature1""#,
      to: #""key":"\u001fvf01""#, path: "counters[0].record.key",
      message: "(1 to 9223372036854775807, no leading zeros)"),
    Case(
      name: "a ref-less key of id 0", from: #""key":"feature1""#, to: #""key":"\u001fvf0""#,
      path: "counters[0].record.key", message: "after U+001F + vf comes the id"),
    Case(
      name: "a ref-less key past 2^63−1", from: #""key":"feature1""#,
      to: #""key":"\u001fvf9223372036854775808""#, path: "counters[0].record.key",
      message: "after U+001F + vf comes the id"),
    Case(
      name: "a ref-less key with a name after it", from: #""key":"feature1""#,
      to: #""key":"\u001fvf1x""#, path: "counters[0].record.key",
      message: "after U+001F + vf comes the id"),
    Case(
      name: "café", from: #""namespace":"app.example""#, to: #""namespace":"café""#,
      path: "counters[0].record.namespace", message: #""café" is not a valid name"#),
    Case(
      name: "a namespace of dots only", from: #""namespace":"app.example""#,
      to: #""namespace":"...""#, path: "counters[0].record.namespace",
      message: "(not dots only)"),
    Case(
      name: "a namespace with a slash", from: #""namespace":"app.example""#,
      to: #""namespace":"app/example""#, path: "counters[0].record.namespace",
      message: "is not a valid name: use 3 to 64 of A-Z a-z 0-9 _ - . (not dots only)"),
    Case(
      name: "a voter id with a space", from: #"["ann","ben"]"#, to: #"["ann","b en"]"#,
      path: "counters[0].voters[1]", message: #""b en" is not a valid voter id"#),
    Case(
      name: "a voter id of 10,000 characters", from: #"["ann","ben"]"#,
      to: #"["ann","\#(String(repeating: "v", count: 10_000))"]"#, path: "counters[0].voters[1]",
      message: "… (10000 bytes)"),
    Case(
      name: "more voters than the count", from: #""value":3"#, to: #""value":1"#,
      path: "counters[0].voters", message: "2 voters hold a vote, but the count is 1"),
    Case(
      name: "a voter twice", from: #"["ann","ben"]"#, to: #"["ann","ann"]"#,
      path: "counters[0].voters[1]", message: "this voter appears twice (first as voters[0])"),
    Case(
      name: "a duplicate member", from: #""value":3"#, to: #""value":1,"value":999"#,
      path: "counters[0].record.value", message: #"the member "value" appears twice"#),
    Case(
      name: "a fraction", from: #""value":3"#, to: #""value":2.5"#,
      path: "counters[0].record.value", message: "2.5 is not a whole number"),
    Case(
      name: "a string for a number", from: #""value":3"#, to: #""value":"3""#,
      path: "counters[0].record.value", message: "expected an integer, found a string"),
    Case(
      name: "a missing member", from: #""key":"feature1","#, to: "",
      path: "counters[0].record", message: #"the member "key" is missing"#),
    Case(
      name: "an unknown member", from: #""value":3"#, to: #""value":3,"vlaue":4"#,
      path: "counters[0].record.vlaue", message: #"unknown member "vlaue""#),
    Case(
      name: "a timestamp after 9999", from: #""updatedAt":1700000000000"#,
      to: #""updatedAt":253402300800000"#, path: "counters[0].record.updatedAt",
      message: "is out of range"),
  ]

  @Test(arguments: cases)
  func aBadValueIsReportedWithItsPathAndReason(row: Case) throws {
    let bad = Self.record { $0.replacingOccurrences(of: row.from, with: row.to) }
    #expect(bad != Self.record(), "the case changes nothing")
    let found = Self.problems(Self.document([Self.record(), bad].map { $0 }).map { $0 })
    let problem = try #require(
      found.first { $0.path == row.path.replacingOccurrences(of: "[0]", with: "[1]") },
      "\(found)")
    #expect(problem.message.contains(row.message), "\(problem.message)")
    #expect(problem.index == 1)
    #expect(problem.line == 1 && (problem.column ?? 0) > 1)
    // Out-of-range numbers are reported as such, never as bad JSON.
    #expect(!found.contains { $0.message.contains("not valid JSON") })
  }

  /// Every key a store's own writes make: countapi names, and the VoteFirst board's keys
  /// (`feature{ref}` with a ref of up to 254 characters of anything but control characters,
  /// under a template of up to 64 characters; U+001F + vf + the id of a feature without a
  /// ref).
  static let keysTheStoreMakes: [String] = [
    "feature1", "featurea/b", "\u{1F}vf1", "\u{1F}vf9223372036854775807", "...", "x",
    "feature café/ü 1", "{id}", "feature\u{80}\u{FFFE}",
    "feature" + String(repeating: "/", count: 254),
    String(repeating: "t", count: 60) + String(repeating: "é", count: 254),
    String(repeating: "🗳", count: CounterNames.maximumKeyLength),
  ]

  @Test func everyKeyTheStoresWritesMakeIsReadAndAccepted() throws {
    for key in Self.keysTheStoreMakes {
      #expect(CounterNames.isValidKey(key), "\(key)")
    }
    let records = Self.keysTheStoreMakes.map { key in
      Self.record {
        $0.replacingOccurrences(of: #""key":"feature1""#, with: "\"key\":\(Self.quoted(key))")
      }
    }
    let export = try VoteExport.read(Self.document(records)).get()
    #expect(export.counters.map(\.record.key) == Self.keysTheStoreMakes)
    #expect(export.problems().isEmpty)
    // The countapi routes' rule is unchanged: these are keys, not names.
    #expect(!CounterNames.isValidName("featurea/b"))
    #expect(!CounterNames.isValidName("\u{1F}vf1"))
    #expect(!CounterNames.isValidKey(""))
    #expect(!CounterNames.isValidKey(String(repeating: "k", count: 315)))
    #expect(!CounterNames.isValidKey("feature\u{0}"))
  }

  /// `text` as a JSON string, control characters as `\u00XX`.
  static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"", "\\": out += "\\" + String(scalar)
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  @Test func everyBadRecordIsReportedInFileOrderWithLineAndColumn() throws {
    let records = [
      Self.record(),
      Self.record {
        $0.replacingOccurrences(of: #""value":3"#, with: #""value":-1"#)
          .replacingOccurrences(of: "feature1", with: "feature2")
      },
      Self.record(),
      Self.record {
        $0.replacingOccurrences(of: #""key":"feature1""#, with: #""key":"x\u0001""#)
          .replacingOccurrences(of: #""ann","ben""#, with: #""a b""#)
      },
    ]
    let text = "{\"version\":1,\"counters\":[\n" + records.joined(separator: ",\n") + "\n]}\n"
    let found = Self.problems(Array(text.utf8))
    #expect(found.map(\.index) == [1, 2, 3, 3])
    #expect(found.map(\.line) == [3, 4, 5, 5])
    #expect(found[0].counter == "app.example/feature2")
    #expect(found[1].message.contains("appears twice (first as counters[0])"))
    #expect(found[2].path == "counters[3].record.key")
    #expect(found[3].path == "counters[3].voters[0]")
    let column = try #require(found[0].column)
    let line3 = text.split(separator: "\n", omittingEmptySubsequences: false)[2]
    #expect(line3.dropFirst(column - 1).hasPrefix("-1"))
    #expect(
      found[0].description.hasPrefix(
        "3:\(column): counters[1].record.value (app.example/feature2): "))
  }

  @Test(arguments: [
    ("{\"version\":1,\n  \"counters\": [x]}", 2, 16, "unexpected 'x'"),
    (#"{"version":1,"counters":[]} extra"#, 1, 29, "more text after the document"),
    (#"{"version":1,"counters":["\#u{1}"]}"#, 1, 27, "control character"),
    (#"{"version":1,"counters":["\ud800"]}"#, 1, 27, "lone surrogate"),
    (#"{"version":01}"#, 1, 13, "leading zeros"),
  ])
  func syntaxErrorsStopTheReadingWithTheirPlace(
    text: String, line: Int, column: Int, reason: String
  ) {
    let found = Self.problems(Array(text.utf8))
    #expect(found.count == 1)
    #expect(found.first?.line == line && found.first?.column == column, "\(found)")
    #expect(found.first?.message.contains("not valid JSON") == true)
    #expect(found.first?.message.contains(reason) == true, "\(found)")
  }

  @Test func documentProblems() {
    #expect(Self.problems(Array("[1]".utf8)).first?.message.hasPrefix("expected an object") == true)
    let noCounters = Self.problems(Array(#"{"version":1}"#.utf8))
    #expect(noCounters.map(\.message) == [#"the member "counters" is missing"#])
    let wrongVersion = Self.problems(Array(#"{"version":7,"counters":[]}"#.utf8))
    #expect(wrongVersion.first?.message.hasPrefix("unsupported export version 7") == true)
    let unnamedKey = Self.problems(Self.document([], version: 2))
    #expect(unnamedKey.first?.path == "voterKey")
    let hashes = Self.problems(
      Array(
        #"{"version":2,"voterKey":"0123456789abcdef","counters":[\#(Self.record())]}"#.utf8))
    #expect(hashes.map(\.path) == ["counters[0].voters[0]", "counters[0].voters[1]"])
    #expect(hashes.first?.message.contains("is not a voter hash") == true)
  }

  @Test func aGoodFileReadsBackWhatWasWritten() throws {
    let export = try VoteExport.read(Self.document([Self.record()])).get()
    #expect(export.version == 1)
    #expect(export.counters.first?.record.value == 3)
    #expect(export.counters.first?.voters == ["ann", "ben"])
    #expect(export.problems().isEmpty)
    // What JSONEncoder writes, the reader reads.
    let encoded = Array(try JSONEncoder().encode(export))
    #expect(try VoteExport.read(encoded).get() == export)
  }

  /// Bug: a backup of a board whose counters are `featurea/b` and U+001F vf 1 was refused.
  /// What a store holds, it exports, and what it exports, another store imports.
  @Test(arguments: StoreKind.allCases)
  func theKeysAStoreMakesExportAndImportIntoAnotherStore(kind: StoreKind) async throws {
    try await kind.withStore { source, sourceHandle in
      for (index, key) in Self.keysTheStoreMakes.enumerated() {
        _ = try await source.apply(
          CounterMutation(
            namespace: "min.app", key: key, delta: 1, voter: index.isMultiple(of: 2) ? "ann" : nil,
            createIfMissing: CounterCreation(namespace: "min.app", key: key)))
      }
      let pieces = StreamedExportTests.Pieces()
      _ = try await source.exportAll { pieces.append($0) }
      let export = try VoteExport.read(Array(pieces.all.joined())).get()
      #expect(export.problems().isEmpty, "\(export.problems())")
      #expect(Set(export.counters.map(\.record.key)) == Set(Self.keysTheStoreMakes))
      try await kind.withStore(voterKeyFrom: sourceHandle) { target, _ in
        let summary = try await target.importAll(export, replace: false)
        #expect(summary.imported == Self.keysTheStoreMakes.count)
        #expect(try await target.exportAll() == export)
        let again = try await target.apply(
          CounterMutation(namespace: "min.app", key: "\u{1F}vf1", delta: 1, voter: "ann"))
        #expect(again.outcome == .alreadyVoted)
      }
    }
  }

  /// Keys no write could have made are refused by the store too, naming the key, and
  /// nothing of the export is kept.
  @Test(arguments: StoreKind.allCases)
  func aStoreRefusesKeysNoWriteCouldHaveMade(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      let good = try VoteExport.read(Self.document([Self.record()])).get().counters[0]
      var slash = good
      slash.record.key = "featurea/b"
      var empty = good
      empty.record.key = ""
      var nul = good
      nul.record.key = "feature\u{0}1"
      var long = good
      long.record.key = String(repeating: "k", count: CounterNames.maximumKeyLength + 1)
      let export = VoteExport(version: 1, counters: [good, slash, empty, nul, long])
      #expect(export.problems().map(\.index) == [2, 3, 4])
      let failure = await storeError { () throws(VoteStoreError) in
        _ = try await store.importAll(export, replace: false)
      }
      #expect(failure?.kind == .invalid)
      #expect(failure?.message.hasPrefix("3 problems, nothing imported: ") == true)
      #expect(
        failure?.message.contains(#"counters[2].record.key (app.example/): "" is empty"#) == true,
        "\(failure?.message ?? "")")
      #expect(
        failure?.message.contains(#""feature\u{0}1" is not a valid key: character 8"#) == true)
      #expect(failure?.message.contains("it is 315 characters long") == true)
      let counters = try await store.statistics().counters
      #expect(counters == 0)
    }
  }

  /// A store applies the same rules to an export built in code, and changes nothing.
  @Test(arguments: StoreKind.allCases)
  func aStoreRefusesWhatTheRulesRefuseAndKeepsWhatItHad(kind: StoreKind) async throws {
    try await kind.withStore { store, _ in
      _ = try await store.create(CounterCreation(namespace: "ns.kept", key: "kept", value: 5))
      let good = try VoteExport.read(Self.document([Self.record()])).get().counters[0]
      var overflowing = good
      overflowing.record.key = "other"
      overflowing.record.createdAt = .min
      var inverted = good
      inverted.record.key = "third"
      inverted.record.updateLowerBound = 2
      let export = VoteExport(version: 1, counters: [good, overflowing, inverted])
      #expect(export.problems().map(\.index) == [1, 2])
      let failure = await storeError { () throws(VoteStoreError) in
        _ = try await store.importAll(export, replace: true)
      }
      #expect(failure?.kind == .invalid)
      #expect(failure?.message.hasPrefix("2 problems, nothing imported: ") == true)
      let counters = try await store.statistics().counters
      #expect(counters == 1)
    }
  }
}
