import Foundation
import Testing
import VoteFirstAPI

/// Theme colours and radii: every accepted and refused form, as tables.
@Suite struct ThemeParsingTests {
  struct ColorCase: CustomTestStringConvertible, Sendable {
    var text: String
    var expected: ThemeColor?
    var testDescription: String { "\"\(text)\"" }
  }

  static let colorCases: [ColorCase] = [
    ColorCase(text: "#fff", expected: ThemeColor(red: 255, green: 255, blue: 255)),
    ColorCase(text: "#F0a", expected: ThemeColor(red: 255, green: 0, blue: 170)),
    ColorCase(text: "#000000", expected: ThemeColor(red: 0, green: 0, blue: 0)),
    ColorCase(text: "#3366ff", expected: ThemeColor(red: 0x33, green: 0x66, blue: 0xFF)),
    ColorCase(
      text: "#3366FF80", expected: ThemeColor(red: 0x33, green: 0x66, blue: 0xFF, alpha: 0x80)),
    ColorCase(text: "#00000000", expected: ThemeColor(red: 0, green: 0, blue: 0, alpha: 0)),
    ColorCase(text: "", expected: nil),
    ColorCase(text: "#", expected: nil),
    ColorCase(text: "fff", expected: nil),
    ColorCase(text: "#ff", expected: nil),
    ColorCase(text: "#ffff", expected: nil),
    ColorCase(text: "#fffff", expected: nil),
    ColorCase(text: "#fffffff", expected: nil),
    ColorCase(text: "#fffffffff", expected: nil),
    ColorCase(text: "#ggg", expected: nil),
    ColorCase(text: "red", expected: nil),
    ColorCase(text: "rgb(1,2,3)", expected: nil),
    ColorCase(text: " #fff", expected: nil),
    ColorCase(text: "#fff ", expected: nil),
    ColorCase(text: "#ｆｆｆ", expected: nil),
  ]

  @Test(arguments: colorCases)
  func color(_ example: ColorCase) {
    #expect(ThemeColor(css: example.text) == example.expected)
  }

  @Test func colorWritesUpperCaseAndDropsOpaqueAlpha() {
    #expect(ThemeColor(css: "#abc")?.css == "#AABBCC")
    #expect(ThemeColor(css: "#3366ffff")?.css == "#3366FF")
    #expect(ThemeColor(css: "#3366ff80")?.css == "#3366FF80")
  }

  struct RadiusCase: CustomTestStringConvertible, Sendable {
    var text: String
    var pixels: Double?
    var testDescription: String { "\"\(text)\"" }
  }

  static let radiusCases: [RadiusCase] = [
    RadiusCase(text: "8px", pixels: 8),
    RadiusCase(text: "0px", pixels: 0),
    RadiusCase(text: "12.5px", pixels: 12.5),
    RadiusCase(text: "8", pixels: nil),
    RadiusCase(text: "8 px", pixels: nil),
    RadiusCase(text: "-1px", pixels: nil),
    RadiusCase(text: "px", pixels: nil),
    RadiusCase(text: ".5px", pixels: nil),
    RadiusCase(text: "5.px", pixels: nil),
    RadiusCase(text: "1.2.3px", pixels: nil),
    RadiusCase(text: "1em", pixels: nil),
    RadiusCase(text: "1e3px", pixels: nil),
    RadiusCase(text: "8PX", pixels: nil),
  ]

  @Test(arguments: radiusCases)
  func radius(_ example: RadiusCase) {
    #expect(ThemeRadius(css: example.text)?.pixels == example.pixels)
  }

  @Test func radiusWritesPixels() {
    #expect(ThemeRadius(css: "8px")?.css == "8px")
    #expect(ThemeRadius(css: "12.5px")?.css == "12.5px")
  }

  @Test func unreadableThemeValuesAreIgnoredNotFatal() throws {
    let json = ##"""
      {"accent":"#36f","background":"blue","foreground":42,"card":"#12345","radius":"8"}
      """##
    let theme = try VoteFirstCoding.decode(Theme.self, from: Data(json.utf8))
    #expect(theme.accent == ThemeColor(red: 0x33, green: 0x66, blue: 0xFF))
    #expect(theme.background == nil)
    #expect(theme.foreground == nil)
    #expect(theme.card == nil)
    #expect(theme.radius == nil)
    let written = String(decoding: try VoteFirstCoding.encode(theme), as: UTF8.self)
    #expect(written == ##"{"accent":"#3366FF"}"##)
  }

  @Test func settingsDefaultsAndThemeRoundTrip() throws {
    let settings = try VoteFirstCoding.decode(
      ProjectSettings.self, from: Data(##"{"theme":{"radius":"6px","card":"#fff8"}}"##.utf8))
    #expect(settings.votingEnabled && settings.suggestionsEnabled)
    #expect(!settings.commentsEnabled && !settings.showViewCounts)
    #expect(settings.voteKeyTemplate == "feature{id}")
    #expect(settings.theme.radius?.pixels == 6)
    #expect(settings.theme.card == nil)
    let again = try VoteFirstCoding.decode(
      ProjectSettings.self, from: try VoteFirstCoding.encode(settings))
    #expect(again == settings)
  }
}
