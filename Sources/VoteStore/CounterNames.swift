/// The syntax of the names and voter ids a store accepts, the same for a live write and an
/// import.
public enum CounterNames {
  /// The longest voter id accepted.
  public static let maximumVoterLength = 128

  /// Whether `name` (a namespace, or a key of the counting routes) matches countapi's
  /// `^[A-Za-z0-9_\-.]{3,64}$` and is not dots only (`...` reads as a path step in logs and
  /// file names).
  public static func isValidName(_ name: String) -> Bool {
    let bytes = name.utf8
    guard (3...64).contains(bytes.count) else { return false }
    guard bytes.allSatisfy({ isAlphanumeric($0) || $0 == 0x5F || $0 == 0x2D || $0 == 0x2E })
    else { return false }
    return !bytes.allSatisfy { $0 == 0x2E }
  }

  /// The longest counter key a store holds, in Unicode scalars. Every key is either a name
  /// (``isValidName(_:)``, from the counting routes) or a VoteFirst feature's: its project's
  /// vote key template (at most 64 scalars, `{id}` included) with `{id}` replaced by its ref
  /// (at most 254), so at most 60 + 254.
  public static let maximumKeyLength = 314

  /// The start of the counter key of a VoteFirst feature without a ref: U+001F (which no
  /// other key holds), then `vf`, then the feature's id.
  public static let refLessKeyPrefix = "\u{1F}vf"

  /// Whether a store's own writes can make `key`, so an import takes it: 1 to
  /// ``maximumKeyLength`` Unicode scalars without control characters (U+0000–U+001F,
  /// U+007F), as a name or a VoteFirst feature's key (`feature{ref}`; a ref may hold `/`,
  /// spaces, any letter), or ``refLessKeyPrefix`` followed by a positive id. The counting
  /// routes still take only names (``isValidName(_:)``).
  public static func isValidKey(_ key: String) -> Bool { keyProblem(key) == nil }

  /// Why no write of a store could have made `key`, as the end of a sentence that starts
  /// with the key; nil when ``isValidKey(_:)``.
  static func keyProblem(_ key: String) -> String? {
    let rule =
      "a key is 1 to \(maximumKeyLength) characters without control characters, or U+001F + "
      + "vf + the id of a VoteFirst feature without a ref"
    let scalars = key.unicodeScalars
    if scalars.isEmpty { return "is empty: \(rule)" }
    if scalars.starts(with: refLessKeyPrefix.unicodeScalars) {
      let id = String(scalars.dropFirst(refLessKeyPrefix.unicodeScalars.count))
      let digits = id.utf8
      guard let first = digits.first, (0x31...0x39).contains(first),
        digits.allSatisfy({ (0x30...0x39).contains($0) }), Int64(id) != nil
      else {
        return
          "is not a valid key: after U+001F + vf comes the id of a VoteFirst feature without a "
          + "ref (1 to \(Int64.max), no leading zeros)"
      }
      return nil
    }
    for (position, scalar) in scalars.enumerated() where scalar.value < 0x20 || scalar.value == 0x7F
    {
      let hex = String(scalar.value, radix: 16, uppercase: true)
      let code = "U+" + String(repeating: "0", count: 4 - hex.count) + hex
      return
        "is not a valid key: character \(position + 1) is the control character \(code): \(rule)"
    }
    if scalars.count > maximumKeyLength {
      return "is not a valid key: it is \(scalars.count) characters long: \(rule)"
    }
    return nil
  }

  /// Whether `voter` is 1 to 128 characters of `A-Z a-z 0-9 _ - . : @ + = /` (what
  /// `X-Voter-ID` accepts).
  public static func isValidVoter(_ voter: String) -> Bool {
    let bytes = voter.utf8
    guard (1...maximumVoterLength).contains(bytes.count) else { return false }
    return bytes.allSatisfy { isAlphanumeric($0) || "_-.:@+=/".utf8.contains($0) }
  }

  /// `text` shortened to at most `limit` characters with control characters escaped, for
  /// an error message that must stay one readable line whatever the input was.
  static func display(_ text: String, limit: Int = 64) -> String {
    var out = ""
    for (count, scalar) in text.unicodeScalars.enumerated() {
      if count == limit {
        out += "… (\(text.utf8.count) bytes)"
        break
      }
      switch scalar {
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        out += "\\u{\(String(scalar.value, radix: 16))}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  private static func isAlphanumeric(_ b: UInt8) -> Bool {
    (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A)
  }
}
