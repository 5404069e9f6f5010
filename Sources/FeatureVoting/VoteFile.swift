import Foundation

/// The content of a ``FileVoter`` file.
struct VoteFile: Codable, Equatable, Sendable {
  var version = 1
  /// The count per key.
  var counts: [String: Int] = [:]
  /// The voters holding a vote per key, sorted.
  var voters: [String: [String]] = [:]

  /// The file's content; an empty file set when it does not exist.
  static func read(_ url: URL) throws(VotingError) -> VoteFile {
    guard let data = try StateFile.read(url) else { return VoteFile() }
    let content: VoteFile
    do {
      content = try JSONDecoder().decode(VoteFile.self, from: data)
    } catch {
      throw .storage(
        file: url.path, "is not a vote file (\(VoteFile.describe(error))); it was left unchanged")
    }
    guard content.version == 1 else {
      throw .storage(file: url.path, "has version \(content.version); this library reads version 1")
    }
    if let bad = content.counts.first(where: { $0.value < 0 }) {
      throw .storage(file: url.path, "has a negative count for '\(bad.key)'; it was left unchanged")
    }
    let tooLarge = content.counts.filter { $0.value > VoteCount.maximum }
    if let bad = tooLarge.min(by: { $0.key < $1.key }) {
      throw .storage(
        file: url.path,
        "counts.\(bad.key) is \(bad.value), more than the largest count a vote file holds "
          + "(\(VoteCount.maximum)); it was left unchanged")
    }
    return content
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

  private static func describe(_ error: Error) -> String {
    switch error {
    case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
      DecodingError.valueNotFound(_, let context), DecodingError.keyNotFound(_, let context):
      let path = context.codingPath.map(\.stringValue).joined(separator: ".")
      return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
    default:
      return "\(error)"
    }
  }
}
