import Foundation
import RoadmapFormat
import Testing

/// The writer gives back the unknown members of a document it read as they were: it does not
/// understand them, so it must not change them.
@Suite("Unknown members written as read")
struct UnknownMemberWritingTests {
  static func read(_ bytes: [UInt8], mode: RoadmapReadingMode = .compatible) throws
    -> [RoadmapFeature]
  {
    try bytes.withUnsafeBufferPointer { try RoadmapDocument.read($0, mode: mode).features }
  }

  /// Values the app skips and still loads the file with (so the compatible reading accepts
  /// them), none of them valid JSON. They were written as U+FFFD, `null` and `\t`.
  static let broken: [UInt8] =
    Array(
      """
      [
        {
          "id": "1",
          "url": "a\\ud800b",
          "n": 01,
          "tab": "a\tb",
          "bad": "x
      """.utf8) + [0xFF]
    + Array(
      """
      y",
          "localizedTitle": [{"language": "de", "value": "Hallo", "note": "\\udc00!"}]
        }
      ]

      """.utf8)

  @Test("values that are not valid JSON are written exactly as they were, not repaired")
  func brokenValuesAreKept() throws {
    for mode in [RoadmapReadingMode.compatible, .lenient] {
      let features = try Self.read(Self.broken, mode: mode)
      try #require(features.count == 1)
      let written = RoadmapWriter.write(features)
      let text = String(decoding: written, as: UTF8.self)
      #expect(text.contains(#""url": "a\ud800b","#), "\(text)")
      #expect(text.contains(#""n": 01,"#), "\(text)")
      #expect(text.contains("\"tab\": \"a\tb\","), "\(text)")
      #expect(written.contains(0xFF))
      #expect(text.contains(#""note": "\udc00!""#), "\(text)")
      // Read again, it is the same document, and writing it again changes nothing.
      let again = try Self.read(written, mode: mode)
      #expect(again == features)
      #expect(RoadmapWriter.write(again) == written)
    }
  }

  @Test("valid values keep every string, number and key as written, in the writer's layout")
  func validValuesKeepTheirText() throws {
    let source = #"""
      [{"id":"1","esc":"\u00e9\/x","num":1.50E+3,"meta":{"a":1,"a":2,"s":"\u0041",
        "list":[ 1 , -0.0 ,true,null,[ ],{ }]},"\u0075rl":"u","localizedTitle":[{"language":"de",
        "value":"Hallo","note":{"by" : "\u00fc"}}]}]
      """#
    let features = try Self.read(Array(source.utf8))
    let pretty = String(decoding: RoadmapWriter.write(features), as: UTF8.self)
    #expect(
      pretty == #"""
        [
          {
            "id": "1",
            "localizedTitle": [
              {
                "language": "de",
                "value": "Hallo",
                "note": {
                  "by": "\u00fc"
                }
              }
            ],
            "esc": "\u00e9\/x",
            "num": 1.50E+3,
            "meta": {
              "a": 1,
              "a": 2,
              "s": "\u0041",
              "list": [
                1,
                -0.0,
                true,
                null,
                [],
                {}
              ]
            },
            "\u0075rl": "u"
          }
        ]

        """#)
    let compact = RoadmapWriter.write(features, style: .compact)
    #expect(
      String(decoding: compact, as: UTF8.self)
        == #"[{"id":"1","localizedTitle":[{"language":"de","value":"Hallo","note":{"by":"\u00fc"}}],"#
        + #""esc":"\u00e9\/x","num":1.50E+3,"meta":{"a":1,"a":2,"s":"\u0041","list":[1,-0.0,true,"#
        + #"null,[],{}]},"\u0075rl":"u"}]"#)
    #expect((try? JSONSerialization.jsonObject(with: Data(compact))) != nil)
    #expect(try Self.read(compact) == features)
  }

  @Test("a member changed in code is written from its new value; the others as read")
  func changedMembersAreWrittenFromTheirValue() throws {
    var features = try Self.read(Self.broken)
    features[0].extra["n"] = .number("2")
    features[0].extra["extra"] = .string("\u{e9}")
    let text = String(decoding: RoadmapWriter.write(features), as: UTF8.self)
    #expect(text.contains(#""n": 2,"#))
    #expect(text.contains(#""url": "a\ud800b","#))
    #expect(text.contains("\"extra\": \"\u{e9}\"\n"))
  }

  /// A value the app rejects (the file does not load) has no text to keep: the lenient
  /// reading's recovery is written, so the output is a file the app loads.
  @Test("a value the app rejects is written as the lenient reading recovered it")
  func rejectedValuesAreWrittenAsRecovered() throws {
    let features = try Self.read(
      Array(#"[{"id": "1", "x": [1 2], "y": "\u00e9"}]"#.utf8), mode: .lenient)
    let written = RoadmapWriter.write(features, style: .compact)
    #expect(String(decoding: written, as: UTF8.self) == #"[{"id":"1","x":[1,2],"y":"\u00e9"}]"#)
    #expect(try Self.read(written) == features)
  }
}

/// A trailing comma inside an unknown value was written back (`"meta": [1,2,]`), so reading a
/// file with one and writing it (`reconcile --apply to-roadmap`) gave a file that apps before
/// iOS 17 reject whole and that `validate` calls an error; before the values were kept, the
/// writer wrote `[1, 2]`. The comma holds no data: it is left out, the rest kept as read.
@Suite("Unknown members without trailing commas")
struct UnknownMemberTrailingCommaTests {
  @Test("a trailing comma inside an unknown value is not written; the value is kept")
  func trailingCommaDropped() throws {
    let source = Array(
      #"""
      [{"id":"1","meta":[1,"a,]",2.50,],"x":{"a":{"b":[],},"c":"\u00e9",},
        "bad":[01,"\ud800",],"localizedTitle":[{"language":"de","value":"Hallo","n":[1,],}]}]
      """#.utf8)
    for mode in [RoadmapReadingMode.compatible, .lenient] {
      let features = try UnknownMemberWritingTests.read(source, mode: mode)
      try #require(features.count == 1)
      let written = RoadmapWriter.write(features, style: .compact)
      let text = String(decoding: written, as: UTF8.self)
      #expect(
        text.contains(#""meta":[1,"a,]",2.50],"x":{"a":{"b":[]},"c":"\u00e9"}"#), "\(text)")
      // Not valid JSON (01, a lone surrogate): kept as written, but for the comma.
      #expect(text.contains(#""bad":[01,"\ud800"]"#), "\(text)")
      #expect(text.contains(#""n":[1]"#), "\(text)")
      let report = RoadmapValidator().validate(written)
      #expect(!report.diagnostics.contains { $0.code == "trailing-comma" }, "\(text)")
      // Read again, it is the same document, and writing it again changes nothing.
      let again = try UnknownMemberWritingTests.read(written, mode: mode)
      #expect(again == features)
      #expect(RoadmapWriter.write(again, style: .compact) == written)
      #expect(RoadmapWriter.write(again) == RoadmapWriter.write(features))
    }
  }
}
