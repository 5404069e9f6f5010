/// Picks the text of each localized field for an app user, in one of two modes.
///
/// - `roadmapCompatible(localization:)` does exactly what the AvdLee/Roadmap package does: the
///   first item whose `language` equals the app's first preferred localization exactly
///   (case-sensitively), else the plain field, else `N/A` for a title, `""` for a description
///   and no status. `zh-Hans` does not match `zh`, `pt-BR` does not match `pt`.
/// - `fallback(preferredLanguages:)` tries each preferred language along its BCP 47 lookup
///   chain (`zh-Hans-CN`, `zh-Hans`, `zh`), case-insensitively with `_` read as `-`; Chinese
///   also through the tags of the same script (`zh-CN` finds `zh-Hans`, `zh-HK` finds `zh-Hant`
///   and then `zh-TW`); then any other region of the same language (`pt-BR` finds `pt-PT`,
///   except for languages written in several scripts); then the next preferred language; then
///   the plain field. An item whose value is empty or only white space is passed over.
///
/// Each field is resolved on its own.
public struct LanguageResolver: Sendable {
  private enum Mode: Sendable {
    case exact(String)
    /// Each tag of the lookup chains, in the order they are tried, → its place in that order
    /// (the first place when a tag is in several chains); `first` is the first language's own
    /// tag.
    /// An item is found by its own tag, so a feature costs its items, not items × tags.
    /// `siblings`: a language subtag → the place of "any other tag of that language", right
    /// after its preferred language's chain.
    case ranked(first: String?, rank: [String: Int], siblings: [String: Int])
  }

  private let mode: Mode

  /// The Roadmap package's resolution for an app whose first preferred localization is
  /// `localization` (such as `en`, `de`, `zh-Hans`).
  ///
  /// - Parameter localization: the `.lproj` name the app resolves to; `en` when it has none.
  public static func roadmapCompatible(localization: String) -> LanguageResolver {
    LanguageResolver(mode: .exact(localization))
  }

  /// Resolution with BCP 47 fallback over a list of preferred languages, most preferred first.
  ///
  /// - Parameter preferredLanguages: tags such as `["zh-Hans-CN", "en"]`; `_` is read as `-`.
  public static func fallback(preferredLanguages: [String]) -> LanguageResolver {
    let chains = preferredLanguages.map(Self.lookupChain)
    var rank: [String: Int] = [:]
    var siblings: [String: Int] = [:]
    var place = 0
    for chain in chains {
      for tag in chain where rank[tag] == nil {
        rank[tag] = place
        place += 1
      }
      // Then any other region of the language: a Brazilian reads European Portuguese before
      // the plain field, but a reader of one script is not given another.
      if let language = chain.last.map(Self.languageSubtag), language.count >= 2,
        !Self.writtenInSeveralScripts.contains(language), siblings[language] == nil
      {
        siblings[language] = place
        place += 1
      }
    }
    return LanguageResolver(
      mode: .ranked(first: chains.first?.first, rank: rank, siblings: siblings))
  }

  /// Resolves every localized field of `feature`.
  ///
  /// - Parameter feature: the feature to resolve.
  /// - Returns: what the user sees.
  public func resolve(_ feature: RoadmapFeature) -> ResolvedFeature {
    let title = pick(feature.localizedTitle)
    let status = pick(feature.localizedStatus)
    let description = pick(feature.localizedDescription)
    return ResolvedFeature(
      id: feature.id,
      title: title?.value ?? feature.title ?? "N/A",
      status: status?.value ?? feature.status,
      description: description?.value ?? feature.description ?? "",
      isFinished: feature.isFinished ?? false,
      votes: feature.votes,
      titleLanguage: title?.language,
      statusLanguage: status?.language,
      descriptionLanguage: description?.language)
  }

  /// Whether `language` (as written in a file) is the one the user asked for first: equal in
  /// compatible mode, equal ignoring case and `_`/`-` otherwise.
  ///
  /// - Parameter language: a localized item's `language`.
  /// - Returns: false for a fallback (another language, or a shorter tag of the chain).
  public func isFirstChoice(_ language: String) -> Bool {
    switch mode {
    case .exact(let localization): return language == localization
    case .ranked(let first, _, _):
      return first.map { Self.normalize(language) == $0 } ?? false
    }
  }

  /// The item chosen for this resolver's languages, or nil. With fallback, an item that shows
  /// nothing (empty, or white space alone: what translation tools leave for an untranslated
  /// text) gives way to the next language; the app itself shows it.
  func pick(_ items: [LocalizedValue]?) -> LocalizedValue? {
    switch mode {
    case .exact: return choose(items, language: \.language)
    case .ranked:
      guard let items, items.contains(where: Self.showsNothing) else {
        return choose(items, language: \.language)
      }
      return choose(items.filter { !Self.showsNothing($0) }, language: \.language)
    }
  }

  /// Whether a localized value is empty or white space alone.
  static func showsNothing(_ item: LocalizedValue) -> Bool {
    item.value.allSatisfy(\.isWhitespace)
  }

  /// The item of `items` this resolver chooses, exactly as it chooses a localized field's
  /// value, for per-language texts of another model (such as the board API's).
  ///
  /// - Parameters:
  ///   - items: per-language texts, in their order.
  ///   - language: an item's language tag, as written.
  /// - Returns: the chosen item, or nil when none is in the user's languages.
  public func choose<Item>(_ items: [Item]?, language: (Item) -> String) -> Item? {
    guard let items, !items.isEmpty else { return nil }
    switch mode {
    case .exact(let localization):
      return items.first(where: { language($0) == localization })
    case .ranked(_, let rank, let siblings):
      // The item whose tag comes first in the chains; of items with that tag, the first.
      var best: (place: Int, index: Int)?
      for (index, item) in items.enumerated() {
        let tag = Self.normalize(language(item))
        // The earlier of its own tag's place and its language's "other region" place, with
        // no array made per item.
        let sibling = siblings.isEmpty ? nil : siblings[Self.languageSubtag(tag)]
        let place = Swift.min(rank[tag] ?? .max, sibling ?? .max)
        guard place != .max else { continue }
        if best.map({ place < $0.place }) ?? true {
          best = (place, index)
          if place == 0 { break }
        }
      }
      return best.map { items[$0.index] }
    }
  }

  /// Lowercases and reads `_` as `-`.
  static func normalize(_ tag: String) -> String {
    String(tag.lowercased().map { $0 == "_" ? "-" : $0 })
  }

  /// The language subtag of a normalized tag: `pt` of `pt-br`.
  static func languageSubtag(_ tag: String) -> String {
    String(tag.prefix { $0 != "-" })
  }

  /// Languages whose regions may be written in different scripts (Serbian in Cyrillic or
  /// Latin, Chinese Simplified or Traditional): no "other region" fallback for them.
  static let writtenInSeveralScripts: Set<String> = [
    "az", "bs", "ff", "ha", "kk", "ks", "ku", "mn", "ms", "pa", "sd", "shi", "sr", "tg", "uz",
    "vai", "zh",
  ]

  /// Chinese tags of each script, most common region first (CLDR's likely subtags).
  static let chineseScripts: [String: [String]] = [
    "hans": ["cn", "sg", "my"],
    "hant": ["tw", "hk", "mo"],
  ]

  /// The script of a Chinese region (`tw` → `hant`).
  static let chineseScriptOfRegion: [String: String] = {
    var scripts: [String: String] = [:]
    for (script, regions) in chineseScripts {
      for region in regions { scripts[region] = script }
    }
    return scripts
  }()

  /// The lookup chain of a tag: its RFC 4647 chain (`zh-Hans-CN`, `zh-Hans`, `zh`; a singleton
  /// such as `x` left at the end is dropped with the subtag after it); for Chinese, before the
  /// bare `zh`, the other tags of its script (`zh-HK` → `zh-Hant-HK`, `zh-Hant`, `zh-TW`,
  /// `zh-MO`; a bare `zh` is Simplified, as CLDR has it).
  static func lookupChain(_ tag: String) -> [String] {
    var chain = truncationChain(tag)
    guard chain.last == "zh" else { return chain }
    let subtags = chain[0].split(separator: "-").map(String.init)
    let script = subtags.dropFirst().first { $0.count == 4 }
    let region = subtags.dropFirst().first {
      $0.count == 2 || ($0.count == 3 && $0.allSatisfy(\.isNumber))
    }
    guard
      let script = script ?? region.flatMap({ chineseScriptOfRegion[$0] })
        ?? (subtags.count == 1 ? "hans" : nil),
      let regions = chineseScripts[script]
    else { return chain }
    chain.removeLast()
    var same: [String] = []
    if let region {
      same.append("zh-\(script)-\(region)")
      // A region of the other script (zh-Hant-CN) is not a reason to give its script.
      if (chineseScriptOfRegion[region] ?? script) == script { same.append("zh-\(region)") }
    }
    same.append("zh-\(script)")
    same += regions.map { "zh-\($0)" }
    for candidate in same where !chain.contains(candidate) { chain.append(candidate) }
    chain.append("zh")
    return chain
  }

  /// The RFC 4647 lookup chain of a tag: `zh-Hans-CN`, `zh-Hans`, `zh` (a singleton such as
  /// `x` left at the end is dropped with the subtag after it).
  static func truncationChain(_ tag: String) -> [String] {
    var subtags = normalize(tag).split(separator: "-", omittingEmptySubsequences: false)
      .map(String.init)
    var chain: [String] = []
    while !subtags.isEmpty {
      if subtags.last?.count == 1 && subtags.count > 1 {
        subtags.removeLast()
        continue
      }
      let candidate = subtags.joined(separator: "-")
      if !candidate.isEmpty && !chain.contains(candidate) {
        chain.append(candidate)
      }
      subtags.removeLast()
    }
    return chain
  }
}
