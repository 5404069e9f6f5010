import RoadmapFormat
import TestProcess
import Testing

/// Our own fixtures for every problem the real-world corpus shows.
@Suite("Corpus problem fixtures")
struct CorpusFixtureTests {
  @Test("localized objects: the app rejects the file; every object is named with its fix")
  func localizedObjects() throws {
    let bytes = Array(CorpusProblemFixtures.localizedObjects.utf8)
    let report = RoadmapValidator().validate(bytes)
    #expect(
      report.errorCodes == ["localized-not-array", "localized-not-array", "localized-not-array"])
    #expect(report.diagnostics.map(\.line) == [5, 9, 18])
    #expect(report.features.isEmpty)
    #expect(upstreamDecodes(bytes) == nil)
    let error = #expect(throws: RoadmapReadError.self) {
      try RoadmapDocument.read(bytes, mode: .compatible)
    }
    #expect(error?.diagnostic.line == 5)
    #expect(error?.diagnostic.column == 24)
    #expect(try RoadmapDocument.read(bytes, mode: .lenient).features.isEmpty)
  }

  @Test("trailing commas: an error for validate, read by the app on iOS 17+")
  func trailingCommas() throws {
    let bytes = Array(CorpusProblemFixtures.trailingCommas.utf8)
    let report = RoadmapValidator().validate(bytes)
    #expect(report.codes == ["trailing-comma", "trailing-comma"])
    #expect(report.diagnostics.map(\.line) == [5, 11])
    #expect(report.diagnostics.map(\.column) == [24, 23])
    #expect(upstreamDecodes(bytes)?.count == 2)
    #expect(try RoadmapDocument.read(bytes, mode: .compatible).features.count == 2)
  }

  @Test("missing comma after a description: fails at the line of the description")
  func missingComma() throws {
    let bytes = Array(CorpusProblemFixtures.missingCommaAfterDescription.utf8)
    let report = RoadmapValidator().validate(bytes)
    #expect(report.codes == ["missing-comma"])
    #expect(report.diagnostics.first?.line == 5)
    #expect(report.diagnostics.first?.path == "/0")
    #expect(upstreamDecodes(bytes) == nil)
    let error = #expect(throws: RoadmapReadError.self) {
      try RoadmapDocument.read(bytes, mode: .compatible)
    }
    #expect(error?.diagnostic.line == 5)
    #expect(try RoadmapDocument.read(bytes, mode: .lenient).features.count == 1)
  }

  @Test("translation slips: trailing space, empty value, a language missing in one feature")
  func translationSlips() throws {
    let report = validate(CorpusProblemFixtures.translationSlips)
    #expect(!report.hasErrors)
    #expect(
      report.codes == ["surrounding-whitespace", "empty-value", "inconsistent-languages"])
    let missing = try #require(report.first("inconsistent-languages"))
    #expect(missing.path == "/2/localizedDescription")
    #expect(missing.message.contains(#""de" is in localizedDescription of 2 features"#))
    // The empty German description still wins in the app.
    let feature = report.features[1]
    #expect(
      LanguageResolver.roadmapCompatible(localization: "de").resolve(feature).description == "")
  }

  @Test("planned but flagged finished")
  func plannedButFinished() {
    let report = validate(CorpusProblemFixtures.plannedButFinished)
    #expect(report.codes == ["planned-status-flagged-finished"])
    #expect(report.diagnostics.first?.path == "/1/status")
  }

  @Test("no plain description: a missing language resolves to an empty description")
  func noPlainDescription() throws {
    let document = try RoadmapDocument.read(
      Array(CorpusProblemFixtures.noPlainDescription.utf8), mode: .compatible)
    let feature = try #require(document.features.first)
    #expect(document.diagnostics.isEmpty)
    let russian = LanguageResolver.roadmapCompatible(localization: "ru").resolve(feature)
    #expect(russian.title == "Виджет экзаменов")
    let french = LanguageResolver.roadmapCompatible(localization: "fr").resolve(feature)
    #expect(french.title == "Exam widget")
    #expect(french.description == "")
    // BCP 47 fallback finds Russian for a ru-BY device; the Roadmap package does not.
    #expect(
      LanguageResolver.roadmapCompatible(localization: "ru-BY").resolve(feature).description == "")
    #expect(
      LanguageResolver.fallback(preferredLanguages: ["ru-BY"]).resolve(feature).description
        == "Расписание экзаменов на экране")
  }

  @Test("a status localized on some features only is not a language gap")
  func statusNotLocalizedEverywhere() throws {
    let report = validate(CorpusProblemFixtures.statusNotLocalizedEverywhere)
    #expect(report.diagnostics.isEmpty)
    let resolved = report.features.map(
      LanguageResolver.roadmapCompatible(localization: "nl").resolve)
    #expect(resolved.map(\.status) == ["klaar", "?"])
  }
}
