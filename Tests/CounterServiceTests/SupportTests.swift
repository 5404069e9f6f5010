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
