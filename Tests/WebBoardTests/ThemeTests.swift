import Foundation
import Testing
import VoteFirstAPI
import WebBoard

/// The theme as the page draws it: contrast of the page's own palettes, fallbacks, modes.
@Suite struct ThemeTests {
  /// Every pair of text and background the stylesheet draws, with the contrast it needs.
  static func pairs(_ p: Palette) -> [(String, ThemeColor, ThemeColor)] {
    [
      ("text on background", p.text, p.background), ("text on card", p.text, p.card),
      ("secondary on card", p.secondaryText, p.card),
      ("secondary on background", p.secondaryText, p.background),
      ("accent (links, vote button) on card", p.accent, p.card),
      ("accent on background", p.accent, p.background),
      ("on-accent on accent", p.onAccent, p.accent),
    ]
  }

  @Test(arguments: ColorMode.allCases)
  func defaultPalettesMeetWCAGAA(_ mode: ColorMode) {
    let palette = Palette.defaults(for: mode)
    for (name, foreground, background) in Self.pairs(palette) {
      let ratio = ColorMath.contrast(foreground, on: background)
      #expect(ratio >= 4.5, "\(mode) \(name): \(ratio)")
    }
    // Borders and focus rings are non-text UI: 3:1 against the card for the focus ring.
    #expect(ColorMath.contrast(palette.accent, on: palette.card) >= 3)
  }

  @Test func contrastMatchesWCAGReferenceValues() {
    let white = ThemeColor(red: 255, green: 255, blue: 255)
    let black = ThemeColor(red: 0, green: 0, blue: 0)
    #expect(abs(ColorMath.contrast(black, on: white) - 21) < 0.001)
    #expect(abs(ColorMath.contrast(white, on: white) - 1) < 0.001)
    // #767676 on white is the classic 4.54:1.
    let gray = ThemeColor(red: 0x76, green: 0x76, blue: 0x76)
    #expect(abs(ColorMath.contrast(gray, on: white) - 4.54) < 0.01)
    // A transparent foreground is the background itself.
    #expect(
      abs(ColorMath.contrast(ThemeColor(red: 0, green: 0, blue: 0, alpha: 0), on: white) - 1)
        < 0.001)
  }

  @Test func unreadableColoursFallBackToThePagesOwn() throws {
    let json =
      ##"{"theme":{"accent":"red","background":"#12","foreground":"rgb(0,0,0)","card":"#GGGGGG","radius":"1em"}}"##
    let settings = try VoteFirstCoding.decode(ProjectSettings.self, from: Data(json.utf8))
    let style = PageStyle(theme: settings.theme)
    #expect(style == PageStyle())
    #expect(style.palette(for: .light) == Palette.defaultLight)
    #expect(style.palette(for: .dark) == Palette.defaultDark)
    #expect(style.stylesheet().contains("--radius:8px"))
  }

  @Test func noPinnedModeFollowsTheReader() {
    let css = PageStyle(accent: ThemeColor(css: "#AA0055")).stylesheet()
    #expect(css.contains("@media (prefers-color-scheme: dark)"))
    #expect(css.contains("color-scheme:light"))
    #expect(css.contains("color-scheme:dark"))
    // No colour reads at 4.5:1 on both white and the dark card: the owner's accent is drawn
    // as it is in light mode and lightened in dark mode.
    let light = css.components(separatedBy: "@media")[0]
    #expect(light.contains("--accent:#AA0055"))
    #expect(!css.components(separatedBy: "@media")[1].contains("--accent:#AA0055"))
  }

  @Test(arguments: ColorMode.allCases)
  func pinnedModeIsTheOnlyOneDrawn(_ mode: ColorMode) {
    let css = PageStyle(mode: mode).stylesheet()
    #expect(!css.contains("prefers-color-scheme"))
    #expect(css.contains("color-scheme:\(mode.rawValue)"))
    #expect(css.contains("--bg:\(Palette.defaults(for: mode).background.css)"))
  }

  @Test func ownerSurfaceColoursPinTheirOwnMode() {
    let dark = PageStyle(background: ThemeColor(css: "#101820"))
    #expect(dark.modes == [.dark])
    let light = PageStyle(card: ThemeColor(css: "#FFFDF0"))
    #expect(light.modes == [.light])
    let lightText = PageStyle(text: ThemeColor(css: "#F0F0F0"))
    #expect(lightText.modes == [.dark])
  }

  @Test func ownerColoursAreDrawnAndDerivedOnesFollowThem() throws {
    let style = PageStyle(
      accent: ThemeColor(css: "#FFCC00"), background: ThemeColor(css: "#FFFFFF"),
      text: ThemeColor(css: "#000000"), radius: ThemeRadius(css: "12.5px"))
    let palette = style.palette(for: .light)
    // #FFCC00 is 1.6:1 on white: darkened until links read at 4.5:1.
    #expect(palette.accent != ThemeColor(css: "#FFCC00"))
    #expect(ColorMath.contrast(palette.accent, on: palette.card) >= 4.5)
    #expect(palette.accent.red > palette.accent.blue, "still a yellow-brown, not grey")
    #expect(palette.onAccent == ColorMath.readableText(on: palette.accent))
    #expect(ColorMath.contrast(palette.onAccent, on: palette.accent) >= 4.5)
    #expect(palette.secondaryText != Palette.defaultLight.secondaryText)
    #expect(ColorMath.contrast(palette.secondaryText, on: palette.card) >= 4.5)
    let css = style.stylesheet()
    #expect(css.contains("--radius:12.5px"))
    #expect(css.contains("--text:#000000"))
  }

  /// Bug: the owner's text colour was drawn as set, however it read: a text colour equal to
  /// the background (or near it) drew a page that looked empty, and the secondary text
  /// derived from it was no better. Now every text reads at 4.5:1 on cards and background.
  @Test(
    arguments: [
      ("#000000", "#000000", nil), ("#FFFFFF", "#FFFFFF", nil), ("#222222", "#333333", nil),
      ("#FFFFFF", "#EEEEEE", "#FFFFFF"), ("#101820", "#1A2430", "#202A36"),
    ] as [(String, String, String?)])
  func everyTextReadsWhateverTheOwnerSets(background: String, text: String, card: String?) {
    let style = PageStyle(
      background: ThemeColor(css: background), card: card.flatMap { ThemeColor(css: $0) },
      text: ThemeColor(css: text))
    for mode in style.modes {
      let palette = style.palette(for: mode)
      for (name, foreground, surface) in Self.pairs(palette) {
        let ratio = ColorMath.contrast(foreground, on: surface)
        #expect(ratio >= 4.5, "\(background)/\(text) \(mode) \(name): \(ratio)")
      }
    }
    // A readable text colour is drawn as the owner set it.
    let kept = PageStyle(background: ThemeColor(css: "#FFFFFF"), text: ThemeColor(css: "#333333"))
    #expect(kept.palette(for: .light).text == ThemeColor(css: "#333333"))
  }

  @Test func aReadableAccentIsKeptAndAnUnreadableOneAdjustedPerMode() {
    let blue = ThemeColor(css: "#0A58CA")!
    let style = PageStyle(accent: blue)
    #expect(style.palette(for: .light).accent == blue)
    let dark = style.palette(for: .dark)
    #expect(dark.accent != blue)
    #expect(ColorMath.contrast(dark.accent, on: dark.card) >= 4.5)
    #expect(ColorMath.contrast(dark.onAccent, on: dark.accent) >= 4.5)
    // Just enough: one step less would not read.
    let white = ThemeColor(red: 255, green: 255, blue: 255)
    let fraction = (Double(dark.accent.red) - 10) / (255 - 10)
    let lessLight = ColorMath.mix(blue, white, max(0, fraction - 0.05))
    #expect(ColorMath.contrast(lessLight, on: dark.card) < 4.5)
  }

  /// Links are drawn on the background as well as on cards: #FF3366, darkened to read on the
  /// white card (#D92B57, 4.74:1), was 4.42:1 on the light background.
  @Test(arguments: ["#FF3366", "#0A58CA", "#FFCC00", "#AA0055", "#00FF00", "#777777"])
  func anOwnersAccentReadsOnTheCardAndOnTheBackground(_ accent: String) {
    let style = PageStyle(accent: ThemeColor(css: accent))
    for mode in ColorMode.allCases {
      let palette = style.palette(for: mode)
      #expect(ColorMath.contrast(palette.accent, on: palette.card) >= 4.5, "\(mode) card")
      #expect(
        ColorMath.contrast(palette.accent, on: palette.background) >= 4.5, "\(mode) background")
    }
  }

  @Test func stageAndTagColoursBecomeRules() {
    let css = PageStyle().stylesheet(
      stages: [Stage(id: 4, name: "A", color: ThemeColor(css: "#123")), Stage(id: 5, name: "B")],
      tags: [FeatureTag(id: 9, name: "T", color: ThemeColor(css: "#ABCDEF80"))])
    #expect(css.contains(".stage-4{--stage:#112233}"))
    #expect(!css.contains(".stage-5"))
    #expect(css.contains(".tag-9{--tag:#ABCDEF80}"))
  }
}
