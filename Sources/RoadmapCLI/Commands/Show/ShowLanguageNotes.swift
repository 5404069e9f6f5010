import RoadmapFormat

/// The notes `show` writes to standard error when a localized field is not shown in the language
/// asked for first: shown in a fallback language, or in the plain field because no translation
/// matched (`--language zh-CN` on a file that has `zh-Hans`).
///
/// One line per field and outcome, naming the features by id and 1-based position:
///
///     roadmap.json: note: --language fr: the titles and statuses of features "1" (#1), "2" (#2)
///     have no "fr" translation; the plain fields are shown (translations in the file: "en", "de")
enum ShowLanguageNotes {
  /// How many features a note names before it says "and N more".
  static let listedFeatures = 5
  /// How many languages a note names (asked for, or in the file) before it says how many more.
  static let listedLanguages = 10

  private struct Group {
    var field: String
    var language: String?
    var features: [String] = []
    var available: [String] = []
  }

  static func notes(
    for features: [RoadmapFeature],
    resolved: [ResolvedFeature],
    resolver: LanguageResolver,
    languages: [String],
    path: String
  ) -> [String] {
    // Groups and their languages are found through dictionaries and sets: a file of
    // thousands of languages made a scan per feature and per language quadratic.
    var groups: [Group] = []
    var groupIndex: [String: Int] = [:]
    var availableSets: [Set<String>] = []
    for (index, (feature, shown)) in zip(features, resolved).enumerated() {
      let fields: [(String, [LocalizedValue]?, String?)] = [
        ("title", feature.localizedTitle, shown.titleLanguage),
        ("status", feature.localizedStatus, shown.statusLanguage),
        ("description", feature.localizedDescription, shown.descriptionLanguage),
      ]
      for (field, items, language) in fields {
        guard let items, !items.isEmpty else { continue }
        if let language, resolver.isFirstChoice(language) { continue }
        let name = "\"\(feature.id)\" (#\(index + 1))"
        let key = field + (language.map { "\u{0}" + $0 } ?? "")
        let position =
          groupIndex[key]
          ?? {
            groups.append(Group(field: field, language: language))
            availableSets.append([])
            groupIndex[key] = groups.count - 1
            return groups.count - 1
          }()
        groups[position].features.append(name)
        for item in items where availableSets[position].insert(item.language).inserted {
          groups[position].available.append(item.language)
        }
      }
    }
    let fieldOrder = ["title", "status", "description"]
    // Stable: within a field, groups keep the order their first feature gave them.
    groups = fieldOrder.flatMap { field in groups.filter { $0.field == field } }
    // Fields with the same outcome for the same features share one line.
    struct Outcome: Hashable {
      var language: String?
      var features: [String]
    }
    var lines: [(fields: [String], group: Group)] = []
    var lineIndex: [Outcome: Int] = [:]
    var lineLanguages: [Set<String>] = []
    for group in groups {
      let outcome = Outcome(language: group.language, features: group.features)
      if let index = lineIndex[outcome] {
        lines[index].fields.append(group.field)
        for language in group.available where lineLanguages[index].insert(language).inserted {
          lines[index].group.available.append(language)
        }
      } else {
        lineIndex[outcome] = lines.count
        lineLanguages.append(Set(group.available))
        lines.append(([group.field], group))
      }
    }
    func few(_ list: [String], _ separator: String) -> String {
      let more = list.count - listedLanguages
      return list.prefix(listedLanguages).joined(separator: separator)
        + (more > 0 ? "\(separator)… (\(list.count) in all)" : "")
    }
    let asked = "--language \(few(languages, ","))"
    let wanted = languages.map { "\"\($0)\"" }
    let missing =
      languages.count > listedLanguages
      ? "translation in any of the \(languages.count) languages asked for"
      : (wanted.count > 1
        ? wanted.dropLast().joined(separator: ", ") + " or " + wanted.last! : wanted.joined())
        + " translation"
    return lines.map { fields, group in
      let plural = group.features.count > 1
      let names = fields.map { plural ? ($0 == "status" ? "statuses" : $0 + "s") : $0 }
      let fieldList =
        names.count > 1
        ? names.dropLast().joined(separator: ", ") + " and " + names.last! : names.joined()
      let listed = group.features.prefix(listedFeatures).joined(separator: ", ")
      let more = group.features.count - min(group.features.count, listedFeatures)
      let whom =
        group.features.count == features.count && plural
        ? (features.count == 2 ? "both features" : "all \(features.count) features")
        : "feature\(plural ? "s" : "") \(listed)" + (more > 0 ? " and \(more) more" : "")
      let subject = "the \(fieldList) of \(whom)"
      let verbPlural = plural || fields.count > 1
      let outcome: String
      if let language = group.language {
        outcome = "\(verbPlural ? "are" : "is") shown in \"\(language)\""
      } else {
        let available = few(group.available.map { "\"\($0)\"" }, ", ")
        outcome =
          "\(verbPlural ? "have" : "has") no \(missing); the plain "
          + (verbPlural ? "fields are" : "field is") + " shown "
          + "(translations in the file: \(available))"
      }
      return "\(path): note: \(asked): \(subject) \(outcome)"
    }
  }
}
