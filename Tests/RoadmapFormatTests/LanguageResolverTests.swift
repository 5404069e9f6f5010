import Testing

@testable import RoadmapFormat

/// Language resolution: the Roadmap package's exact rule, and BCP 47 fallback.
@Suite("Language resolution")
struct LanguageResolverTests {
  static func items(_ pairs: [(String, String)]) -> [LocalizedValue] {
    pairs.map { LocalizedValue(language: $0.0, value: $0.1) }
  }

  static let chinese = RoadmapFeature(
    id: "1", title: "Dark mode", status: "planned", description: "Plain",
    localizedTitle: items([("en", "Dark mode"), ("zh", "深色模式"), ("zh-Hant", "深色模式（繁）")]),
    localizedStatus: items([("zh", "计划中")]), localizedDescription: nil)

  struct Case: CustomTestStringConvertible, Sendable {
    var name: String
    var resolver: LanguageResolver
    var title: String
    var status: String?
    var description: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "compatible zh-Hans app does not fall back to zh",
      resolver: .roadmapCompatible(localization: "zh-Hans"), title: "Dark mode",
      status: "planned", description: "Plain"),
    Case(
      name: "compatible zh matches exactly", resolver: .roadmapCompatible(localization: "zh"),
      title: "深色模式", status: "计划中", description: "Plain"),
    Case(
      name: "compatible is case-sensitive", resolver: .roadmapCompatible(localization: "EN"),
      title: "Dark mode", status: "planned", description: "Plain"),
    Case(
      name: "fallback zh-Hans-CN walks to zh",
      resolver: .fallback(preferredLanguages: ["zh-Hans-CN"]), title: "深色模式", status: "计划中",
      description: "Plain"),
    Case(
      name: "fallback reads _ as - and ignores case",
      resolver: .fallback(preferredLanguages: ["ZH_hant_TW"]), title: "深色模式（繁）",
      status: "计划中", description: "Plain"),
    Case(
      name: "fallback tries the next preferred language",
      resolver: .fallback(preferredLanguages: ["fr-CA", "en"]), title: "Dark mode",
      status: "planned", description: "Plain"),
    Case(
      name: "fallback ends at the plain field", resolver: .fallback(preferredLanguages: ["fr"]),
      title: "Dark mode", status: "planned", description: "Plain"),
  ]

  @Test("resolves each field on its own", arguments: cases)
  func resolves(_ item: Case) {
    let resolved = item.resolver.resolve(Self.chinese)
    #expect(resolved.title == item.title)
    #expect(resolved.status == item.status)
    #expect(resolved.description == item.description)
    #expect(resolved.id == "1")
  }

  @Test("compatible mode shows N/A, an empty description and no status when nothing is there")
  func compatibleDefaults() {
    let resolved = LanguageResolver.roadmapCompatible(localization: "en").resolve(
      RoadmapFeature(id: "9", localizedTitle: Self.items([("de", "Titel")])))
    #expect(resolved.title == "N/A")
    #expect(resolved.description == "")
    #expect(resolved.status == nil)
    #expect(resolved.isFinished == false)
    #expect(resolved.votes == nil)
  }

  @Test("pt-BR does not match pt in compatible mode, but does in fallback mode")
  func regionalVariant() {
    let feature = RoadmapFeature(
      id: "1", title: "Plain", localizedTitle: Self.items([("pt", "Olá")]))
    #expect(
      LanguageResolver.roadmapCompatible(localization: "pt-BR").resolve(feature).title == "Plain")
    #expect(
      LanguageResolver.fallback(preferredLanguages: ["pt-BR"]).resolve(feature).title == "Olá")
  }

  @Test("the first matching item wins; with fallback, the first that shows something")
  func firstItemWins() {
    let feature = RoadmapFeature(
      id: "1", title: "Plain", localizedTitle: Self.items([("en", ""), ("en", "Second")]))
    #expect(LanguageResolver.roadmapCompatible(localization: "en").resolve(feature).title == "")
    #expect(
      LanguageResolver.fallback(preferredLanguages: ["en"]).resolve(feature).title == "Second")
  }

  @Test("isFinished and votes pass through")
  func passThrough() {
    let resolved = LanguageResolver.fallback(preferredLanguages: []).resolve(
      RoadmapFeature(id: "1", votes: 7, isFinished: true))
    #expect(resolved.isFinished)
    #expect(resolved.votes == 7)
    #expect(resolved.title == "N/A")
  }

  /// What the fallback picks, by a plain scan: for each preferred language, its chain in
  /// order, then any other region of its language (unless written in several scripts); the
  /// first item of the first tag found.
  static func pickedByScanning(_ items: [LocalizedValue], _ preferred: [String])
    -> LocalizedValue?
  {
    let tags = items.map { LanguageResolver.normalize($0.language) }
    for chain in preferred.map(LanguageResolver.lookupChain) {
      for tag in chain {
        if let index = tags.firstIndex(of: tag) { return items[index] }
      }
      guard let last = chain.last else { continue }
      let language = LanguageResolver.languageSubtag(last)
      guard language.count >= 2, !LanguageResolver.writtenInSeveralScripts.contains(language)
      else { continue }
      if let index = tags.firstIndex(where: { LanguageResolver.languageSubtag($0) == language }) {
        return items[index]
      }
    }
    return nil
  }

  static let fallbackCases: [(preferred: [String], items: [String], shown: String?)] = [
    // Chinese: a region finds its script and the script its regions, never the other script.
    (["zh-CN"], ["en", "zh-Hans"], "zh-Hans"),
    (["zh-Hans-CN"], ["en", "zh-CN"], "zh-CN"),
    (["zh-Hans"], ["zh-TW", "zh_CN"], "zh_CN"),
    (["zh-TW"], ["zh-Hans", "zh-Hant"], "zh-Hant"),
    (["zh-Hant-HK"], ["zh", "zh-TW"], "zh-TW"),
    (["zh-HK"], ["zh", "zh-Hant"], "zh-Hant"),
    (["zh-HK"], ["zh-Hans", "en"], nil),
    (["zh-Hant"], ["zh-CN"], nil),
    (["zh"], ["zh-Hant", "zh-Hans"], "zh-Hans"),
    (["zh-Hant-CN"], ["zh-CN", "zh-Hant"], "zh-Hant"),
    (["zh-yue"], ["zh-Hans"], nil),
    // Another region of the language, after the chain, before the next language.
    (["pt-BR", "en"], ["en", "pt-PT"], "pt-PT"),
    (["pt-BR", "en"], ["pt", "pt-PT"], "pt"),
    (["pt-BR", "en", "pt-PT"], ["en", "pt-PT"], "pt-PT"),
    (["en"], ["de", "en-GB"], "en-GB"),
    (["sr-Latn"], ["sr-Cyrl"], nil),
    (["fr"], ["de"], nil),
  ]

  @Test("Chinese scripts and other regions of a language")
  func chineseAndRegions() {
    for (preferred, languages, shown) in Self.fallbackCases {
      let feature = RoadmapFeature(
        id: "1", title: "plain",
        localizedTitle: languages.map { LocalizedValue(language: $0, value: "in \($0)") })
      let resolved = LanguageResolver.fallback(preferredLanguages: preferred).resolve(feature)
      #expect(resolved.title == (shown.map { "in \($0)" } ?? "plain"), "\(preferred) \(languages)")
      #expect(resolved.titleLanguage == shown, "\(preferred) \(languages)")
    }
  }

  @Test("with fallback, a value that shows nothing gives way to the next language")
  func emptyValuesGiveWay() {
    let feature = RoadmapFeature(
      id: "1", title: "Plain", status: "planned",
      localizedTitle: Self.items([("fr", ""), ("en", "English")]),
      localizedStatus: Self.items([("fr", " \n")]))
    let resolved = LanguageResolver.fallback(preferredLanguages: ["fr", "en"]).resolve(feature)
    #expect(resolved.title == "English")
    #expect(resolved.titleLanguage == "en")
    #expect(resolved.status == "planned")
    // The app shows the empty value, and the compatible resolver does too.
    #expect(LanguageResolver.roadmapCompatible(localization: "fr").resolve(feature).title == "")
  }

  @Test("the fallback picks what a scan of every chain picks")
  func rankedPickMatchesTheScan() {
    var generator = SystemRandomNumberGenerator()
    let pool = [
      "en", "EN", "en-US", "en_GB", "de", "de-AT", "de-CH-x-y", "zh", "zh-Hans", "zh-Hans-CN",
      "zh_hant", "pt", "pt-BR", "x-a", "", "-", "fr-",
    ]
    for _ in 0..<5_000 {
      let preferred = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
        pool.randomElement(using: &generator)!
      }
      let items = (0..<Int.random(in: 0...6, using: &generator)).map { index in
        LocalizedValue(language: pool.randomElement(using: &generator)!, value: "v\(index)")
      }
      let resolver = LanguageResolver.fallback(preferredLanguages: preferred)
      let feature = RoadmapFeature(id: "1", title: "plain", localizedTitle: items)
      let expected = Self.pickedByScanning(items, preferred)
      #expect(
        resolver.resolve(feature).title == (expected?.value ?? "plain"), "\(preferred) \(items)")
      for item in items {
        let first = preferred.first.flatMap { LanguageResolver.lookupChain($0).first }
        #expect(
          resolver.isFirstChoice(item.language)
            == (first == LanguageResolver.normalize(item.language)),
          "\(preferred) \(item.language)")
      }
    }
  }

  /// A feature costs its items, not its items × the tags tried: with 50,000 preferred
  /// languages and 50,000 items, only the last item in the last language matches (a scan of
  /// every item per tag: 2.5 billion comparisons).
  @Test(
    "thousands of preferred languages over features of thousands of items",
    .timeLimit(.minutes(5)))
  func manyPreferredLanguages() {
    let count = 50_000
    let resolver = LanguageResolver.fallback(preferredLanguages: (0..<count).map { "x-l\($0)" })
    let items =
      (0..<count).map { LocalizedValue(language: "y-l\($0)", value: "no") }
      + [LocalizedValue(language: "X_L\(count - 1)", value: "last")]
    let feature = RoadmapFeature(id: "1", title: "plain", localizedTitle: items)
    #expect(resolver.resolve(feature).title == "last")
    #expect(resolver.resolve(feature).titleLanguage == "X_L\(count - 1)")
    #expect(resolver.isFirstChoice("X-L0"))
  }
}
