import Foundation

/// The content of a ``FileVoter`` file.
struct VoteFile: Encodable, Equatable, Sendable {
  var version = 1
  /// The count per key, each from 0 to ``VoteCount/maximum``, and never less than the number of
  /// the key's ``voters``.
  var counts: [String: Int] = [:]
  /// The voters holding a vote per key, sorted, each once.
  var voters: [String: [String]] = [:]
  /// The top-level keys this version does not know (written by a newer version, or by hand),
  /// with their values: a rewrite keeps them as they were read.
  var unknown: [String: VoteFileValue] = [:]
  /// The text of every member of an ``unknown`` key, in the file's order, as read: a rewrite
  /// writes it back byte for byte (a repeated key inside an object, `-0`, `1E2`, a number no
  /// `Double` holds and a lone surrogate included). Nil when the file's members could not be
  /// told apart in its text; then ``unknown`` is written back from its values.
  var unknownText: [RawMember]?

  /// A top-level member's text: its key as written (quotes included) and its value's.
  struct RawMember: Equatable, Sendable {
    var key: String
    var keyText: [UInt8]
    var valueText: [UInt8]
  }

  /// The file's content; an empty file set when it does not exist.
  ///
  /// Content that is not a vote file of version 1 is a ``VotingError/Kind/storage`` error
  /// naming `url` and the problem, checked in this order: JSON, an object, the version, each
  /// count (by key), the voters. The message names the key and the value
  /// (`counts.feature1 is 1.5, not a whole number of votes`) or the missing key.
  static func read(_ url: URL) throws(VotingError) -> VoteFile {
    guard let data = try StateFile.read(url) else { return VoteFile() }
    do throws(Damage) {
      return try decode(data)
    } catch {
      throw .storage(file: url.path, "\(error.detail); it was left unchanged")
    }
  }

  /// What is wrong with a file's content, in words that follow its path.
  struct Damage: Error {
    let detail: String
    init(_ detail: String) { self.detail = detail }
  }

  /// The vote file `data` holds, or what keeps it from being one.
  private static func decode(_ data: Data) throws(Damage) -> VoteFile {
    if data.isEmpty { throw Damage("is empty, not a vote file") }
    let root: VoteFileValue
    do {
      root = try decodeRoot(data)
    } catch {
      // VoteFileValue takes any JSON value, so only the syntax can fail here.
      throw Damage("is not JSON" + syntaxDetail(data))
    }
    guard case .object(let object) = root else {
      if root == .unreadableKey {
        throw Damage(
          "has a key that cannot be read (a lone surrogate such as \"\\ud800\", or bytes that "
            + "are not UTF-8)")
      }
      throw Damage("is \(root.description), not a vote file (a JSON object)")
    }
    guard let versionValue = object["version"] else { throw Damage(#"has no "version" key"#) }
    guard case .whole(let version) = versionValue.number else {
      throw Damage("version is \(versionValue.description), not a version number")
    }
    guard version == 1 else {
      throw Damage("has version \(versionValue.description), and this library reads version 1")
    }
    var content = VoteFile()
    content.counts = try counts(object["counts"])
    content.voters = try voters(object["voters"])
    // Every voter listed holds a vote, so a count below the number of its voters (a file
    // edited by hand, or written by another program) reads as that number: raising it loses
    // no vote, where the count as written would let a voter's unvote take an anonymous one.
    for (key, holders) in content.voters where holders.count > content.counts[key] ?? 0 {
      content.counts[key] = holders.count
    }
    for (key, value) in object where !knownKeys.contains(key) {
      content.unknown[key] = value
    }
    if !content.unknown.isEmpty, let members = RawMember.topLevel(of: [UInt8](data)) {
      let unknown = members.filter { !knownKeys.contains($0.key) }
      if Set(unknown.map(\.key)) == Set(content.unknown.keys) { content.unknownText = unknown }
    }
    return content
  }

  /// The JSON value `data` holds, as ``VoteFileValue`` decodes it; throws only on syntax.
  ///
  /// An object, the vote file's shape, is decoded member by member as ``TopLevelMember``s,
  /// which read the shapes of its `counts`, its `voters` and a list of numbers at once; any
  /// other value (or an object with a key that cannot be read) as a ``VoteFileValue``.
  private static func decodeRoot(_ data: Data) throws -> VoteFileValue {
    if let members = try? JSONDecoder().decode([String: TopLevelMember].self, from: data) {
      return .object(members.mapValues(\.value))
    }
    return try JSONDecoder().decode(VoteFileValue.self, from: data)
  }

  /// A member of a vote file's top-level object: the ``VoteFileValue`` it decodes to.
  ///
  /// Only a speed-up. ``VoteFileValue`` decodes each value by trying one type after another,
  /// and every failed try costs a thrown error: a count cost one, a list of voter ids five, so
  /// a vote in a file of 50,000 keys took seconds. An object of counts (`[String: Int]`), of
  /// lists of voter ids (`[String: [String]]`) and a list of numbers (`[Int]`) are therefore
  /// tried first as a whole, and each gives what ``VoteFileValue`` gives member by member (a
  /// value an `Int` reads is never `null` or a string; a string Swift cannot hold, a key it
  /// cannot read, or any other member makes the whole decoding fail, and then the member is a
  /// ``VoteFileValue`` as before). Deeper values are not tried so: a mixed object or list
  /// would pay for the failed tries.
  private struct TopLevelMember: Decodable {
    let value: VoteFileValue

    init(from decoder: Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let counts = try? container.decode([String: Int].self) {
        value = .object(counts.mapValues(VoteFileValue.init(int:)))
      } else if let voters = try? container.decode([String: [String]].self) {
        value = .object(voters.mapValues { .array($0.map(VoteFileValue.string)) })
      } else if let numbers = try? container.decode([Int].self) {
        value = .array(numbers.map(VoteFileValue.init(int:)))
      } else {
        value = try VoteFileValue(from: decoder)
      }
    }
  }

  /// The top-level keys of version 1.
  private static let knownKeys: Set<String> = ["version", "counts", "voters"]

  /// The `counts` object: a whole number of votes from 0 to ``VoteCount/maximum`` per key.
  private static func counts(_ value: VoteFileValue?) throws(Damage) -> [String: Int] {
    guard let value else { throw Damage(#"has no "counts" key"#) }
    guard case .object(let object) = value else {
      throw Damage("counts is \(value.description), not an object of counts by key")
    }
    var counts: [String: Int] = [:]
    for key in object.keys.sorted() {
      let count = object[key]!
      // Built only for a message, not for each of a file's many counts.
      var path: String { "counts.\(key) is \(count.description)" }
      switch count.number {
      case .whole(let number) where number < 0:
        throw Damage("\(path), and a count cannot be negative")
      case .whole(let number) where number > Double(VoteCount.maximum):
        throw Damage(
          "\(path), more than the largest count a vote file holds (\(VoteCount.maximum))")
      case .whole(let number):
        counts[key] = Int(number)
      case .notWhole:
        throw Damage("\(path), not a whole number of votes")
      }
    }
    return counts
  }

  /// The `voters` object: a list of voter ids per key.
  private static func voters(_ value: VoteFileValue?) throws(Damage) -> [String: [String]] {
    guard let value else { throw Damage(#"has no "voters" key"#) }
    guard case .object(let object) = value else {
      throw Damage("voters is \(value.description), not an object of voter ids by key")
    }
    var voters: [String: [String]] = [:]
    for key in object.keys.sorted() {
      let list = object[key]!
      guard case .array(let items) = list else {
        throw Damage("voters.\(key) is \(list.description), not a list of voter ids")
      }
      var ids: [String] = []
      for (index, item) in items.enumerated() {
        guard case .string(let id) = item else {
          throw Damage("voters.\(key)[\(index)] is \(item.description), not a voter id")
        }
        ids.append(id)
      }
      // A voter listed twice holds one vote.
      voters[key] = Array(Set(ids)).sorted()
    }
    return voters
  }

  /// Where the JSON syntax fails, in parentheses, as `JSONSerialization` describes it (which
  /// `JSONDecoder` does not say on every platform); empty when it says nothing.
  private static func syntaxDetail(_ data: Data) -> String {
    do {
      _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
      return ""
    } catch {
      let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
      return detail.isEmpty ? "" : " (\(detail))"
    }
  }

  /// The content as the file holds it (keys sorted, so diffs stay small), the unknown keys
  /// included, each with its text as read (``unknownText``). Only when that text could not be
  /// had are they written from their values, and then a value that cannot be written back as
  /// it was read (a number no `Double` holds, one of more digits than a `Decimal` keeps, a
  /// string with a lone surrogate) is a ``VotingError/Kind/storage`` error naming `url`, and
  /// nothing is written.
  func encoded(_ url: URL) throws(VotingError) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    if let unknownText, !unknownText.isEmpty {
      // The known keys as JSONEncoder writes them, the unknown ones as they were read.
      var members: [RawMember] = []
      do {
        for (key, value) in [
          ("version", try encoder.encode(version)), ("counts", try encoder.encode(counts)),
          ("voters", try encoder.encode(voters)),
        ] {
          members.append(
            RawMember(key: key, keyText: Array("\"\(key)\"".utf8), valueText: [UInt8](value)))
        }
      } catch {
        throw .storage(file: url.path, "cannot be encoded: \(error)")
      }
      // Sorted by key, as before; a key repeated in the file keeps its order.
      let ordered = (members + unknownText).enumerated().sorted {
        ($0.element.key, $0.offset) < ($1.element.key, $1.offset)
      }
      var bytes: [UInt8] = [UInt8(ascii: "{")]
      for (index, member) in ordered.map(\.element).enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        bytes += member.keyText
        bytes.append(UInt8(ascii: ":"))
        bytes += member.valueText
      }
      bytes.append(UInt8(ascii: "}"))
      return Data(bytes)
    }
    for (key, value) in unknown.sorted(by: { $0.key < $1.key }) {
      guard let problem = value.unwritable else { continue }
      throw .storage(
        file: url.path,
        "\(key) holds \(problem), which this library cannot write back: the vote was not "
          + "counted and the file was left unchanged")
    }
    do { return try encoder.encode(self) } catch {
      throw .storage(file: url.path, "cannot be encoded: \(error)")
    }
  }

  /// A key of the file's top-level object.
  private struct Key: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// Writes the known keys and every unknown one.
  func encode(to encoder: Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    for (key, value) in unknown { try container.encode(value, forKey: Key(stringValue: key)) }
    try container.encode(version, forKey: Key(stringValue: "version"))
    try container.encode(counts, forKey: Key(stringValue: "counts"))
    try container.encode(voters, forKey: Key(stringValue: "voters"))
  }

  /// Applies one vote (`up`) or unvote and returns the new count.
  ///
  /// With a voter: a vote counts only if the voter has none on the key, an unvote only if they
  /// have one. Without: a vote always counts, an unvote takes one anonymous vote if any. A vote
  /// that would take the count past ``VoteCount/maximum`` is a ``VotingError/Kind/storage``
  /// error naming `url` (the file it came from), and changes nothing.
  mutating func apply(key: String, voter: String?, up: Bool, in url: URL) throws(VotingError)
    -> Int
  {
    var count = counts[key] ?? 0
    var holders = voters[key] ?? []
    let adds = up && !(voter.map(holders.contains) ?? false)
    if adds && count >= VoteCount.maximum {
      throw .storage(
        file: url.path,
        "counts.\(key) is \(count), the largest count a vote file holds: the vote was not "
          + "counted and the file was left unchanged")
    }
    if let voter {
      let holds = holders.contains(voter)
      if up && !holds {
        holders.append(voter)
        holders.sort()
        count += 1
      } else if !up && holds {
        holders.removeAll { $0 == voter }
        count = max(0, count - 1)
      }
    } else if up {
      count += 1
    } else if count > holders.count {
      count -= 1
    }
    counts[key] = count
    voters[key] = holders.isEmpty ? nil : holders
    return count
  }
}

/// Any JSON value, so that a vote file's content is checked in the order the messages need and
/// every value can be named in them, and unknown keys are written back. Decoding fails only on
/// JSON syntax.
enum VoteFileValue: Codable, Equatable, Sendable {
  /// A number: its value, its text for messages, and, when it is not an `Int`, the number
  /// exactly as written where a `Decimal` holds it (what a rewrite writes back).
  case number(Double, text: String, exact: Decimal? = nil)
  case string(String)
  case bool(Bool)
  case null
  case array([VoteFileValue])
  case object([String: VoteFileValue])
  /// A number no `Int` or `Double` holds (`1e400`).
  case unreadableNumber
  /// A string Swift cannot hold (`"\ud800"`, a lone surrogate).
  case unreadableString
  /// An object with a key Swift cannot hold (a lone surrogate, or bytes that are not UTF-8).
  case unreadableKey

  /// A JSON number as a count or version: whole or not (a boolean or a string is not).
  enum Number {
    case whole(Double)
    case notWhole
  }

  /// Reads any JSON value; in the order of the values a vote file holds most (voter ids,
  /// counts), and an integer before a boolean, so that `1` is never `true`.
  init(from decoder: Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
      return
    }
    // A string Swift cannot hold fails as data, not as another type.
    var isString = true
    do {
      self = .string(try container.decode(String.self))
      return
    } catch DecodingError.typeMismatch {
      isString = false
    } catch {}
    if let value = try? container.decode(Int.self) {
      self = Self(int: value)
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      let whole = value.rounded() == value && abs(value) < 1e15
      self = .number(
        value, text: whole ? String(Int(value)) : String(value),
        exact: try? container.decode(Decimal.self))
    } else {
      // An object fails as data, not as another type, only for a key it cannot read (its
      // values are VoteFileValues, which take anything).
      var isObject = false
      do {
        self = .object(try container.decode([String: VoteFileValue].self))
        return
      } catch DecodingError.typeMismatch {
      } catch {
        isObject = true
      }
      if let value = try? container.decode([VoteFileValue].self) {
        self = .array(value)
      } else {
        self = isObject ? .unreadableKey : isString ? .unreadableString : .unreadableNumber
      }
    }
  }

  /// What ``init(from:)`` gives a JSON number an `Int` reads.
  init(int value: Int) {
    self = .number(Double(value), text: String(value))
  }

  /// Writes the value back: a whole number as an integer when an `Int` holds it, any other
  /// number as the `Decimal` read from it (else the `Double`). A number out of range cannot be
  /// written (see ``isWritable``).
  func encode(to encoder: Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .number(let value, let text, let exact):
      if let whole = Int(text) {
        try container.encode(whole)
      } else if let exact {
        try container.encode(exact)
      } else {
        try container.encode(value)
      }
    case .string(let text): try container.encode(text)
    case .bool(let value): try container.encode(value)
    case .null: try container.encodeNil()
    case .array(let items): try container.encode(items)
    case .object(let members): try container.encode(members)
    case .unreadableNumber, .unreadableString, .unreadableKey:
      throw EncodingError.invalidValue(
        self, .init(codingPath: encoder.codingPath, debugDescription: description))
    }
  }

  /// Whether ``encode(to:)`` can write the value (and everything in it) back as it was read.
  var isWritable: Bool { unwritable == nil }

  /// What in the value (or in anything in it) cannot be written back as it was read, or nil.
  var unwritable: String? {
    switch self {
    case .number(let value, _, let exact):
      if !value.isFinite { return "a number out of range" }
      if let exact, Self.mayBeCut(exact) {
        return "a number of more digits than this library keeps"
      }
      return nil
    case .string, .bool, .null: return nil
    case .array(let items): return items.lazy.compactMap(\.unwritable).first
    case .object(let members):
      return members.sorted { $0.key < $1.key }.lazy.compactMap(\.value.unwritable).first
    case .unreadableNumber, .unreadableString, .unreadableKey: return description
    }
  }

  /// Whether `decimal` may have lost digits when it was read: a `Decimal` keeps 38 significant
  /// digits and cuts the rest (a 42-digit number read back with its last digits as zeros).
  private static func mayBeCut(_ decimal: Decimal) -> Bool {
    let digits = decimal.description.prefix { $0 != "e" && $0 != "E" }.filter(\.isNumber)
    let significant = digits.drop { $0 == "0" }.reversed().drop { $0 == "0" }
    return significant.count >= 38
  }

  /// The value as a count or version.
  var number: Number {
    guard case .number(let value, _, _) = self, value.rounded() == value, value.isFinite else {
      return .notWhole
    }
    return .whole(value)
  }

  /// The value as a message shows it: a number or string as written, a list or object by kind.
  var description: String {
    switch self {
    case .number(_, let text, _): return text
    case .string(let text):
      let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
      return "\"\(shown)\""
    case .bool(let value): return String(value)
    case .null: return "null"
    case .array: return "a list"
    case .object: return "an object"
    case .unreadableNumber: return "a number out of range"
    case .unreadableString: return #"a string with a lone surrogate such as "\ud800""#
    case .unreadableKey:
      return "an object with a key that cannot be read (a lone surrogate such as \"\\ud800\", "
        + "or bytes that are not UTF-8)"
    }
  }
}

extension VoteFile.RawMember {
  /// The members of the JSON object `bytes` holds (already read as JSON), in order, repeated
  /// keys included; nil when its text cannot be split into them (then nothing relies on it).
  static func topLevel(of bytes: [UInt8]) -> [VoteFile.RawMember]? {
    var scanner = Scanner(bytes: bytes)
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.index = 3 }
    scanner.skipSpace()
    guard scanner.take(UInt8(ascii: "{")) else { return nil }
    var members: [VoteFile.RawMember] = []
    scanner.skipSpace()
    if scanner.take(UInt8(ascii: "}")) { return members }
    while true {
      scanner.skipSpace()
      let keyStart = scanner.index
      guard scanner.peek == UInt8(ascii: "\""), scanner.skipString() else { return nil }
      let keyText = Array(bytes[keyStart..<scanner.index])
      scanner.skipSpace()
      guard scanner.take(UInt8(ascii: ":")) else { return nil }
      scanner.skipSpace()
      let valueStart = scanner.index
      guard scanner.skipValue(), scanner.index > valueStart else { return nil }
      let valueText = Array(bytes[valueStart..<scanner.index])
      let key: String
      if !keyText.contains(UInt8(ascii: "\\")) {
        key = String(decoding: keyText.dropFirst().dropLast(), as: UTF8.self)
      } else if let decoded = try? JSONDecoder().decode(String.self, from: Data(keyText)) {
        key = decoded
      } else {
        return nil
      }
      members.append(VoteFile.RawMember(key: key, keyText: keyText, valueText: valueText))
      scanner.skipSpace()
      if scanner.take(UInt8(ascii: ",")) { continue }
      guard scanner.take(UInt8(ascii: "}")) else { return nil }
      scanner.skipSpace()
      return scanner.index == bytes.count ? members : nil
    }
  }

  /// A position in JSON text that is known to be valid.
  private struct Scanner {
    let bytes: [UInt8]
    var index = 0

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func take(_ byte: UInt8) -> Bool {
      guard peek == byte else { return false }
      index += 1
      return true
    }

    mutating func skipSpace() {
      while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
        index += 1
      }
    }

    /// Skips the string starting here (at its quote); false when it does not end.
    mutating func skipString() -> Bool {
      index += 1
      while index < bytes.count {
        switch bytes[index] {
        case UInt8(ascii: "\\"): index += 2
        case UInt8(ascii: "\""):
          index += 1
          return true
        default: index += 1
        }
      }
      return false
    }

    /// Skips the value starting here; false when it does not end.
    mutating func skipValue() -> Bool {
      guard let first = peek else { return false }
      switch first {
      case UInt8(ascii: "\""): return skipString()
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        var depth = 0
        while let byte = peek {
          switch byte {
          case UInt8(ascii: "\""):
            guard skipString() else { return false }
            continue
          case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
          case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
          default: break
          }
          index += 1
          if depth == 0 { return true }
        }
        return false
      default:
        // A number or a literal: up to the next delimiter.
        while let byte = peek, byte != UInt8(ascii: ","), byte != UInt8(ascii: "}"),
          byte != UInt8(ascii: "]"), byte != 0x20, byte != 0x0A, byte != 0x0D, byte != 0x09
        {
          index += 1
        }
        return true
      }
    }
  }
}
