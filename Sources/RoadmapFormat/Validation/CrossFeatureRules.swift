import Foundation

/// The rules that need every feature: duplicate ids, counter keys, language coverage,
/// `--languages`, `--statuses` and the comparison with the previous version.
struct CrossFeatureRules {
  let options: ValidationOptions
  let outcome: ParseOutcome
  /// The document's bytes, for decoding the tokens the records point at.
  let base: UnsafePointer<UInt8>
  var issues: [Issue] = []
  /// The first ``RoadmapParser/maxPerCode`` issues of each code are listed, the rest counted.
  var limit = PerCodeLimit()

  init(options: ValidationOptions, outcome: ParseOutcome, buffer: UnsafeBufferPointer<UInt8>) {
    self.options = options
    self.outcome = outcome
    // An empty document has no records, so the placeholder is never read.
    self.base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
  }

  func text(_ token: StringToken) -> String {
    RoadmapParser.decodeString(token, in: base)
  }

  /// Records an issue, or only counts it once its code has ``RoadmapParser/maxPerCode``
  /// listed (as the parser does: 200,000 features with one id printed 89 MB).
  mutating func add(
    _ code: String, _ severity: Severity, at offset: Int, path: String,
    related: [RelatedIssue] = [], _ message: String
  ) {
    guard limit.admits(code, severity) else { return }
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
    let records = outcome.records
    // Open addressing over record indices, keyed by the id's bytes: no string per id.
    var capacity = 16
    while capacity < records.count * 2 { capacity <<= 1 }
    var table = [Int32](repeating: -1, count: capacity)
    let mask = capacity - 1
    // Ids that are no counter key (non-ASCII ones among them), by their text as Swift compares
    // it: canonically equivalent forms (é precomposed or e + U+0301) are one id to the app and
    // to roadmapctl serve, though their bytes differ. Pure ASCII ids are equal only as bytes.
    var otherFormIDs: [String: Int] = [:]
    var asciiForms: [String: Int] = [:]
    // The parser took each id's hash, length and key validity while it read it, so only ids
    // whose hashes agree, and those reported, are read back from the document.
    for recordIndex in records.indices {
      guard let token = records[recordIndex].id else { continue }
      let record = records[recordIndex]
      let hash = record.idHash
      var slot = Int(truncatingIfNeeded: hash ^ (hash >> 29)) & mask
      var duplicateOf: Int?
      while table[slot] >= 0 {
        let other = Int(table[slot])
        if records[other].idHash == hash, let otherToken = records[other].id,
          sameText(token, otherToken)
        {
          duplicateOf = other
          break
        }
        slot = (slot + 1) & mask
      }
      if let first = duplicateOf {
        let firstRecord = records[first]
        let id = text(token)
        add(
          "duplicate-id", .error, at: record.idOffset, path: Self.idPath(record.index),
          related: [
            RelatedIssue(
              message: "first feature with id \"\(id)\"", path: Self.idPath(firstRecord.index),
              offset: firstRecord.idOffset)
          ],
          "id \"\(id)\" is already used by feature #\(firstRecord.index + 1); both would count votes "
            + "under the same key and the app marks both as voted: give this feature a new id")
        continue
      }
      if !record.idIsCounterKeyText {
        let id = text(token)
        if let first = otherFormIDs[id] {
          reportOtherForm(record, of: records[first])
          continue
        }
        otherFormIDs[id] = recordIndex
        // The Kelvin sign's canonical form is K: such an id may be a counter-key id in
        // another form, found after this loop.
        if id.precomposedStringWithCanonicalMapping.utf8.allSatisfy({ $0 < 0x80 }) {
          asciiForms[id.precomposedStringWithCanonicalMapping] = recordIndex
        }
      }
      table[slot] = Int32(recordIndex)
      let idLength = record.idLength
      let valid = record.idIsCounterKeyText
      guard idLength > 0 else { continue }
      let length = fixedLength + idLength
      if !fixedValid || length < 3 || length > 64 || !valid {
        let key = prefix + text(token) + suffix
        let reason: String
        if length > 64 {
          reason = "is \(length) characters long, over the limit of 64"
        } else if length < 3 {
          reason = "is shorter than 3 characters"
        } else {
          let bad = Set(
            key.unicodeScalars.filter {
              !($0.isASCII && Self.isCounterKeyByte(UInt8($0.value)))
            }
          )
          // Quoted as JSON quotes them: a line break or an escape character in a message
          // would split its line or reach the terminal.
          .map { $0 == " " ? "space" : RoadmapParser.quoted(String($0)) }.sorted()
          .joined(separator: ", ")
          reason = "contains \(bad)"
        }
        add(
          "invalid-counter-key", .error, at: record.idOffset, path: Self.idPath(record.index),
          "the counter key \(RoadmapParser.quoted(key)) built from this id \(reason); counting "
            + "APIs accept only ^[A-Za-z0-9_\\-.]{3,64}$, so votes for it are lost: use letters, "
            + "digits, '_', '-' and '.' only")
      }
    }
    for recordIndex in records.indices where !asciiForms.isEmpty {
      guard let token = records[recordIndex].id, records[recordIndex].idIsCounterKeyText,
        let other = asciiForms.removeValue(forKey: text(token))
      else { continue }
      let (first, second) = other < recordIndex ? (other, recordIndex) : (recordIndex, other)
      reportOtherForm(records[second], of: records[first])
    }
  }

  /// Reports `record`'s id as `first`'s id in another Unicode form.
  private mutating func reportOtherForm(_ record: FeatureRecord, of first: FeatureRecord) {
    guard let token = record.id, let firstToken = first.id else { return }
    let id = text(token)
    let firstID = text(firstToken)
    add(
      "duplicate-id", .error, at: record.idOffset, path: Self.idPath(record.index),
      related: [
        RelatedIssue(
          message: "first feature with id \(RoadmapParser.quoted(firstID))",
          path: Self.idPath(first.index), offset: first.idOffset)
      ],
      "id \(RoadmapParser.quoted(id)) is feature #\(first.index + 1)'s id "
        + "\(RoadmapParser.quoted(firstID)) in another Unicode form: the app (Swift compares "
        + "them as equal) and roadmapctl serve take them for one id, a counting API for two "
        + "keys: give this feature a new id")
  }

  /// Whether two tokens are the same text.
  func sameText(_ left: StringToken, _ right: StringToken) -> Bool {
    if !left.escaped && !right.escaped {
      guard left.length == right.length else { return false }
      for offset in 0..<left.length where base[left.start + offset] != base[right.start + offset] {
        return false
      }
      return true
    }
    return text(left) == text(right)
  }

  static func isCounterKeyByte(_ byte: UInt8) -> Bool { CounterKeyBytes.isAllowed(byte) }

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

  /// A feature named by its id and its 1-based position: `"dark" (#3)`, or `#3`
  /// without an id.
  func describe(_ record: FeatureRecord) -> String {
    record.id.map { "\"\(text($0))\" (#\(record.index + 1))" } ?? "#\(record.index + 1)"
  }

  /// A language present in a localized field of some features and missing in others.
  mutating func checkLanguageCoverage() {
    let languageCount = min(outcome.languageNames.count, 64)
    guard languageCount > 0 else { return }
    let records = outcome.records
    for slot in 0..<3 {
      let bit = UInt8(1) << slot
      // The parser counted, per language, the features whose field has it.
      let localizing = outcome.localizingCounts[slot]
      let counts = Array(outcome.languageCounts[(slot * 64)..<(slot * 64 + languageCount)])
      var partial: UInt64 = 0
      for language in 0..<languageCount where counts[language] > 0 && counts[language] < localizing
      {
        partial |= UInt64(1) << language
      }
      guard partial != 0 else { continue }
      // One pass, as far as it takes: the first few features missing each partial language.
      var missingCount = [Int](repeating: 0, count: languageCount)
      for language in 0..<languageCount where partial & (UInt64(1) << language) != 0 {
        missingCount[language] = localizing - counts[language]
      }
      var missing = [[Int]](repeating: [], count: languageCount)
      var short = partial
      for index in records.indices where records[index].localizedPresent & bit != 0 {
        var absent = short & ~Self.mask(records[index], slot)
        while absent != 0 {
          let language = absent.trailingZeroBitCount
          missing[language].append(index)
          if missing[language].count == 6 { short &= ~(UInt64(1) << language) }
          absent &= absent - 1
        }
        if short == 0 { break }
      }
      let field = Self.fieldNames[slot]
      for language in 0..<languageCount where partial & (UInt64(1) << language) != 0 {
        let name = outcome.languageNames[language]
        guard let first = missing[language].first.map({ records[$0] }) else { continue }
        let others = missing[language].dropFirst().map { records[$0] }
        let listed = others.map(describe).joined(separator: ", ")
        let more = missingCount[language] - missing[language].count
        add(
          "inconsistent-languages", .warning, at: Self.localizedOffset(first, slot),
          path: "/\(first.index)/\(field)",
          related: others.map {
            RelatedIssue(
              message: "also missing \"\(name)\"", path: "/\($0.index)/\(field)",
              offset: Self.localizedOffset($0, slot))
          },
          "\"\(name)\" is in \(field) of \(counts[language]) "
            + (counts[language] == 1 ? "feature" : "features") + " but missing in "
            + "\(missingCount[language]): feature \(describe(first))"
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
      var path = "/\(record.index)"
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
          if missingParts.isEmpty && hasLocalized {
            // The place and the pointer name the same thing: the list that lacks them.
            offset = Self.localizedOffset(record, slot)
            path += "/\(Self.fieldNames[slot])"
          }
          missingParts.append(
            "\(Self.fieldNames[slot]) lacks \(missing.joined(separator: ", "))"
              + (hasLocalized ? "" : " (it has only a plain \(plainNames[slot]))"))
        }
      }
      guard !missingParts.isEmpty else { continue }
      add(
        "missing-language", .error, at: offset, path: path,
        "feature \(describe(record)) is not translated into every required language "
          + "(--languages \(languages.joined(separator: ","))): "
          + missingParts.joined(separator: "; ")
          + "; add {\"language\": …, \"value\": …} items")
    }
  }

  /// `--statuses`: every plain status is one of the allowed values.
  mutating func checkStatuses(_ statuses: [String]) {
    let allowed = Set(statuses)
    for record in outcome.records {
      guard let token = record.status else { continue }
      let status = text(token)
      guard !allowed.contains(status) else { continue }
      // The same but for case and spaces, else a near miss (a typo, `_` for `-`).
      let close =
        statuses.first { $0.lowercased() == status.lowercased().trimmingSpaces() }
        ?? RoadmapParser.typoTarget(for: status.trimmingSpaces(), among: statuses)
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
    let previous = ParseOutcome.parse(buffer, collectWarnings: false, keepValues: false)
    if previous.fatal || !previous.topLevelIsArray {
      // The app could not load that version either, so no feature of it was shown to vote
      // on: a file that repairs it loses no votes, and must be able to pass.
      let reason = previous.issues.first { $0.severity == .error }?.message ?? "it is not a roadmap"
      add(
        "previous-unreadable", options.allowRemoved ? .info : .warning, at: 0, path: "",
        "the previous version cannot be read (\(reason)); the app could not load it either, so "
          + "it showed no feature to vote on; removed ids were not checked")
      return
    }
    if let rejection = previous.issues.first(where: { $0.rejectedByRoadmap }) {
      // Readable, but the app rejects it all the same (a wrong type, a missing comma): it
      // showed an empty roadmap, so the same holds.
      let location = LineIndex.locations(of: [rejection.offset], in: buffer)[0]
      add(
        "previous-unreadable", options.allowRemoved ? .info : .warning, at: 0, path: "",
        related: [
          RelatedIssue(
            message: "where the app rejects the previous version", path: rejection.path,
            offset: nil, location: location, document: .previous)
        ],
        "the app could not load the previous version (\(rejection.message)), so it showed no "
          + "feature to vote on; removed ids were not checked")
      return
    }
    guard let previousBase = buffer.baseAddress else { return }
    func previousText(_ token: StringToken) -> String {
      RoadmapParser.decodeString(token, in: previousBase)
    }
    let previousRecords = previous.records.filter { $0.id != nil }
    let previousIDs = Set(previousRecords.map { previousText($0.id!) })
    var currentIDs = Set<String>()
    // Current features whose id is new, by title.
    var newByTitle: [String: FeatureRecord] = [:]
    for record in outcome.records {
      guard let token = record.id else { continue }
      let id = text(token)
      currentIDs.insert(id)
      guard !previousIDs.contains(id), let title = record.title.map(text) else { continue }
      if newByTitle[title] == nil { newByTitle[title] = record }
    }
    let gone = previousRecords.filter { !currentIDs.contains(previousText($0.id!)) }
    let locations = LineIndex.locations(of: gone.map(\.idOffset), in: buffer)
    var reported = Set<String>()
    for (record, location) in zip(gone, locations) {
      let id = previousText(record.id!)
      guard reported.insert(id).inserted else { continue }
      let related = RelatedIssue(
        message: "feature \"\(id)\" in the previous version", path: Self.idPath(record.index),
        offset: nil, location: location, document: .previous)
      var renamedTo: String?
      if let title = record.title.map(previousText), let renamed = newByTitle[title],
        let newToken = renamed.id
      {
        let newID = text(newToken)
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
            : ": restore it, or pass --allow-removed if removing it is meant"))
    }
  }
}
