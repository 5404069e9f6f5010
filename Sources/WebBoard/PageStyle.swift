import VoteFirstAPI

/// A board's look as the page draws it: the owner's theme, with the page's own palette
/// wherever the owner set nothing (or set something unreadable, which the API already dropped).
///
/// **Modes.** A pinned ``mode`` draws that mode for every reader. With none pinned, a theme that
/// sets none of the surface colours (background, card, text) follows the reader's
/// `prefers-color-scheme`, with the owner's accent and radius in both modes; a theme that sets
/// a surface colour is drawn in the mode its background (or text) belongs to, because half a
/// palette mixed with the other mode's defaults could be unreadable.
///
/// **Readability.** The accent colours links and vote counts, on cards and on the page
/// background, so an accent that does not reach 4.5:1 on both is lightened (dark mode) or
/// darkened (light mode) until it does:
/// `#0A58CA` stays itself on white and becomes a lighter blue on the dark palette. The text
/// and secondary text colours are made readable on both the same way.
public struct PageStyle: Sendable, Hashable {
  /// Buttons, links, the vote count.
  public var accent: ThemeColor?
  /// The page background.
  public var background: ThemeColor?
  /// A card's background.
  public var card: ThemeColor?
  /// Body text.
  public var text: ThemeColor?
  /// Secondary text; derived from the text colour when absent.
  public var secondaryText: ThemeColor?
  /// Borders; derived from the text and card colours when absent.
  public var border: ThemeColor?
  /// The corner radius of cards and buttons; 8px when absent.
  public var radius: ThemeRadius?
  /// The mode the owner pinned, if any.
  public var mode: ColorMode?

  /// Creates a style from the parts of a theme.
  public init(
    accent: ThemeColor? = nil, background: ThemeColor? = nil, card: ThemeColor? = nil,
    text: ThemeColor? = nil, secondaryText: ThemeColor? = nil, border: ThemeColor? = nil,
    radius: ThemeRadius? = nil, mode: ColorMode? = nil
  ) {
    self.accent = accent
    self.background = background
    self.card = card
    self.text = text
    self.secondaryText = secondaryText
    self.border = border
    self.radius = radius
    self.mode = mode
  }

  /// The style of a project's theme as the API gives it.
  public init(theme: Theme) {
    self.init(
      accent: theme.accent, background: theme.background, card: theme.card,
      text: theme.foreground, radius: theme.radius)
  }

  /// The modes drawn: the pinned one, the one the owner's surface colours belong to, or both.
  public var modes: [ColorMode] {
    if let mode { return [mode] }
    if let surface = background ?? card {
      return [ColorMath.luminance(surface) >= 0.18 ? .light : .dark]
    }
    if let text { return [ColorMath.luminance(text) >= 0.18 ? .dark : .light] }
    return [.light, .dark]
  }

  /// The resolved colours for `mode`.
  public func palette(for mode: ColorMode) -> Palette {
    let base = Palette.defaults(for: mode)
    let white = ThemeColor(red: 255, green: 255, blue: 255)
    let background = ColorMath.over(self.background ?? base.background, white)
    let card = ColorMath.over(self.card ?? base.card, background)
    // Text is drawn on cards and on the page background: the owner's is made readable on
    // both as the accent is (a text colour equal to the background drew an empty-looking
    // page), and so is the secondary text derived from it.
    let text = ColorMath.readable(self.text ?? base.text, on: [card, background], mode: mode)
    let opaqueText = ColorMath.over(text, card)
    let ownsSurface = self.background != nil || self.card != nil || self.text != nil
    let secondary = ColorMath.readable(
      secondaryText ?? (ownsSurface ? ColorMath.mix(opaqueText, card, 0.3) : base.secondaryText),
      on: [card, background], mode: mode)
    let border = self.border ?? (ownsSurface ? ColorMath.mix(card, opaqueText, 0.3) : base.border)
    // Links are drawn on cards and on the page background: readable on both.
    let accent = ColorMath.readable(
      self.accent ?? base.accent, on: [card, background], mode: mode)
    return Palette(
      accent: accent, onAccent: ColorMath.readableText(on: ColorMath.over(accent, card)),
      background: background, card: card, text: text, secondaryText: secondary, border: border)
  }

  /// The stylesheet of a board: the palette as CSS custom properties (a `prefers-color-scheme`
  /// block when both modes are drawn), then one rule per coloured stage and tag.
  ///
  /// Every value in it is a parsed colour or length, never text the owner typed.
  public func stylesheet(stages: [Stage] = [], tags: [FeatureTag] = []) -> String {
    let modes = self.modes
    var css = ":root{\(properties(modes[0]))}\n"
    if modes.count == 2 {
      css += "@media (prefers-color-scheme: dark){:root{\(properties(modes[1]))}}\n"
    }
    for stage in stages {
      if let color = stage.color { css += ".stage-\(stage.id){--stage:\(color.css)}\n" }
    }
    for tag in tags {
      if let color = tag.color { css += ".tag-\(tag.id){--tag:\(color.css)}\n" }
    }
    return css
  }

  private func properties(_ mode: ColorMode) -> String {
    let p = palette(for: mode)
    let parts = [
      "color-scheme:\(mode.rawValue)", "--accent:\(p.accent.css)", "--on-accent:\(p.onAccent.css)",
      "--bg:\(p.background.css)", "--card:\(p.card.css)", "--text:\(p.text.css)",
      "--text-2:\(p.secondaryText.css)", "--border:\(p.border.css)",
      "--radius:\((radius ?? ThemeRadius(pixels: 8)!).css)",
    ]
    return parts.joined(separator: ";")
  }
}
