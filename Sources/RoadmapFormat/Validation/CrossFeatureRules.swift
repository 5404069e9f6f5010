import Foundation

/// The rules that need every feature: duplicate ids, counter keys, language coverage,
/// `--languages`, `--statuses` and the comparison with the previous version.
struct CrossFeatureRules {
  let options: ValidationOptions
  let outcome: ParseOutcome
  var issues: [Issue] = []
  /// Index of the first record per id.
  var firstByID: [String: Int] = [:]

  init(options: ValidationOptions, outcome: ParseOutcome) {
    self.options = options
    self.outcome = outcome
  }

  mutating func add(
    _ code: String, _ severity: Severity, at offset: Int, path: String,
    related: [RelatedIssue] = [], _ message: String
  ) {
    issues.append(
      Issue(
        code: code, severity: severity, message: message, offset: offset, path: path,
        related: related, rejectedByRoadmap: false, sequence: Int.max / 2 + issues.count))
  }

  static func idPath(_ index: Int) -> String { "/\(index)/id" }

  mutating func run() {
    checkIDs()
    checkLanguageCoverage()
    if let languages = options.languages, !languages.isEmpty {
      checkRequiredLanguages(languages)
    }
    if let statuses = options.statuses, !statuses.isEmpty {
      checkStatuses(statuses)
    }
  }

  // MARK: Ids and counter keys

  mutating func checkIDs() {
    let template = options.keyTemplate
    let parts = template.components(separatedBy: "{id}")
    let prefix = parts.first ?? ""
    let suffix = parts.count > 1 ? parts[1...].joined(separator: "{id}") : ""
    let fixedValid = (prefix + suffix).utf8.allSatisfy(Self.isCounterKeyByte)
    let fixedLength = prefix.utf8.count + suffix.utf8.count
    firstByID.reserveCapacity(outcome.records.count)
    for (recordIndex, record) in outcome.records.enumerated() {
      guard let id = record.id else { continue }
      if let first = firstByID[id] {
        let firstRecord = outcome.records[first]
        add(
          "duplicate-id", .error, at: record.idOffset, path: Self.idPath(record.index),
          related: [
            RelatedIssue(
              message: "first feature with id \"\(id)\"", path: Self.idPath(firstRecord.index),
              offset: firstRecord.idOffset)
          ],
          "id \"\(id)\" is already used by feature \(firstRecord.index); both would count votes "
            + "under the same key and the app marks both as voted: give this feature a new id")
        continue
      }
      firstByID[id] = recordIndex
      guard !id.isEmpty else { continue }
      let length = fixedLength + id.utf8.count
      if !fixedValid || length < 3 || length > 64 || !id.utf8.allSatisfy(Self.isCounterKeyByte) {
        let key = prefix + id + suffix
        let reason: String
        if length > 64 {
          reason = "is \(length) characters long, over the limit of 64"
        } else if length < 3 {
          reason = "is shorter than 3 characters"
        } else {
          let bad = Set(
            key.unicodeScalars.filter { !($0.isASCII && Self.isCounterKeyByte(UInt8($0.value))) }
          )
          .map { $0 == " " ? "space" : "'\($0)'" }.sorted().joined(separator: ", ")
          reason = "contains \(bad)"
        }
        add(
          "invalid-counter-key", .error, at: record.idOffset, path: Self.idPath(record.index),
          "the counter key \(RoadmapParser.quoted(key)) built from this id \(reason); counting "
            + "APIs accept only ^[A-Za-z0-9_\\-.]{3,64}$, so votes for it are lost: use letters, "
            + "digits, '_', '-' and '.' only")
      }
    }
  }

  static func isCounterKeyByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"),
      UInt8(ascii: "."):
      return true
    default:
      return false
    }
  }

  // MARK: Languages

  static let fieldNames = ["localizedTitle", "localizedStatus", "localizedDescription"]

  static func mask(_ record: FeatureRecord, _ slot: Int) -> UInt64 {
    switch slot {
    case 0: record.languageMasks.0
    case 1: record.languageMasks.1
    default: record.languageMasks.2
    }
  }

  static func localizedOffset(_ record: FeatureRecord, _ slot: Int) -> Int {
    switch slot {
    case 0: record.localizedOffsets.0
    case 1: record.localizedOffsets.1
    default: record.localizedOffsets.2
    }
  }

  static func describe(_ record: FeatureRecord) -> String {
    record.id.map { "\"\($0)\"" } ?? "#\(record.index)"
  }

  /// A language present in a localized field of some features and missing in others.
  mutating func checkLanguageCoverage() {
    let languageCount = min(outcome.languageNames.count, 64)
    guard languageCount > 0 else { return }
    for slot in 0..<3 {
      let bit = UInt8(1) << slot
      var localizing = 0
      var counts = [Int](repeating: 0, count: languageCount)
      for record in outcome.records where record.localizedPresent & bit != 0 {
        localizing += 1
        var mask = Self.mask(record, slot)
        while mask != 0 {
          let language = mask.trailingZeroBitCount
          counts[language] += 1
          mask &= mask - 1
        }
      }
      for language in 0..<languageCount where counts[language] > 0 && counts[language] < localizing
      {
        let name = outcome.languageNames[language]
        let languageBit = UInt64(1) << language
        var missing: [FeatureRecord] = []
        var missingCount = 0
        for record in outcome.records
        where record.localizedPresent & bit != 0 && Self.mask(record, slot) & languageBit == 0 {
          missingCount += 1
          if missing.count < 6 { missing.append(record) }
        }
        guard let first = missing.first else { continue }
        let others = missing.dropFirst()
        let listed = others.map(Self.describe).joined(separator: ", ")
        let more = missingCount - missing.count
        let field = Self.fieldNames[slot]
        add(
          "inconsistent-languages", .warning, at: Self.localizedOffset(first, slot),
          path: "/\(first.index)/\(field)",
          related: others.map {
            RelatedIssue(
              message: "also missing \"\(name)\"", path: "/\($0.index)/\(field)",
              offset: Self.localizedOffset($0, slot))
          },
          "\"\(name)\" is in \(field) of \(counts[language]) features but missing in "
            + "\(missingCount): feature \(Self.describe(first))"
            + (listed.isEmpty ? "" : ", \(listed)") + (more > 0 ? " and \(more) more" : "")
            + "; \"\(name)\" users see the plain field there: add the translation")
      }
    }
  }

  /// `--languages`: every feature localizes the given languages in every field it has.
  mutating func checkRequiredLanguages(_ languages: [String]) {
    let ids = languages.map { language -> UInt64? in
      guard let index = outcome.languageNames.firstIndex(of: language), index < 64 else {
        return outcome.languageNames.contains(language) ? nil : 0
      }
      return UInt64(1) << index
    }
    let plainNames = ["title", "status", "description"]
    for record in outcome.records where record.id != nil {
      var missingParts: [String] = []
      var offset = record.offset
      for slot in 0..<3 {
        let bit = UInt8(1) << slot
        let hasLocalized = record.localizedPresent & bit != 0
        guard hasLocalized || record.plainPresent & bit != 0 else { continue }
        let mask = hasLocalized ? Self.mask(record, slot) : 0
        var missing: [String] = []
        for (language, id) in zip(languages, ids) {
          guard let id else { continue }  // beyond 64 tracked languages: not checked
          if !hasLocalized || mask & id == 0 { missing.append(language) }
        }
        if !missing.isEmpty {
          if missingParts.isEmpty && hasLocalized { offset = Self.localizedOffset(record, slot) }
          missingParts.append(
            "\(Self.fieldNames[slot]) lacks \(missing.joined(separator: ", "))"
              + (hasLocalized ? "" : " (it has only a plain \(plainNames[slot]))"))
        }
      }
      guard !missingParts.isEmpty else { continue }
      add(
        "missing-language", .error, at: offset, path: "/\(record.index)",
        "feature \(Self.describe(record)) is not translated into every required language "
          + "(--languages \(languages.joined(separator: ","))): "
          + missingParts.joined(separator: "; ")
          + "; add {\"language\": …, \"value\": …} items")
    }
  }

  /// `--statuses`: every plain status is one of the allowed values.
  mutating func checkStatuses(_ statuses: [String]) {
    let allowed = Set(statuses)
    for record in outcome.records {
      guard let status = record.status, !allowed.contains(status) else { continue }
      let close = statuses.first {
        $0.lowercased() == status.lowercased().trimmingSpaces()
      }
      add(
        "unknown-status", .error, at: record.statusOffset, path: "/\(record.index)/status",
        "status \(RoadmapParser.quoted(status)) is not one of the allowed statuses ("
          + statuses.joined(separator: ", ") + ")"
          + (close.map { ": write \"\($0)\"" } ?? ": use one of them or extend --statuses"))
    }
  }

  // MARK: Previous version

  /// Removed ids (orphaned votes) and probable renames against the published version.
  mutating func compare(withPrevious buffer: UnsafeBufferPointer<UInt8>) {
    let previous = ParseOutcome.parse(buffer, collectWarnings: false)
    if previous.fatal || !previous.topLevelIsArray {
      let reason = previous.issues.first { $0.severity == .error }?.message ?? "it is not a roadmap"
      add(
        "previous-unreadable", .error, at: 0, path: "",
        "the previous version cannot be read (\(reason)), so removed ids were not checked")
      return
    }
    let previousRecords = previous.records.filter { $0.id != nil }
    let locations = LineIndex.locations(of: previousRecords.map(\.idOffset), in: buffer)
    // Current features whose id is new, by title.
    var newByTitle: [String: FeatureRecord] = [:]
    let previousIDs = Set(previousRecords.compactMap(\.id))
    for record in outcome.records {
      guard let id = record.id, !previousIDs.contains(id), let title = record.title else {
        continue
      }
      if newByTitle[title] == nil { newByTitle[title] = record }
    }
    var reported = Set<String>()
    for (record, location) in zip(previousRecords, locations) {
      guard let id = record.id, firstByID[id] == nil, reported.insert(id).inserted else {
        continue
      }
      let related = RelatedIssue(
        message: "feature \"\(id)\" in the previous version", path: Self.idPath(record.index),
        offset: nil, location: location)
      var renamedTo: String?
      if let title = record.title, let renamed = newByTitle[title], let newID = renamed.id {
        renamedTo = newID
        add(
          "probable-rename", .warning, at: renamed.idOffset, path: Self.idPath(renamed.index),
          related: [related],
          "this feature has the title of \"\(id)\" in the previous version but a new id "
            + "\"\(newID)\": its votes stay under the old key; keep the id \"\(id)\" unless "
            + "the change is meant")
      }
      let rename = renamedTo.map { " (probably renamed to \"\($0)\")" } ?? ""
      add(
        "removed-id", options.allowRemoved ? .info : .error, at: 0, path: "",
        related: [related],
        "feature \"\(id)\" of the previous version is gone\(rename); its votes are orphaned"
          + (options.allowRemoved
            ? " (allowed by --allow-removed)"
            : ": restore it, or pass "
              + "--allow-removed if removing it is meant"))
    }
  }
}
