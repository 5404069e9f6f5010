import Testing

@testable import CounterService

/// Name rules, constant-time comparison, timestamps and JSON text.
@Suite struct SupportTests {
  @Test func nameRules() {
    #expect(NameRules.isValidName("abc"))
    #expect(NameRules.isValidName("com.example.App-1_x"))
    #expect(!NameRules.isValidName("ab"))
    #expect(!NameRules.isValidName(String(repeating: "a", count: 65)))
    #expect(!NameRules.isValidName("a b c"))
    #expect(!NameRules.isValidName("abé"))
    #expect(NameRules.isValidVoter("0F8E-uuid:user@host+1=/x"))
    #expect(!NameRules.isValidVoter(""))
    #expect(NameRules.isValidCallback("jQuery123_456"))
    #expect(!NameRules.isValidCallback("a-b"))
  }

  /// The one-pass check answers as the pattern and the dots rule do, for the first name that
  /// breaks them.
  @Test func nameProblemsFollowThePatternAndTheDotsRule() {
    let names = [
      "", "a", "ab", "abc", ".", "..", "...", "....", "a..", "-_.", "feature1", "com.example.App",
      String(repeating: "a", count: 64), String(repeating: "a", count: 65),
      String(repeating: ".", count: 64), String(repeating: ".", count: 65), "ab c", "abé", "ab/c",
      "ab%2F", "abc\u{0}", "ab~", "AZaz09",
    ]
    func expected(_ name: String) -> String? {
      if NameRules.isValidName(name) { return nil }
      return NameRules.matchesNamePattern(name) ? NameRules.dotsRule : NameRules.nameRule
    }
    for name in names {
      #expect(NameRules.problem(name) == expected(name), "\(name)")
      for other in names {
        #expect(
          NameRules.problem(name, other) == (expected(name) ?? expected(other)),
          "\(name) \(other)")
      }
    }
  }

  /// The name bytes' bit set holds exactly the pattern's characters, and every one-byte name
  /// body is judged as the pattern judges it.
  @Test func nameBytesAreThePatternsCharacters() {
    let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.".utf8)
    for byte in UInt8.min...UInt8.max {
      #expect(NameRules.isNameByte(byte) == allowed.contains(byte), "\(byte)")
      let name = String(decoding: [0x61, byte, 0x62], as: UTF8.self)
      #expect(
        (NameRules.problem(name) == nil) == NameRules.matchesNamePattern(name), "\(byte)")
    }
  }

  @Test func constantTimeEquality() {
    #expect(ConstantTime.equals("token", "token"))
    #expect(!ConstantTime.equals("token", "tokeN"))
    #expect(!ConstantTime.equals("token", "token2"))
    #expect(!ConstantTime.equals("", "x"))
    #expect(ConstantTime.equals("", ""))
    #expect(!ConstantTime.equals(String(repeating: "a", count: 256), ""))
  }

  @Test func timestamps() {
    #expect(Timestamp.rfc3339(milliseconds: 0) == "1970-01-01T00:00:00.000Z")
    #expect(Timestamp.rfc3339(milliseconds: 1_709_633_472_345) == "2024-03-05T10:11:12.345Z")
    #expect(Timestamp.rfc3339(milliseconds: -1) == "1969-12-31T23:59:59.999Z")
    #expect(Timestamp.rfc3339(milliseconds: 951_782_400_000) == "2000-02-29T00:00:00.000Z")
  }

  @Test func jsonTextEscapes() {
    #expect(JSONText.quoted("a\"b\\c\n\u{1}\u{2028}") == #""a\"b\\c\n\u0001\u2028""#)
    var json = JSONText()
    json.int("a", nil)
    json.bool("b", false)
    json.string("c", "x")
    #expect(json.object == #"{"a":null,"b":false,"c":"x"}"#)
  }
}
