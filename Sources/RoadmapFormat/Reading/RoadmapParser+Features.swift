import Foundation

/// The typed part of the reader: the top-level array, feature objects, localized lists.
extension RoadmapParser {
  mutating func parseFeatureArray() {
    let open = pos
    guard enter() else { return }
    defer { depth -= 1 }
    pos += 1
    skipWhitespace()
    if stopped { return }
    if pos < count && base[pos] == UInt8(ascii: "]") {
      pos += 1
      return
    }
    parseFeatureElements(open: open)
  }

  /// The elements of the top-level array from `pos` (an element start) to its `]`. Stops early,
  /// setting `reachedStop`, at an element that starts exactly at `stopAt`.
  mutating func parseFeatureElements(open: Int) {
    var index = 0
    while !stopped {
      guard pos < count else {
        unexpectedEnd(open: open, inObject: false)
        return
      }
      if pos == stopAt {
        reachedStop = true
        return
      }
      if let pages, pos - releasedUpTo >= releaseStride {
        // Everything before this element has been read; rules and positions need only a
        // few bytes of it again, which the system reads back from the file.
        pages.releasePages(releasedUpTo..<pos)
        releasedUpTo = pos
      }
      featureCount += 1
      checkpoints.append(LineIndex.Checkpoint(offset: pos, line: line))
      path.append(.index(index))
      if base[pos] == UInt8(ascii: "{") {
        parseFeature(index: index)
      } else {
        let start = pos
        let kind = ValueKind(firstByte: base[pos])
        _ = parseValue(keep: false)
        if pos == start && stopped {
          // No value starts here (`[,{…}]`, a stray character): no element to count, so
          // the summary and the note on where the reading stopped count only real ones.
          featureCount -= 1
        }
        if kind != .other && !stopped {
          report(
            "feature-not-object", .error, at: start, rejected: true,
            "each element of the roadmap must be a feature object such as "
              + "{\"id\": \"12\", \"title\": …}, found \(kind.withArticle)")
        }
      }
      path.removeLast()
      index += 1
      switch afterElement(closer: UInt8(ascii: "]"), open: open, inObject: false) {
      case .next: continue
      case .end, .stop: return
      }
    }
  }

  /// The defined key a token names, matching bytes exactly (case-sensitively).
  @inline(__always)
  func featureKey(_ token: StringToken) -> FeatureKey? {
    if token.escaped { return FeatureKey(name: decodeString(token)) }
    switch token.length {
    case 2: return tokenEquals(token, "id") ? .id : nil
    case 5:
      if tokenEquals(token, "title") { return .title }
      return tokenEquals(token, "votes") ? .votes : nil
    case 6: return tokenEquals(token, "status") ? .status : nil
    case 10: return tokenEquals(token, "isFinished") ? .isFinished : nil
    case 11: return tokenEquals(token, "description") ? .description : nil
    case 14: return tokenEquals(token, "localizedTitle") ? .localizedTitle : nil
    case 15: return tokenEquals(token, "localizedStatus") ? .localizedStatus : nil
    case 20: return tokenEquals(token, "localizedDescription") ? .localizedDescription : nil
    default: return nil
    }
  }

  mutating func parseFeature(index: Int) {
    let open = pos
    guard enter() else { return }
    defer { depth -= 1 }
    pos += 1
    featureBroken = false
    // Only filled in when the features are kept (`keepValues`); the rules read `record`.
    var feature = RoadmapFeature(id: "")
    var hasID = false
    var seen: UInt16 = 0
    var keyOffsets = SIMD16<Int>(repeating: 0)
    var extraKeys = ObjectKeys()
    var record = FeatureRecord(index: index, offset: open)

    skipWhitespace()
    if stopped { return }
    if pos < count && base[pos] == UInt8(ascii: "}") {
      pos += 1
    } else {
      memberLoop: while !stopped {
        guard let key = readKey(), expectColon() else { return }
        let valueStart = pos
        path.append(.key(start: key.start, end: key.end, escaped: key.escaped))
        if let known = featureKey(key) {
          let bit = UInt16(1) << known.rawValue
          if seen & bit != 0 {
            reportDuplicateKey(key, firstOffset: keyOffsets[known.rawValue])
            _ = parseIgnoredValue(keep: false)
          } else {
            seen |= bit
            keyOffsets[known.rawValue] = key.start - 1
            switch known {
            case .id:
              record.idOffset = valueStart
              if let (value, token) = parseStringField(known) {
                if keepValues { feature.id = value }
                record.id = token
                recordIDFacts(token, in: &record)
                hasID = true
              }
            case .title:
              if let (value, token) = parseStringField(known) {
                if keepValues { feature.title = value }
                record.title = token
                record.plainPresent |= 1
              }
            case .status:
              record.statusOffset = valueStart
              if let (value, token) = parseStringField(known) {
                if keepValues { feature.status = value }
                record.status = token
                record.plainPresent |= 2
              }
            case .description:
              if let (value, _) = parseStringField(known) {
                if keepValues { feature.description = value }
                record.plainPresent |= 4
              }
            case .isFinished:
              feature.isFinished = parseBoolField()
            case .votes:
              feature.votes = parseVotesField()
            case .localizedTitle:
              let items = parseLocalizedField(known, slot: 0, record: &record)
              if keepValues { feature.localizedTitle = items }
            case .localizedStatus:
              let items = parseLocalizedField(known, slot: 1, record: &record)
              if keepValues { feature.localizedStatus = items }
            case .localizedDescription:
              let items = parseLocalizedField(known, slot: 2, record: &record)
              if keepValues { feature.localizedDescription = items }
            }
          }
        } else if let first = firstKey(equalTo: key, in: &extraKeys) {
          reportDuplicateKey(key, firstOffset: first.start - 1)
          _ = parseIgnoredValue(keep: false)
        } else {
          let name = decodeString(key)
          if collectWarnings {
            checkUnknownKey(name, at: key.start - 1, known: FeatureKey.allNames)
          }
          if keepValues {
            let errorsBefore = (sink.syntaxErrors - sink.trailingCommas, sink.rejectingSyntaxErrors)
            if let value = parseIgnoredValue(keep: true) {
              feature.extra.appendRead(
                name, value,
                source: memberSource(
                  key: key, value: value, from: valueStart, errorsBefore: errorsBefore))
            }
          } else {
            _ = parseIgnoredValue(keep: false)
          }
        }
        path.removeLast()
        switch afterElement(closer: UInt8(ascii: "}"), open: open, inObject: true) {
        case .next: continue
        case .end: break memberLoop
        case .stop: return
        }
      }
    }
    if stopped { return }

    if !hasID {
      if seen & 1 == 0 {
        report(
          "missing-id", .error, at: open, rejected: true,
          "this feature has no \"id\", the only required key; add one such as "
            + "\"id\": \"12\" (unique in the file)")
      }
      featureBroken = true
    } else {
      if record.id?.length == 0 {
        report(
          "empty-id", .error, at: record.idOffset, rejected: false, pathSuffix: "id",
          "the id is empty, so the feature's votes are counted under the bare key prefix; "
            + "give it a unique id such as \"id\": \"12\"")
      }
    }
    if collectWarnings {
      checkFeatureWarnings(isFinished: feature.isFinished, record: record)
    }
    record.loaded = !featureBroken
    countLanguages(record)
    records.append(record)
    if !featureBroken && keepValues {
      features.append(feature)
    }
  }

  /// Adds a record's localized fields to the per-field language counts of the coverage rule,
  /// while the record is at hand (the rule then reads records only to name a few).
  mutating func countLanguages(_ record: FeatureRecord) {
    guard record.localizedPresent != 0 else { return }
    for slot in 0..<3 where record.localizedPresent & (UInt8(1) << slot) != 0 {
      localizingCounts[slot] += 1
      var mask = CrossFeatureRules.mask(record, slot)
      while mask != 0 {
        languageCounts[slot * 64 + mask.trailingZeroBitCount] += 1
        mask &= mask - 1
      }
    }
  }

  /// What the id rules need of an id, taken while its bytes are at hand: a hash of its text,
  /// whether every byte may be in a counter key, and its length in UTF-8 bytes.
  func recordIDFacts(_ token: StringToken, in record: inout FeatureRecord) {
    func facts(_ bytes: UnsafeBufferPointer<UInt8>) {
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325
      var valid = true
      for byte in bytes {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        valid = valid && CrossFeatureRules.isCounterKeyByte(byte)
      }
      record.idHash = hash
      record.idIsCounterKeyText = valid
      record.idLength = bytes.count
    }
    if token.escaped {
      var decoded = decodeString(token)
      decoded.withUTF8(facts)
    } else {
      facts(UnsafeBufferPointer(start: base + token.start, count: token.length))
    }
  }

  // MARK: Fields

  /// A string field: its value and token, or nil for null and wrong types (reported).
  mutating func parseStringField(_ key: FeatureKey) -> (value: String, token: StringToken)? {
    let byte = base[pos]
    if byte == UInt8(ascii: "\"") {
      let start = pos
      let token = scanString()
      if token.corrupt { featureBroken = true }
      if collectWarnings && key != .description {
        checkSurroundingWhitespace(token, at: start, what: key.name)
      }
      return (keepValues ? decodeString(token) : "", token)
    }
    if byte == UInt8(ascii: "n") && matchLiteral("null") {
      if key == .id {
        featureBroken = true
        report(
          "id-not-string", .error, at: pos - 4, rejected: true,
          "the id is null, but every feature needs a string id; write one such as \"id\": \"1\"")
      }
      return nil
    }
    wrongType(key)
    return nil
  }

  mutating func parseBoolField() -> Bool? {
    if matchLiteral("true") { return true }
    if matchLiteral("false") { return false }
    if matchLiteral("null") { return nil }
    wrongType(.isFinished)
    return nil
  }

  mutating func parseVotesField() -> Int? {
    let byte = base[pos]
    if byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) {
      let start = pos
      let token = scanNumber()
      guard token.valid else {
        featureBroken = true
        return nil
      }
      switch integerValue(token) {
      case .value(let votes):
        if votes < 0 && collectWarnings {
          report(
            "negative-votes", .warning, at: start, rejected: false,
            "votes is \(votes); the app shows counts only above zero, and counters never go "
              + "below zero: use 0")
        }
        return votes
      case .fraction:
        featureBroken = true
        let text = snippet(start, pos) ?? "a fraction"
        let hint = integerHint(token)
        report(
          "votes-not-integer", .error, at: start, rejected: true,
          "votes must be a whole number, found \(text); the app rejects the file: write "
            + "\"votes\": \(hint)")
        return nil
      case .outOfRange:
        featureBroken = true
        let text = snippet(start, pos) ?? ""
        report(
          "number-out-of-range", .error, at: start, rejected: true,
          "votes \(text) does not fit in a 64-bit integer; the app rejects "
            + "the file: write a real count")
        return nil
      }
    }
    if matchLiteral("null") { return nil }
    wrongType(.votes)
    return nil
  }

  func integerHint(_ token: NumberToken) -> String {
    let text = String(
      decoding: UnsafeBufferPointer(start: base + token.start, count: token.end - token.start),
      as: UTF8.self)
    guard let double = Double(text), double.isFinite, abs(double) < 9e18 else { return "0" }
    return String(Int(double.rounded()))
  }

  /// Reports a value of the wrong type for `key` (consuming it) with the fix spelled out.
  mutating func wrongType(_ key: FeatureKey) {
    featureBroken = true
    let start = pos
    let kind = ValueKind(firstByte: base[start])
    let value = parseValue(keep: kind == .object || kind == .string)
    if kind == .other || stopped { return }
    let text = snippet(start, pos)
    var fix = ""
    switch (key, kind) {
    case (.id, .number), (.title, .number), (.status, .number), (.description, .number),
      (.title, .boolean), (.status, .boolean), (.description, .boolean):
      if let text { fix = ": write \"\(key.name)\": \"\(text)\"" }
    case (.isFinished, .string):
      if case .string(let string)? = value, ["true", "false"].contains(string.lowercased()) {
        fix = ": write \"isFinished\": \(string.lowercased()) without quotes"
      }
    case (.isFinished, .number):
      if text == "1" { fix = ": write \"isFinished\": true" }
      if text == "0" { fix = ": write \"isFinished\": false" }
    case (.votes, .string):
      if case .string(let string)? = value,
        let number = Int(string.trimmingCharacters(in: .whitespaces))
      {
        fix = ": write \"votes\": \(number) without quotes"
      }
    case (.localizedTitle, .object), (.localizedStatus, .object),
      (.localizedDescription, .object):
      var items: [String] = []
      if case .object(let object)? = value, object.members.count == 2,
        case .string(let language)? = object["language"], case .string(let text)? = object["value"]
      {
        // One item written without its array: wrap it, don't read it as a language map.
        let item =
          "{\"language\": \(Self.fixLiteral(language)), \"value\": \(Self.fixLiteral(text))}"
        report(
          "localized-not-array", .error, at: start, rejected: true,
          "\"\(key.name)\" is one {\"language\", \"value\"} item, but the app reads an array of "
            + "them and rejects the whole file: write \"\(key.name)\": [\(item)]"
            + Self.elisionNote(item))
        return
      }
      if case .object(let object)? = value {
        for member in object.members.prefix(3) {
          if case .string(let text) = member.value {
            items.append(
              "{\"language\": \(Self.fixLiteral(member.key)), \"value\": \(Self.fixLiteral(text))}")
          }
        }
      }
      let members = value.map { if case .object(let o) = $0 { o.members.count } else { 0 } } ?? 0
      // An empty object holds no text: its fix is an empty list (a placeholder item copied as
      // written would show "…" to English readers instead of the plain field).
      report(
        "localized-not-array", .error, at: start, rejected: true,
        "\"\(key.name)\" is an object, but the app reads an array of {\"language\", \"value\"} "
          + "items and rejects the whole file: write \"\(key.name)\": ["
          + (items.isEmpty && members > 0
            ? "{\"language\": \"en\", \"value\": \"…\"}" : items.joined(separator: ", "))
          + (items.count < members ? ", …" : "") + "]"
          + Self.elisionNote(items.joined()))
      return
    default:
      break
    }
    let found = text.map { "\(kind.withArticle) (\($0))" } ?? kind.withArticle
    if key == .id {
      report(
        "id-not-string", .error, at: start, rejected: true,
        "the id must be a string, found \(found); the app rejects the whole file"
          + (fix.isEmpty ? ": write it in quotes, such as \"id\": \"1\"" : fix))
      return
    }
    report(
      "wrong-type", .error, at: start, rejected: true,
      "\"\(key.name)\" must be \(key.expectedType) or null, found \(found); the app rejects the "
        + "whole file" + fix)
  }

  // MARK: Localized lists

  mutating func parseLocalizedField(_ key: FeatureKey, slot: Int, record: inout FeatureRecord)
    -> [LocalizedValue]?
  {
    let byte = base[pos]
    if byte == UInt8(ascii: "[") {
      let start = pos
      var mask: UInt64 = 0
      let items = parseLocalizedList(key, mask: &mask)
      record.localizedPresent |= UInt8(1) << slot
      switch slot {
      case 0:
        record.languageMasks.0 = mask
        record.localizedOffsets.0 = start
      case 1:
        record.languageMasks.1 = mask
        record.localizedOffsets.1 = start
      default:
        record.languageMasks.2 = mask
        record.localizedOffsets.2 = start
      }
      return items
    }
    if byte == UInt8(ascii: "n") && matchLiteral("null") { return nil }
    wrongType(key)
    return nil
  }

  mutating func parseLocalizedList(_ key: FeatureKey, mask: inout UInt64) -> [LocalizedValue]? {
    let open = pos
    guard enter() else { return nil }
    defer { depth -= 1 }
    pos += 1
    var items: [LocalizedValue] = []
    skipWhitespace()
    if stopped { return nil }
    if pos < count && base[pos] == UInt8(ascii: "]") {
      pos += 1
      return items
    }
    var index = 0
    // Language ids and offsets of the first eight items, for duplicate-language's related place.
    var firstLanguages = SIMD8<Int>(repeating: -1)
    var firstOffsets = SIMD8<Int>(repeating: 0)
    while !stopped {
      guard pos < count else {
        unexpectedEnd(open: open, inObject: false)
        return nil
      }
      path.append(.index(index))
      let start = pos
      if base[pos] == UInt8(ascii: "{") {
        if let (item, languageOffset, languageToken) = parseLocalizedItem(key) {
          let id = languageID(languageToken)
          let bit: UInt64 = id < 64 ? UInt64(1) << id : 0
          if collectWarnings && mask & bit != 0 {
            var related: [RelatedIssue] = []
            let language = decodeString(languageToken)
            for slot in 0..<8 where firstLanguages[slot] == id {
              related.append(
                RelatedIssue(
                  message: "first \"\(language)\" here",
                  path: pointerReplacingLast(with: slot, suffix: "language"),
                  offset: firstOffsets[slot]))
              break
            }
            report(
              "duplicate-language", .warning, at: languageOffset, rejected: false,
              pathSuffix: "language", related: related,
              "\"\(language)\" appears twice in \"\(key.name)\"; the app uses the first: "
                + "remove the other")
          }
          if index < 8 {
            firstLanguages[index] = id
            firstOffsets[index] = languageOffset
          }
          mask |= bit
          if keepValues { items.append(item) }
        }
      } else {
        let kind = ValueKind(firstByte: base[pos])
        _ = parseValue(keep: false)
        featureBroken = true
        if kind != .other && !stopped {
          report(
            "localized-item-not-object", .error, at: start, rejected: true,
            "each item of \"\(key.name)\" must be an object such as "
              + "{\"language\": \"en\", \"value\": \"…\"}, found \(kind.withArticle); the app "
              + "rejects the whole file")
        }
      }
      path.removeLast()
      index += 1
      switch afterElement(closer: UInt8(ascii: "]"), open: open, inObject: false) {
      case .next: continue
      case .end: return items
      case .stop: return nil
      }
    }
    return nil
  }

  func pointerReplacingLast(with index: Int, suffix: String) -> String {
    var copy = path
    if !copy.isEmpty { copy.removeLast() }
    copy.append(.index(index))
    var result = ""
    for component in copy {
      result += "/" + pointerToken(component)
    }
    return result + "/" + suffix.replacingTilde()
  }

  /// The interned id of a language (bit `id` of the record masks when below 64).
  mutating func languageID(_ token: StringToken) -> Int {
    // Short tags (all real ones) are compared as two words straight from the bytes.
    var packed: (UInt64, UInt64, Int) = (0, 0, token.length)
    let packable = !token.escaped && token.length <= 16
    if packable {
      for index in 0..<token.length {
        let byte = UInt64(base[token.start + index])
        if index < 8 {
          packed.0 |= byte << (8 * index)
        } else {
          packed.1 |= byte << (8 * (index - 8))
        }
      }
      for (id, key) in packedLanguages.enumerated()
      where key.0 == packed.0 && key.1 == packed.1 && key.2 == packed.2 {
        return id
      }
    }
    let language = decodeString(token)
    if let id = languageIDs[language] { return id }
    let id = languageNames.count
    languageIDs[language] = id
    languageNames.append(language)
    // The first few only: a file naming thousands of languages is searched by name, not
    // by a scan per item (20,000 of them took validate 31 s).
    if packable && packedLanguages.count == id && id < Self.packedLanguageLimit {
      packedLanguages.append(packed)
    }
    return id
  }

  /// `"language"` or `"value"` at `pos`, matched as whole words (the common case, no scan).
  @inline(__always)
  mutating func matchItemKey() -> (token: StringToken, isLanguage: Bool)? {
    guard pos + 10 <= count, base[pos] == UInt8(ascii: "\"") else { return nil }
    let word = UInt64(
      littleEndian: UnsafeRawPointer(base + pos + 1).loadUnaligned(as: UInt64.self))
    // "language" and "value\"" as little-endian words.
    if word == 0x6567_6175_676E_616C && base[pos + 9] == UInt8(ascii: "\"") {
      defer { pos += 10 }
      return (StringToken(start: pos + 1, end: pos + 9), true)
    }
    if word & 0xFFFF_FFFF_FFFF == 0x2265_756C_6176 {
      defer { pos += 7 }
      return (StringToken(start: pos + 1, end: pos + 6), false)
    }
    return nil
  }

  /// The source text of an unknown member whose value was just read, from `start` to `pos`,
  /// given the syntax errors counted before it (all but trailing commas, and those the app
  /// rejects). A trailing comma (`[1, 2,]`) leaves the value valid: the writer drops it.
  ///
  /// A value with problems the app skips (`01`, `"\ud800"`, bytes that are not UTF-8) is kept
  /// verbatim: the app loads it so. A value with a problem the app rejects (`[1 2]`, a comment)
  /// has none: no app reads it, and it is written as the lenient reading recovered it.
  func memberSource(
    key: StringToken, value: JSONValue, from start: Int, errorsBefore: (Int, Int)
  ) -> MemberSource? {
    guard sink.rejectingSyntaxErrors == errorsBefore.1 else { return nil }
    // A trailing comma is not a problem of the value: the writer leaves it out.
    let valid = sink.syntaxErrors - sink.trailingCommas == errorsBefore.0
    // A key written with escapes keeps its text. A broken key (bytes that are not UTF-8, a
    // lone surrogate) is written as read: the app decodes keys and rejects the file, so that
    // text is not kept.
    let quoted =
      key.start > 0 && base[key.start - 1] == 0x22 && key.end < count && base[key.end] == 0x22
    let keyText =
      quoted && key.escaped && !key.corrupt && !key.invalidUTF8
      ? Array(UnsafeBufferPointer(start: base + key.start - 1, count: key.length + 2)) : nil
    return MemberSource(
      value: value, key: keyText,
      text: Array(UnsafeBufferPointer(start: base + start, count: pos - start)), verbatim: !valid)
  }

  /// One `{"language", "value"}` item; nil when broken (reported).
  mutating func parseLocalizedItem(_ key: FeatureKey)
    -> (item: LocalizedValue, languageOffset: Int, language: StringToken)?
  {
    let open = pos
    guard enter() else { return nil }
    defer { depth -= 1 }
    pos += 1
    var languageToken: StringToken?
    var value: String?
    var languageOffset = open
    var seen: UInt8 = 0
    var languageOffsetKey = open
    var valueOffsetKey = open
    var otherKeys = ObjectKeys()
    var extra = JSONObject()
    var broken = false
    skipWhitespace()
    if stopped { return nil }
    if pos < count && base[pos] == UInt8(ascii: "}") {
      pos += 1
    } else {
      memberLoop: while !stopped {
        let name: StringToken
        var isLanguage = false
        var isValue = false
        if let known = matchItemKey() {
          name = known.token
          isLanguage = known.isLanguage
          isValue = !known.isLanguage
        } else {
          guard let scanned = readKey() else { return nil }
          name = scanned
          if name.escaped {
            // `{"lang\u0075age": …}` is `language` to JSONDecoder, so it is here too.
            let decoded = decodeString(name)
            isLanguage = decoded == "language"
            isValue = decoded == "value"
          } else {
            isLanguage = tokenEquals(name, "language")
            isValue = tokenEquals(name, "value")
          }
        }
        guard expectColon() else { return nil }
        path.append(.key(start: name.start, end: name.end, escaped: name.escaped))
        if isLanguage || isValue {
          let bit: UInt8 = isLanguage ? 1 : 2
          if seen & bit != 0 {
            reportDuplicateKey(name, firstOffset: isLanguage ? languageOffsetKey : valueOffsetKey)
            _ = parseIgnoredValue(keep: false)
          } else {
            seen |= bit
            if isLanguage {
              languageOffsetKey = name.start - 1
            } else {
              valueOffsetKey = name.start - 1
            }
            let start = pos
            if base[pos] == UInt8(ascii: "\"") {
              let token = scanString()
              if token.corrupt { broken = true }
              if isLanguage {
                languageToken = token
                languageOffset = start
                if collectWarnings { checkLanguageTag(token, at: start) }
              } else {
                value = keepValues ? decodeString(token) : ""
                if collectWarnings {
                  if token.length == 0 {
                    report(
                      "empty-value", .warning, at: start, rejected: false,
                      "this translation is empty, and the app shows it as is (an empty item "
                        + "still wins over the plain field): fill it in or remove the item")
                  } else if key != .localizedDescription {
                    checkSurroundingWhitespace(token, at: start, what: "value")
                  }
                }
              }
            } else {
              let kind = ValueKind(firstByte: base[pos])
              _ = parseValue(keep: false)
              broken = true
              if kind != .other && !stopped {
                let field = isLanguage ? "language" : "value"
                let text = snippet(start, pos)
                report(
                  "wrong-type", .error, at: start, rejected: true,
                  "\"\(field)\" must be a string, found \(kind.withArticle)"
                    + (text.map { " (\($0))" } ?? "")
                    + "; the app rejects the whole file"
                    + (kind == .number ? ": write \"\(field)\": \"\(text ?? "")\"" : ""))
              }
            }
          }
        } else if let first = firstKey(equalTo: name, in: &otherKeys) {
          reportDuplicateKey(name, firstOffset: first.start - 1)
          _ = parseIgnoredValue(keep: false)
        } else {
          if collectWarnings {
            checkUnknownKey(decodeString(name), at: name.start - 1, known: ["language", "value"])
          }
          // The app ignores it; a writer keeps it, as it keeps a feature's unknown keys.
          if keepValues {
            let valueStart = pos
            let errorsBefore = (sink.syntaxErrors - sink.trailingCommas, sink.rejectingSyntaxErrors)
            if let kept = parseIgnoredValue(keep: true) {
              extra.appendRead(
                decodeString(name), kept,
                source: memberSource(
                  key: name, value: kept, from: valueStart, errorsBefore: errorsBefore))
            }
          } else {
            _ = parseIgnoredValue(keep: false)
          }
        }
        path.removeLast()
        switch afterElement(closer: UInt8(ascii: "}"), open: open, inObject: true) {
        case .next: continue
        case .end: break memberLoop
        case .stop: return nil
        }
      }
    }
    if stopped { return nil }
    if seen & 1 == 0 {
      broken = true
      let found = otherKeys.tokens.map { "\"\(decodeString($0))\"" }.joined(separator: ", ")
      report(
        "localized-item-missing-language", .error, at: open, rejected: true,
        "this item of \"\(key.name)\" has no \"language\"; the app rejects the whole file: add "
          + "one such as \"language\": \"en\"" + (found.isEmpty ? "" : " (found \(found))"))
    }
    if seen & 2 == 0 {
      broken = true
      let found = otherKeys.tokens.map { "\"\(decodeString($0))\"" }.joined(separator: ", ")
      report(
        "localized-item-missing-value", .error, at: open, rejected: true,
        "this item of \"\(key.name)\" has no \"value\"; the app rejects the whole file: add "
          + "the text as \"value\": \"…\"" + (found.isEmpty ? "" : " (found \(found))"))
    }
    if broken {
      featureBroken = true
      return nil
    }
    guard let languageToken, let value else {
      featureBroken = true
      return nil
    }
    let language = keepValues ? decodeString(languageToken) : ""
    return (
      LocalizedValue(language: language, value: value, extra: extra), languageOffset, languageToken
    )
  }
}
