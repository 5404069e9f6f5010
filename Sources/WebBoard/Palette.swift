import VoteFirstAPI

/// The colours of one page in one mode, every one resolved (no missing values).
public struct Palette: Sendable, Hashable {
  /// Buttons, links, the vote count.
  public var accent: ThemeColor
  /// Text drawn on the accent colour.
  public var onAccent: ThemeColor
  /// The page background.
  public var background: ThemeColor
  /// A card's background.
  public var card: ThemeColor
  /// Body text.
  public var text: ThemeColor
  /// Secondary text (dates, counts, hints).
  public var secondaryText: ThemeColor
  /// Borders and separators.
  public var border: ThemeColor

  /// Creates a palette.
  public init(
    accent: ThemeColor, onAccent: ThemeColor, background: ThemeColor, card: ThemeColor,
    text: ThemeColor, secondaryText: ThemeColor, border: ThemeColor
  ) {
    self.accent = accent
    self.onAccent = onAccent
    self.background = background
    self.card = card
    self.text = text
    self.secondaryText = secondaryText
    self.border = border
  }

  /// The page's own light palette, used where the owner set nothing.
  public static let defaultLight = Palette(
    accent: ThemeColor(red: 0x0A, green: 0x58, blue: 0xCA),
    onAccent: ThemeColor(red: 0xFF, green: 0xFF, blue: 0xFF),
    background: ThemeColor(red: 0xF6, green: 0xF7, blue: 0xF9),
    card: ThemeColor(red: 0xFF, green: 0xFF, blue: 0xFF),
    text: ThemeColor(red: 0x1B, green: 0x1F, blue: 0x24),
    secondaryText: ThemeColor(red: 0x57, green: 0x60, blue: 0x6A),
    border: ThemeColor(red: 0xC9, green: 0xD1, blue: 0xD9))

  /// The page's own dark palette, used where the owner set nothing.
  public static let defaultDark = Palette(
    accent: ThemeColor(red: 0x6C, green: 0xB0, blue: 0xFF),
    onAccent: ThemeColor(red: 0x0B, green: 0x0E, blue: 0x12),
    background: ThemeColor(red: 0x0F, green: 0x12, blue: 0x16),
    card: ThemeColor(red: 0x1A, green: 0x1F, blue: 0x25),
    text: ThemeColor(red: 0xE6, green: 0xED, blue: 0xF3),
    secondaryText: ThemeColor(red: 0x9B, green: 0xA7, blue: 0xB4),
    border: ThemeColor(red: 0x3A, green: 0x43, blue: 0x4D))

  /// The page's own palette for `mode`.
  public static func defaults(for mode: ColorMode) -> Palette {
    mode == .light ? defaultLight : defaultDark
  }
}
