import Testing

@testable import RoadmapCLI

/// "Did you mean" for an option spelled longer than the real one, and help that names every
/// kind of input an option takes.
@Suite struct OptionSuggestionTests {
  /// `--output` for `--out` (edit distance 3, past what counts as a typo) got no suggestion,
  /// though the docs promise one for an unknown option.
  @Test func aLongerSpellingOfAnOptionIsSuggested() async {
    for command in [
      ["publish", "--server", "http://127.0.0.1:1", "--project", "p"],
      ["convert", "roadmap.json", "--to", "roadmap"],
    ] {
      let result = await InProcess.run(command + ["--output", "x.json"])
      #expect(result.exitCode == 64)
      #expect(
        result.stderr.hasPrefix("Error: Unknown option '--output'. Did you mean '--out'?\n"),
        "\(result.stderr)")
    }
    #expect(Suggestion.closest(to: "--output", in: ["--out", "--server"]) == "--out")
    #expect(Suggestion.closest(to: "--servers-list", in: ["--out", "--server"]) == "--server")
    #expect(Suggestion.closest(to: "--zzzzzzzz", in: ["--out", "--server"]) == nil)
  }

  /// `--previous -` reads standard input (docs/cli.md); the help said "file or URL".
  @Test func validateHelpSaysPreviousTakesStandardInput() async {
    let help = await InProcess.run(["validate", "--help"])
    #expect(help.exitCode == 0)
    let flattened = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(flattened.contains("(file, URL, or - for standard input)"), "\(help.stdout)")
  }
}
