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
    var groups: [Group] = []
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
        let position =
          groups.firstIndex { $0.field == field && $0.language == language }
          ?? {
            groups.append(Group(field: field, language: language))
            return groups.count - 1
          }()
        groups[position].features.append(name)
        for item in items where !groups[position].available.contains(item.language) {
          groups[position].available.append(item.language)
        }
      }
    }
    let fieldOrder = ["title", "status", "description"]
    groups.sort {
      fieldOrder.firstIndex(of: $0.field)! < fieldOrder.firstIndex(of: $1.field)!
    }
    // Fields with the same outcome for the same features share one line.
    var lines: [(fields: [String], group: Group)] = []
    for group in groups {
      if let index = lines.firstIndex(where: {
        $0.group.language == group.language && $0.group.features == group.features
      }) {
        lines[index].fields.append(group.field)
        for language in group.available where !lines[index].group.available.contains(language) {
          lines[index].group.available.append(language)
        }
      } else {
        lines.append(([group.field], group))
      }
    }
    let asked = "--language \(languages.joined(separator: ","))"
    let wanted = languages.map { "\"\($0)\"" }
    let wantedList =
      wanted.count > 1
      ? wanted.dropLast().joined(separator: ", ") + " or " + wanted.last! : wanted.joined()
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
        let available = group.available.map { "\"\($0)\"" }.joined(separator: ", ")
        outcome =
          "\(verbPlural ? "have" : "has") no \(wantedList) translation; the plain "
          + (verbPlural ? "fields are" : "field is") + " shown "
          + "(translations in the file: \(available))"
      }
      return "\(path): note: \(asked): \(subject) \(outcome)"
    }
  }
}
