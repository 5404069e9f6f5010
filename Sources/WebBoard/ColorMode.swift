/// Light or dark: the mode a board's owner pins, or the one a palette is for.
public enum ColorMode: String, Sendable, Hashable, CaseIterable {
  /// Dark text on a light background.
  case light
  /// Light text on a dark background.
  case dark
}
