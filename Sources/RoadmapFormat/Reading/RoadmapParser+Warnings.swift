import Foundation

/// The per-feature warning rules, checked while parsing (cheap checks on bytes first).
extension RoadmapParser {
  /// Leading or trailing spaces (real files have `"Planned "`).
  @inline(__always)
  func checkSurroundingWhitespace(_ token: StringToken, at offset: Int, what: String) {
    guard token.length > 0 else { return }
    let first = base[token.start]
    let last = base[token.end - 1]
    var leading =
      first == 0x20 || first == 0x09 || (first == 0xC2 && base[token.start + 1] == 0xA0)
      || (first == 0x5C && token.escaped && token.length > 1
        && [UInt8(ascii: "n"), UInt8(ascii: "t"), UInt8(ascii: "r")].contains(
          base[token.start + 1]))
    var trailing =
      last == 0x20 || last == 0x09
      || (last == 0xA0 && token.length > 1 && base[token.end - 2] == 0xC2)
      || (token.escaped && token.length > 1 && base[token.end - 2] == 0x5C
        && [UInt8(ascii: "n"), UInt8(ascii: "t"), UInt8(ascii: "r")].contains(last))
    var decodedValue: String?
    if !(leading || trailing), token.escaped,
      first == 0x5C || (token.length >= 6 && base[token.end - 6] == 0x5C)
    {
      // Written as an escape (`"Planned\u0020"`, `"\u00a0Lead"`): the decoded text decides.
      let decoded = decodeString(token)
      let isSpace = { (scalar: Unicode.Scalar?) in
        scalar.map { [" ", "\t", "\n", "\r", "\u{A0}"].contains($0) } ?? false
      }
      leading = isSpace(decoded.unicodeScalars.first)
      trailing = isSpace(decoded.unicodeScalars.last)
      decodedValue = decoded
    }
    guard leading || trailing else { return }
    let value = decodedValue ?? decodeString(token)
    // Only the ends: a no-break space inside the text ("10\u{A0}km") is the author's.
    let trimmed = value.trimmingSpaces()
    let around = Self.whitespaceName(around: value, trimmed: trimmed)
    // The fix is the whole text, which a user copies; a long one cut with "…" would be
    // pasted cut, so then the fix says what to remove instead.
    let fix: String
    if trimmed.unicodeScalars.count <= Self.fixLimit {
      fix = "write \(JSONString.quoted(trimmed))"
    } else {
      let leading = value.unicodeScalars.first != trimmed.unicodeScalars.first || trimmed.isEmpty
      let trailing = value.unicodeScalars.last != trimmed.unicodeScalars.last
      fix =
        "remove the white space at its "
        + (leading && trailing ? "start and end" : leading ? "start" : "end")
    }
    report(
      "surrounding-whitespace", .warning, at: offset, rejected: false,
      "\"\(what)\" \(Self.quoted(value)) has \(around); "
        + "the app shows it as is"
        + (what == "id"
          ? " and counts votes under a key with the space"
          : what == "status" ? " and compares statuses exactly" : "")
        + ": \(fix)")
  }

  /// The longest text a suggested fix quotes whole (in Unicode scalars).
  static let fixLimit = 60

  /// `text` as the JSON string literal of a suggested fix when it has at most `limit`
  /// characters, else a bare `…`. A fix is copied: a value cut short inside its quotes
  /// (`"Dark mode for every scre…"`) would be pasted as the new value, while a bare `…` is no
  /// JSON and cannot be taken for one.
  static func fixLiteral(_ text: String, limit: Int = 24) -> String {
    text.unicodeScalars.count <= limit ? JSONString.quoted(text) : "…"
  }

  /// What a bare `…` in a suggested fix stands for, when `fix` has one.
  static func elisionNote(_ fix: String) -> String {
    fix.contains(": …}") || fix.contains(": …, \"value\"")
      ? " (each … stands for the text as it is now)" : ""
  }

  /// What surrounds `trimmed` in `value`, for a message: "a trailing space" (spaces alone,
  /// the common case), else "trailing white space (a line break)" naming what is there.
  static func whitespaceName(around value: String, trimmed: String) -> String {
    let scalars = Array(value.unicodeScalars)
    let kept = trimmed.unicodeScalars.count
    let leadingCount =
      kept == 0
      ? scalars.count : scalars.firstIndex { !" \t\n\r\u{A0}".unicodeScalars.contains($0) } ?? 0
    let leading = scalars[..<leadingCount]
    let trailing = kept == 0 ? [] : scalars[(leadingCount + kept)...]
    let side =
      !leading.isEmpty && !trailing.isEmpty
      ? "leading and trailing" : leading.isEmpty ? "trailing" : "leading"
    let around = Array(leading) + Array(trailing)
    if around.allSatisfy({ $0 == " " }) {
      return (side == "leading and trailing" ? "" : "a ") + side + " space"
    }
    var kinds: [String] = []
    for scalar in around {
      let kind: String
      switch scalar {
      case " ": kind = "a space"
      case "\t": kind = "a tab"
      case "\n", "\r": kind = "a line break"
      default: kind = "a no-break space"
      }
      if !kinds.contains(kind) { kinds.append(kind) }
    }
    return side + " white space (" + kinds.joined(separator: ", ") + ")"
  }

  /// `text` as a JSON string literal a message can quote, cut after `limit` characters with
  /// `…`: escaped as JSON escapes it, so a suggested fix pastes back as valid JSON and a
  /// message stays on one line whatever the value holds.
  static func quoted(_ text: String, limit: Int = 60) -> String {
    let scalars = text.unicodeScalars
    var kept = String.UnicodeScalarView()
    kept.append(contentsOf: scalars.prefix(limit))
    let literal = JSONString.quoted(String(kept))
    return scalars.count > limit ? literal.dropLast() + "…\"" : literal
  }

  /// A language tag that is not well-formed BCP 47 (`pt_BR`, `EN`, `english`).
  func checkLanguageTag(_ token: StringToken, at offset: Int) {
    if !token.escaped && isCommonLanguageTag(token) { return }
    let text = decodeString(token)
    if let problem = Self.languageTagProblem(text) {
      report(
        "malformed-language-tag", .warning, at: offset, rejected: false,
        "language \(Self.quoted(text)) \(problem)")
    }
  }

  /// The fast path: a lowercase 2–3 letter language, then subtags of 1–8 letters or digits,
  /// a script right after the language in title case (`Hans`) and a two-letter region after
  /// them in uppercase (`BR`), as the app's localizations are named.
  @inline(__always)
  func isCommonLanguageTag(_ token: StringToken) -> Bool {
    var index = token.start
    while index < token.end && base[index] >= UInt8(ascii: "a") && base[index] <= UInt8(ascii: "z")
    {
      index += 1
    }
    let languageLength = index - token.start
    guard languageLength == 2 || languageLength == 3 else { return false }
    // 1: a script or a region may come next; 2: a region; 3: neither.
    var position = 1
    while index < token.end {
      guard base[index] == UInt8(ascii: "-") else { return false }
      index += 1
      let start = index
      var letters = 0
      var uppercase = 0
      while index < token.end {
        let byte = base[index] | 0x20
        if byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") {
          letters += 1
          if base[index] & 0x20 == 0 { uppercase += 1 }
        } else if !(base[index] >= UInt8(ascii: "0") && base[index] <= UInt8(ascii: "9")) {
          break
        }
        index += 1
      }
      let length = index - start
      guard length >= 1 && length <= 8 else { return false }
      if position <= 1 && length == 4 && letters == 4 {
        guard uppercase == 1 && base[start] & 0x20 == 0 else { return false }
        position = 2
      } else if position <= 2 && length == 2 && letters == 2 {
        guard uppercase == 2 else { return false }
        position = 3
      } else {
        position = 3
      }
    }
    return true
  }

  /// What is wrong with a language tag, or nil when it is well-formed.
  ///
  /// The spelling it suggests is the whole tag as localizations are named (`EN-us` and `en_us`
  /// are `en-US`), so following it never leads to a second warning.
  static func languageTagProblem(_ tag: String) -> String? {
    if tag.isEmpty { return "is empty: write a tag such as \"en\" or \"zh-Hans\"" }
    if tag.contains("_") || tag.contains(" ") {
      let dashed = tag.replacingOccurrences(of: "_", with: "-").trimmingSpaces()
      let fixed = conventionalSpelling(dashed) ?? dashed
      return "is not a BCP 47 tag, so it matches only a localization folder of that name (an "
        + "older project's \(tag).lproj): write \"\(fixed)\""
    }
    let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
    let language = subtags[0]
    guard (2...3).contains(language.count),
      language.allSatisfy({ $0.isASCII && $0.isLetter })
    else {
      return "is not a language tag; the app compares it with localizations such as \"en\", "
        + "\"de\", \"zh-Hans\", \"pt-BR\""
    }
    guard let expected = conventionalSpelling(tag) else {
      return "is not a well-formed BCP 47 tag: write it as in \"zh-Hans\" or \"pt-BR\""
    }
    if language.contains(where: { $0.isUppercase }) {
      return "starts with an uppercase language code, but the app compares exactly and "
        + "localizations are lowercase: write \"\(expected)\""
    }
    if expected != tag {
      return "has its script or region in another case than localizations are named, and the "
        + "app compares exactly: write \"\(expected)\""
    }
    return nil
  }

  /// A well-formed tag as Xcode names localizations: the language in lowercase, a script
  /// after it in title case (`zh-Hans`), a region in uppercase (`pt-BR`); nil when `tag` is not
  /// well-formed (a language of 2–3 letters, subtags of 1–8 letters or digits).
  static func conventionalSpelling(_ tag: String) -> String? {
    let subtags = tag.split(separator: "-", omittingEmptySubsequences: false)
    let language = subtags[0]
    guard (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLetter })
    else { return nil }
    var written = [language.lowercased()]
    var position = 1
    for subtag in subtags.dropFirst() {
      guard !subtag.isEmpty, subtag.count <= 8,
        subtag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
      else { return nil }
      let letters = subtag.allSatisfy { $0.isLetter }
      if position <= 1 && subtag.count == 4 && letters {
        written.append(subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased())
        position = 2
      } else if position <= 2 && subtag.count == 2 && letters {
        written.append(subtag.uppercased())
        position = 3
      } else {
        written.append(String(subtag))
        position = 3
      }
    }
    return written.joined(separator: "-")
  }

  /// An unknown key that looks like a typo of a known one (`isfinished`, `localizedTitles`).
  mutating func checkUnknownKey(_ name: String, at offset: Int, known: [String]) {
    guard let target = Self.typoTarget(for: name, among: known) else { return }
    report(
      "unknown-key-typo", .warning, at: offset, rejected: false,
      "unknown key \"\(name)\" looks like \"\(target)\"; the app ignores it (keys are "
        + "case-sensitive): rename it to \"\(target)\"")
  }

  /// Words that sit one letter from a known key but are extra keys of their own: "notes"
  /// renamed to "votes" as advised turns a text into a count, which the app rejects.
  static let wordsNotTypos: Set<String> = ["notes", "stats", "voted"]

  /// The known key `name` is probably a misspelling of, if any.
  static func typoTarget(for name: String, among known: [String]) -> String? {
    // More than 160 bytes is more than 40 scalars: no known key is that near. Said before the
    // key is lowercased and spread into scalars (a 50 MB key took 360 MB to be told so).
    guard !wordsNotTypos.contains(name), name.utf8.count <= 160 else { return nil }
    let lower = Array(name.lowercased().unicodeScalars)
    guard lower.count <= 40 else { return nil }
    var best: (name: String, distance: Int)?
    for candidate in known {
      let target = Array(candidate.lowercased().unicodeScalars)
      if lower == target { return candidate }
      let limit = target.count <= 5 ? 1 : 2
      guard abs(target.count - lower.count) <= limit, lower.count >= 2 else { continue }
      let distance = editDistance(lower, target)
      if distance <= limit && distance < (best?.distance ?? .max) {
        best = (candidate, distance)
      }
    }
    if best == nil {
      // British spelling and simple plural of the localized keys.
      let normalized = name.lowercased().replacingOccurrences(of: "localised", with: "localized")
      for candidate in known where candidate.lowercased() == normalized {
        return candidate
      }
    }
    return best?.name
  }

  /// Optimal string alignment distance (edits and adjacent swaps).
  static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
          current[j] = min(current[j], previous2[j - 2] + 1)
        }
      }
      previous2 = previous
      previous = current
    }
    return previous[b.count]
  }

  /// Status versus `isFinished`.
  mutating func checkFeatureWarnings(isFinished: Bool?, record: FeatureRecord) {
    guard let token = record.status, isFinished != false else { return }
    let key = Self.hash(base, token)
    let reading: StatusReading
    if let cached = statusCache[key] {
      reading = cached
    } else {
      reading = StatusReading(status: decodeString(token))
      if statusCache.count < 4096 { statusCache[key] = reading }
    }
    switch reading {
    case .finished where isFinished == nil:
      let status = decodeString(token)
      report(
        "finished-status-not-flagged", .warning, at: record.statusOffset, rejected: false,
        pathSuffix: "status",
        "status \(Self.quoted(status)) reads as finished, but \"isFinished\" is missing, so the "
          + "app still shows a vote button: add \"isFinished\": true")
    case .unfinished where isFinished == true:
      let status = decodeString(token)
      report(
        "planned-status-flagged-finished", .warning, at: record.statusOffset, rejected: false,
        pathSuffix: "status",
        "status \(Self.quoted(status)) reads as not done, but \"isFinished\" is true, so the app "
          + "hides the vote button: set \"isFinished\": false or update the status")
    default:
      break
    }
  }

  /// FNV-1a of a token's raw bytes (escaped tokens hash their raw text: fine for caches).
  @inline(__always)
  static func hash(_ base: UnsafePointer<UInt8>, _ token: StringToken) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    var index = token.start
    while index < token.end {
      hash = (hash ^ UInt64(base[index])) &* 0x100_0000_01b3
      index += 1
    }
    return hash ^ (token.escaped ? 1 : 0)
  }
}
