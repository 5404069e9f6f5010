/// What the parser remembers about one top-level feature object for the cross-feature rules.
///
/// Plain offsets and tokens only (no strings), so a file of many features costs no reference
/// counting and no allocation per feature; text is decoded from the buffer when a rule needs it.
struct FeatureRecord: Sendable {
  // Words first, then the optional tokens, then the single bytes: no padding between them
  // (168 bytes a record, against 200 in declaration order by meaning).

  /// Index in the top-level array.
  var index: Int
  /// Offset of the `{`.
  var offset: Int
  /// Offset of the id value (or of the `{` when there is none).
  var idOffset: Int
  /// FNV-1a of the id's text (decoded when it has escapes), so the id rules compare bytes only
  /// when two hashes agree and need not read every id back from the document.
  var idHash: UInt64 = 0
  /// The length of the id's text in UTF-8 bytes.
  var idLength = 0
  /// Offset of the status value.
  var statusOffset: Int
  /// Per localized field (title, status, description): interned languages present, as a bit
  /// mask (languages beyond 64 distinct ones are not tracked), whether the field is an array
  /// (`localizedPresent`), and the offset of the field's value.
  var languageMasks: (UInt64, UInt64, UInt64) = (0, 0, 0)
  var localizedOffsets: (Int, Int, Int) = (0, 0, 0)
  /// The id, when it is a string.
  var id: StringToken?
  /// The plain title, when it is a string.
  var title: StringToken?
  /// The plain status, when it is a string.
  var status: StringToken?
  /// Whether every byte of the id's text may be in a counter key.
  var idIsCounterKeyText = true
  /// Whether the feature loaded (lenient reading).
  var loaded = false
  var localizedPresent: UInt8 = 0
  /// Whether the plain title, status, description are present (bits 0, 1, 2).
  var plainPresent: UInt8 = 0

  init(index: Int, offset: Int) {
    self.index = index
    self.offset = offset
    self.idOffset = offset
    self.statusOffset = offset
  }
}
