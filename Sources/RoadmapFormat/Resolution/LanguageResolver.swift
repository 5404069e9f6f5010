/// Picks the text of each localized field for an app user, in one of two modes.
///
/// - `roadmapCompatible(localization:)` does exactly what the AvdLee/Roadmap package does: the
///   first item whose `language` equals the app's first preferred localization exactly
///   (case-sensitively), else the plain field, else `N/A` for a title, `""` for a description
///   and no status. `zh-Hans` does not match `zh`, `pt-BR` does not match `pt`.
/// - `fallback(preferredLanguages:)` tries each preferred language along its BCP 47 lookup
///   chain (`zh-Hans-CN`, `zh-Hans`, `zh`), case-insensitively with `_` read as `-`, then the
///   plain field.
///
/// Each field is resolved on its own.
public struct LanguageResolver: Sendable {
  private enum Mode: Sendable {
    case exact(String)
    /// Each tag of the lookup chains, in the order they are tried, → its place in that order
    /// (the first place when a tag is in several chains); `first` is the first language's own
    /// tag.
    /// An item is found by its own tag, so a feature costs its items, not items × tags.
    case ranked(first: String?, rank: [String: Int])
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
    for (place, tag) in chains.joined().enumerated() where rank[tag] == nil { rank[tag] = place }
    return LanguageResolver(mode: .ranked(first: chains.first?.first, rank: rank))
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
    case .ranked(let first, _):
      return first.map { Self.normalize(language) == $0 } ?? false
    }
  }

  /// The item chosen for this resolver's languages, or nil.
  func pick(_ items: [LocalizedValue]?) -> LocalizedValue? {
    choose(items, language: \.language)
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
    case .ranked(_, let rank):
      // The item whose tag comes first in the chains; of items with that tag, the first.
      var best: (place: Int, index: Int)?
      for (index, item) in items.enumerated() {
        guard let place = rank[Self.normalize(language(item))] else { continue }
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

  /// The RFC 4647 lookup chain of a tag: `zh-Hans-CN`, `zh-Hans`, `zh` (a singleton such as
  /// `x` left at the end is dropped with the subtag after it).
  static func lookupChain(_ tag: String) -> [String] {
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
