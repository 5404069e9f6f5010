import Foundation

/// The contract's limits, and the checks both sides run against them.
///
/// Lengths count Unicode scalar values, so that a client in any language counts the same way.
public enum VoteFirstLimits {
  /// The longest title.
  public static let maxTitle = 254
  /// The longest description.
  public static let maxDescription = 2000
  /// The longest response.
  public static let maxResponse = 2000
  /// The longest name of a stage, tag, board or release.
  public static let maxName = 254
  /// The longest release notes.
  public static let maxNotes = 20_000
  /// The longest ref.
  public static let maxRef = 254
  /// The longest search (`q`), in Unicode scalars.
  public static let maxSearch = 200
  /// The page size when none is asked for.
  public static let defaultPageSize = 20
  /// The largest page.
  public static let maxPageSize = 100
  /// The most features one batch may carry.
  public static let maxBatch = 20_000
  /// The most suggestions a project keeps waiting for review: past it, `POST …/suggestions`
  /// is refused with 429 `suggestions_full` until an admin decides some (anyone may suggest,
  /// so without it the queue and the database grow at the rate limit times the addresses).
  public static let maxPendingSuggestions = 1_000

  /// The validation problems of a suggestion (`title`, `description`: required, limits).
  public static func problems(in draft: SuggestionDraft) -> [APIErrorBody] {
    var problems: [APIErrorBody] = []
    text(draft.title, "title", min: 1, max: maxTitle, into: &problems)
    text(draft.description, "description", min: 1, max: maxDescription, into: &problems)
    return problems
  }

  /// The validation problems of feature content, with fields under `path` (`features[3]`).
  public static func problems(in content: FeatureContent, at path: String = "") -> [APIErrorBody] {
    var problems: [APIErrorBody] = []
    let prefix = path.isEmpty ? "" : path + "."
    if let ref = content.ref {
      if !isValidRef(ref) {
        problems.append(
          invalid(
            prefix + "ref",
            "a ref is 1–\(maxRef) characters without control characters"))
      }
    }
    text(content.title, prefix + "title", min: 0, max: maxTitle, into: &problems)
    text(content.description, prefix + "description", min: 0, max: maxDescription, into: &problems)
    if let response = content.response {
      text(response, prefix + "response", min: 0, max: maxResponse, into: &problems)
    }
    if !isValidSlug(content.board) {
      problems.append(invalid(prefix + "board", "a board slug matches ^[a-z0-9][a-z0-9-]{0,62}$"))
    }
    if let due = content.due, !isValidMonth(due) {
      problems.append(invalid(prefix + "due", "due is a month written YYYY-MM"))
    }
    var tagsSeen = Set<Int>()
    for (index, tag) in content.tags.enumerated() where !tagsSeen.insert(tag).inserted {
      problems.append(invalid(prefix + "tags[\(index)]", "tag \(tag) is listed twice"))
    }
    if content.comments < 0 {
      problems.append(invalid(prefix + "comments", "comments cannot be negative"))
    }
    if let views = content.views, views < 0 {
      problems.append(invalid(prefix + "views", "views cannot be negative"))
    }
    if let progress = content.progress, !(0...100).contains(progress) {
      problems.append(invalid(prefix + "progress", "progress lies between 0 and 100"))
    }
    if let extra = content.extra {
      for (index, member) in extra.enumerated() {
        if member.key.isEmpty || member.json.isEmpty {
          problems.append(
            invalid(prefix + "extra[\(index)]", "an extra member needs a key and its JSON text"))
        } else if !isJSONValue(member.json) {
          // Stored, it would be left out of every Roadmap JSON the board is published as.
          problems.append(
            invalid(
              prefix + "extra[\(index)].json",
              "the JSON text of \(member.key) is not one JSON value"))
        }
      }
    }
    return problems
  }

  /// Whether `text` is exactly one JSON value (any kind, spaces around it allowed).
  static func isJSONValue(_ text: String) -> Bool {
    (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) != nil
  }

  /// The validation problems of a name (stage, tag, board, release title).
  public static func problems(inName name: String, field: String) -> [APIErrorBody] {
    var problems: [APIErrorBody] = []
    text(name, field, min: 1, max: maxName, into: &problems)
    return problems
  }

  /// Whether `ref` is 1–254 scalars without control characters.
  public static func isValidRef(_ ref: String) -> Bool {
    let scalars = ref.unicodeScalars
    return (1...maxRef).contains(scalars.count)
      && !scalars.contains { $0.value < 0x20 || $0.value == 0x7F }
  }

  /// Whether `template` has exactly one `{id}` and no control characters.
  public static func isValidVoteKeyTemplate(_ template: String) -> Bool {
    template.components(separatedBy: "{id}").count == 2
      && !template.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
      && template.unicodeScalars.count <= 64
  }

  /// Whether `slug` matches `^[a-z0-9][a-z0-9-]{0,62}$`.
  public static func isValidSlug(_ slug: String) -> Bool {
    let bytes = Array(slug.utf8)
    guard (1...63).contains(bytes.count) else { return false }
    func ok(_ b: UInt8) -> Bool {
      (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
    }
    return ok(bytes[0]) && bytes.dropFirst().allSatisfy { ok($0) || $0 == 0x2D }
  }

  /// Whether `month` is `YYYY-MM` with a month 01–12.
  public static func isValidMonth(_ month: String) -> Bool {
    let parts = month.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].count == 4, parts[1].count == 2,
      parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
      let value = Int(parts[1])
    else { return false }
    return (1...12).contains(value)
  }

  private static func text(
    _ value: String, _ field: String, min: Int, max: Int, into problems: inout [APIErrorBody]
  ) {
    let count = value.unicodeScalars.count
    if count < min {
      problems.append(invalid(field, "\(field) is required"))
    } else if count > max {
      problems.append(invalid(field, "\(field) is longer than \(max) characters (\(count))"))
    }
  }

  private static func invalid(_ field: String, _ message: String) -> APIErrorBody {
    APIErrorBody(code: VoteFirstContract.ErrorCode.validationFailed, message: message, field: field)
  }
}
