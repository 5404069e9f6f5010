/// How a board looks: a few CSS colours and a corner radius.
///
/// A value that could not be read is absent here (it was ignored, not drawn).
public struct Theme: Sendable, Hashable {
  /// The accent colour (buttons, the vote count).
  public var accent: ThemeColor?
  /// The page background.
  public var background: ThemeColor?
  /// The text colour.
  public var foreground: ThemeColor?
  /// The background of one feature's card.
  public var card: ThemeColor?
  /// The corner radius of cards and buttons.
  public var radius: ThemeRadius?

  /// Creates a theme; every part is optional.
  public init(
    accent: ThemeColor? = nil, background: ThemeColor? = nil, foreground: ThemeColor? = nil,
    card: ThemeColor? = nil, radius: ThemeRadius? = nil
  ) {
    self.accent = accent
    self.background = background
    self.foreground = foreground
    self.card = card
    self.radius = radius
  }
}
