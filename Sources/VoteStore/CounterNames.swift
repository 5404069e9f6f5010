/// The syntax of the names and voter ids a store accepts, the same for a live write and an
/// import.
public enum CounterNames {
  /// The longest voter id accepted.
  public static let maximumVoterLength = 128

  /// Whether `name` (a namespace or key) matches countapi's `^[A-Za-z0-9_\-.]{3,64}$` and is
  /// not dots only (`...` reads as a path step in logs and file names).
  public static func isValidName(_ name: String) -> Bool {
    let bytes = name.utf8
    guard (3...64).contains(bytes.count) else { return false }
    guard bytes.allSatisfy({ isAlphanumeric($0) || $0 == 0x5F || $0 == 0x2D || $0 == 0x2E })
    else { return false }
    return !bytes.allSatisfy { $0 == 0x2E }
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
