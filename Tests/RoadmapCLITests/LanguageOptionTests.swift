import Testing

/// Languages given on the command line are held to the rule the validator applies to the
/// languages in a file (`malformed-language-tag`): the app compares them exactly, so `EN` or
/// `en_US` gets a warning naming the usual spelling, and is then checked as given, since an app
/// whose localization folder has that very name (`zh_CN.lproj`, `English.lproj`) uses it.
@Suite struct LanguageOptionTests {
  static let roadmap = """
    [{"id": "1", "title": "A", "localizedTitle": [{"language": "en", "value": "A"}]}]
    """

  @Test(
    "validate --languages with a language not named as localizations are",
    arguments: [
      ("EN", "starts with an uppercase language code", "en"),
      ("en_US", "is not a BCP 47 tag", "en-US"),
      ("EN-us", "starts with an uppercase language code", "en-US"),
      ("pt-br", "has its script or region in another case", "pt-BR"),
    ])
  func validateWarnsOfAMiswrittenLanguage(given: String, problem: String, right: String) async {
    let result = await InProcess.run(
      ["validate", "--languages", "de,\(given)", "-"], stdin: Self.roadmap)
    #expect(result.exitCode == 1)
    #expect(
      result.stderr.hasPrefix("warning: --languages: \"\(given)\" \(problem)"), "\(result.stderr)")
    #expect(result.stderr.contains("write \"\(right)\"; checked as given.\n"), "\(result.stderr)")
    #expect(result.stdout.contains("localizedTitle lacks de, \(given);"), "\(result.stdout)")
  }

  /// An app with an old-style localization folder (`zh_CN.lproj`) resolves that very name, so a
  /// file localized for it passes when asked for it, with the warning.
  @Test func validateChecksAnOldStyleLocalizationAsGiven() async {
    let roadmap = """
      [{"id": "1", "title": "A", "localizedTitle": [{"language": "zh_CN", "value": "甲"}]}]
      """
    let result = await InProcess.run(["validate", "--languages", "zh_CN", "-"], stdin: roadmap)
    #expect(!result.stdout.contains("lacks"), "\(result.stdout)")
    #expect(result.exitCode == 0, "\(result.stdout)")
    #expect(
      result.stderr.contains(
        "warning: --languages: \"zh_CN\" is not a BCP 47 tag, so it matches only a localization "
          + "folder of that name (an older project's zh_CN.lproj): write \"zh-CN\""),
      "\(result.stderr)")
  }

  @Test func validateWarnsOfAWordThatIsNoLanguage() async {
    let result = await InProcess.run(
      ["validate", "--languages", "english", "-"], stdin: Self.roadmap)
    #expect(result.exitCode == 1)
    #expect(result.stderr.hasPrefix("warning: --languages: \"english\" is not a language tag"))
  }

  @Test func validateChecksWellWrittenLanguages() async {
    let result = await InProcess.run(
      ["validate", "--languages", "en,zh-Hans", "-"], stdin: Self.roadmap)
    #expect(result.exitCode == 1)
    #expect(result.stdout.contains("localizedTitle lacks zh-Hans"))
    let english = await InProcess.run(["validate", "--languages", "en", "-"], stdin: Self.roadmap)
    #expect(english.exitCode == 0, "\(english.stdout)")
  }

  /// Under --compatible, --language is the app's localization, compared exactly; without it,
  /// the user's languages ignore case and read `_` as `-`, so `EN` finds `en`.
  @Test func showCompatibleWarnsOfAMiswrittenLocalization() async {
    let compatible = await InProcess.run(
      ["show", "--compatible", "--language", "EN", "-"], stdin: Self.roadmap)
    #expect(compatible.exitCode == 0)
    #expect(compatible.stderr.hasPrefix("warning: --language: \"EN\" starts with an uppercase"))
    #expect(compatible.stderr.contains("write \"en\"; shown as given."))
    let fallback = await InProcess.run(["show", "--language", "EN", "-"], stdin: Self.roadmap)
    #expect(fallback.exitCode == 0)
    #expect(fallback.stdout.contains("1   A"))
  }
}
