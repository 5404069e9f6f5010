/// How many terminal columns text takes, for carets under excerpts and aligned tables.
///
/// Counted per grapheme cluster (what a terminal draws as one character): East Asian wide and
/// fullwidth characters and emoji shown as emoji take two columns, a cluster that is only
/// combining marks or format characters takes none, anything else one. A cluster takes the
/// widest of its scalars, so a base letter with combining accents is one column, and an emoji
/// with a skin tone, a ZWJ sequence or a flag is two.
enum TerminalWidth {
  /// The columns of `text`.
  static func of(_ text: String) -> Int {
    // Printable ASCII, most text in practice: a column a byte, without grapheme breaking.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
    var total = 0
    for character in text {
      total += of(character)
    }
    return total
  }

  /// The columns of one grapheme cluster.
  static func of(_ character: Character) -> Int {
    var widest = 0
    for scalar in character.unicodeScalars {
      // VS16 asks for the emoji presentation of the character before it: two columns.
      if scalar.value == 0xFE0F { return 2 }
      widest = max(widest, of(scalar))
    }
    return widest
  }

  /// The columns of a scalar on its own.
  static func of(_ scalar: Unicode.Scalar) -> Int {
    let value = scalar.value
    if value < 0x300 {
      // Latin: one column, but for the C1 controls and the soft hyphen.
      return (0x7F...0x9F).contains(value) || value == 0xAD ? 0 : 1
    }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format, .control: return 0
    default: break
    }
    // Hangul jungseong and jongseong join the syllable's first jamo.
    if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
    // Emoji modifiers (skin tones) colour the emoji before them.
    if (0x1F3FB...0x1F3FF).contains(value) { return 0 }
    if scalar.properties.isEmojiPresentation { return 2 }
    switch value {
    // East Asian Wide (W) and Fullwidth (F) blocks.
    case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
      0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
      0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
      0x16FE0...0x18AFF, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF, 0x20000...0x3FFFD:
      return 2
    default:
      return 1
    }
  }
}
