/// Text compared by its bytes (UTF-8), not as Swift compares strings.
///
/// Swift's `String` equality is Unicode canonical equivalence: `é` precomposed (U+00E9) and
/// `e` + U+0301 are equal, and so are `K` and the Kelvin sign (U+212A). The stores compare
/// bytes, so two counters or refs in such forms are two rows: a set or dictionary keyed by
/// `String` makes them one (and calls a store's own export a counter twice).
struct ExactText: Hashable, Sendable {
  /// The text.
  let text: String

  init(_ text: String) {
    self.text = text
  }

  static func == (a: ExactText, b: ExactText) -> Bool {
    a.text.utf8.elementsEqual(b.text.utf8)
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(text.utf8.count)
    for byte in text.utf8 { hasher.combine(byte) }
  }
}
