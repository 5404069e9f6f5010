/// A search for one byte string inside others, in time linear in the text searched
/// (Knuth–Morris–Pratt): the table is made once per `q`, then every feature's text is read
/// once. A scan that restarts at every byte took a 101-character `q` over 20,000
/// descriptions of `aaa…` 16 s.
struct ByteSearch: Sendable {
  /// The bytes looked for.
  let needle: [UInt8]
  /// For each prefix `needle[...i]`, the length of its longest proper prefix that is also
  /// its suffix: where the match goes on after a mismatch.
  private let fallback: [Int]

  /// A search for the UTF-8 bytes of `part`.
  init(_ part: String) {
    needle = Array(part.utf8)
    var fallback = [Int](repeating: 0, count: needle.count)
    var length = 0
    var index = 1
    while index < needle.count {
      if needle[index] == needle[length] {
        length += 1
        fallback[index] = length
        index += 1
      } else if length > 0 {
        length = fallback[length - 1]
      } else {
        index += 1
      }
    }
    self.fallback = fallback
  }

  /// Whether `text` holds the needle, byte for byte (as the database's `instr`).
  func occurs(in text: String) -> Bool {
    guard !needle.isEmpty else { return true }
    var text = text
    return text.withUTF8 { hay in
      guard hay.count >= needle.count else { return false }
      var matched = 0
      for byte in hay {
        while matched > 0 && byte != needle[matched] { matched = fallback[matched - 1] }
        if byte == needle[matched] {
          matched += 1
          if matched == needle.count { return true }
        }
      }
      return false
    }
  }
}
