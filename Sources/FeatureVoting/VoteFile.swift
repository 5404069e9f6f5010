import Foundation

/// The content of a ``FileVoter`` file.
struct VoteFile: Encodable, Equatable, Sendable {
  var version = 1
  /// The count per key, each from 0 to ``VoteCount/maximum``.
  var counts: [String: Int] = [:]
  /// The voters holding a vote per key, sorted.
  var voters: [String: [String]] = [:]

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
      root = try JSONDecoder().decode(VoteFileValue.self, from: data)
    } catch {
      // VoteFileValue takes any JSON value, so only the syntax can fail here.
      throw Damage("is not JSON" + syntaxDetail(data))
    }
    guard case .object(let object) = root else {
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
    return content
  }

  /// The `counts` object: a whole number of votes from 0 to ``VoteCount/maximum`` per key.
  private static func counts(_ value: VoteFileValue?) throws(Damage) -> [String: Int] {
    guard let value else { throw Damage(#"has no "counts" key"#) }
    guard case .object(let object) = value else {
      throw Damage("counts is \(value.description), not an object of counts by key")
    }
    var counts: [String: Int] = [:]
    for key in object.keys.sorted() {
      let count = object[key]!
      let path = "counts.\(key) is \(count.description)"
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
      voters[key] = ids
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

  /// The content as the file holds it (keys sorted, so diffs stay small).
  func encoded(_ url: URL) throws(VotingError) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    do { return try encoder.encode(self) } catch {
      throw .storage(file: url.path, "cannot be encoded: \(error)")
    }
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
/// every value can be named in them. Decoding fails only on JSON syntax.
private enum VoteFileValue: Decodable {
  case number(Double, text: String)
  case string(String)
  case bool(Bool)
  case null
  case array([VoteFileValue])
  case object([String: VoteFileValue])
  /// A number no `Int` or `Double` holds (`1e400`).
  case unreadableNumber

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
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode(Int.self) {
      self = .number(Double(value), text: String(value))
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Double.self) {
      let whole = value.rounded() == value && abs(value) < 1e15
      self = .number(value, text: whole ? String(Int(value)) : String(value))
    } else if let value = try? container.decode([String: VoteFileValue].self) {
      self = .object(value)
    } else if let value = try? container.decode([VoteFileValue].self) {
      self = .array(value)
    } else {
      self = .unreadableNumber
    }
  }

  /// The value as a count or version.
  var number: Number {
    guard case .number(let value, _) = self, value.rounded() == value, value.isFinite else {
      return .notWhole
    }
    return .whole(value)
  }

  /// The value as a message shows it: a number or string as written, a list or object by kind.
  var description: String {
    switch self {
    case .number(_, let text): return text
    case .string(let text):
      let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
      return "\"\(shown)\""
    case .bool(let value): return String(value)
    case .null: return "null"
    case .array: return "a list"
    case .object: return "an object"
    case .unreadableNumber: return "a number out of range"
    }
  }
}
