/// Text compared by its bytes (UTF-8), not as Swift compares strings.
///
/// Swift's `String` equality is Unicode canonical equivalence: `é` precomposed (U+00E9) and
/// `e` + U+0301 are equal, and so are `K` and the Kelvin sign (U+212A). The stores compare
/// bytes, so two counters or refs in such forms are two rows: a set or dictionary keyed by
/// `String` makes them one (and calls a store's own export a counter twice).
///
/// As fast as `String` for ASCII text (every counter route's name) when the text a table
/// stores is made with ``init(storing:)``: see ``same(_:_:eitherIsASCII:)``.
struct ExactText: Hashable, Sendable {
  /// The text.
  let text: String
  /// Whether `text` is known to be ASCII: worked out by ``init(storing:)``; false when not
  /// known.
  let isKnownASCII: Bool

  /// The text, to look up (nothing worked out).
  init(_ text: String) {
    self.text = text
    self.isKnownASCII = false
  }

  /// The text, to keep in a table: whether it is ASCII is worked out once (a pass over its
  /// bytes), so each later comparison with it is as cheap as `String`'s.
  init(storing text: String) {
    self.text = text
    self.isKnownASCII = text.utf8.allSatisfy { $0 < 0x80 }
  }

  static func == (a: ExactText, b: ExactText) -> Bool {
    same(a.text, b.text, eitherIsASCII: a.isKnownASCII || b.isKnownASCII)
  }

  /// Hashed as Swift hashes the string: text with the same bytes is the same string, so it
  /// hashes the same (two forms of one text do too; `==` tells them apart).
  func hash(into hasher: inout Hasher) {
    hasher.combine(text)
  }

  /// Whether `a` and `b` hold the same bytes; `eitherIsASCII` when one of them is known to
  /// be ASCII.
  ///
  /// Swift's `==` holds for the same bytes and for other forms of the same text. A text in
  /// another form than an ASCII one has more bytes (the only characters that stand for one
  /// ASCII character, such as the Kelvin sign, are longer), so with one of them ASCII, `==`
  /// and the same byte count (a stored number) mean the same bytes, at `String`'s own speed
  /// (for two ASCII strings its `==` compares bytes, two small strings' bits at once). Only
  /// other text is compared again, byte by byte.
  @inline(__always)
  static func same(_ a: String, _ b: String, eitherIsASCII: Bool) -> Bool {
    a == b && a.utf8.count == b.utf8.count && (eitherIsASCII || a.utf8.elementsEqual(b.utf8))
  }
}
