import Testing

/// Languages given on the command line are held to the rule the validator applies to the
/// languages in a file (`malformed-language-tag`): the app compares them exactly, so `EN` or
/// `en_US` is a usage error naming the right spelling, not a check that every feature fails.
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
  func validateRefusesAMiswrittenLanguage(given: String, problem: String, right: String) async {
    let result = await InProcess.run(
      ["validate", "--languages", "de,\(given)", "-"], stdin: Self.roadmap)
    #expect(result.exitCode == 64)
    #expect(result.stdout == "")
    #expect(
      result.stderr.hasPrefix("Error: --languages: \"\(given)\" \(problem)"), "\(result.stderr)")
    #expect(result.stderr.contains("write \"\(right)\"."), "\(result.stderr)")
  }

  @Test func validateRefusesAWordThatIsNoLanguage() async {
    let result = await InProcess.run(
      ["validate", "--languages", "english", "-"], stdin: Self.roadmap)
    #expect(result.exitCode == 64)
    #expect(result.stderr.hasPrefix("Error: --languages: \"english\" is not a language tag"))
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
  @Test func showCompatibleRefusesAMiswrittenLocalization() async {
    let compatible = await InProcess.run(
      ["show", "--compatible", "--language", "EN", "-"], stdin: Self.roadmap)
    #expect(compatible.exitCode == 64)
    #expect(compatible.stderr.hasPrefix("Error: --language: \"EN\" starts with an uppercase"))
    #expect(compatible.stderr.contains("write \"en\"."))
    let fallback = await InProcess.run(["show", "--language", "EN", "-"], stdin: Self.roadmap)
    #expect(fallback.exitCode == 0)
    #expect(fallback.stdout.contains("1   A"))
  }
}
