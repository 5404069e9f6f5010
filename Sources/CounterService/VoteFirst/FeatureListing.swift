import Foundation
import VoteFirstAPI
import VoteStore

/// Ordering and cursor paging of `GET …/features`, without I/O.
///
/// Every order is total: a sort key, most first, then the id (ascending; descending for
/// `newest`). A cursor names the last feature handed out by its key and id, and the moment
/// trending scores were computed at, so the next page starts right after it.
struct FeatureListing: Sendable {
  /// A decoded cursor.
  struct Cursor: Sendable, Equatable, Codable {
    /// The order it belongs to.
    var order: String
    /// When trending scores are computed (ms since 1970).
    var at: Int64
    /// The last feature's sort key.
    var key: Double
    /// The last feature's id.
    var id: Int64

    /// The cursor's wire form: base64url JSON, no padding.
    var text: String {
      let data = (try? JSONEncoder().encode(self)) ?? Data()
      return data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
        .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// Reads a wire cursor; nil when it is not one.
    init?(text: String) {
      var base64 = text.replacingOccurrences(of: "-", with: "+")
        .replacingOccurrences(of: "_", with: "/")
      while base64.count % 4 != 0 { base64 += "=" }
      guard text.utf8.count <= 512, let data = Data(base64Encoded: base64),
        let cursor = try? JSONDecoder().decode(Cursor.self, from: data), cursor.key.isFinite
      else { return nil }
      self = cursor
    }

    init(order: String, at: Int64, key: Double, id: Int64) {
      self.order = order
      self.at = at
      self.key = key
      self.id = id
    }
  }

  let order: FeatureOrder
  /// The moment trending scores are computed at.
  let at: Int64

  /// The sort key of a feature.
  func key(_ feature: BoardFeatureSummary) -> Double {
    key(votes: feature.votes, createdAt: feature.createdAt, comments: feature.comments)
  }

  /// The sort key of a feature with these votes, creation time and comments.
  func key(votes: Int64, createdAt: Int64, comments: Int64) -> Double {
    switch order {
    case .trending:
      // In Double: `at` comes from the reader's cursor, and any Int64 in it must not trap.
      let ageDays = max(0, (Double(at) - Double(createdAt)) / 86_400_000)
      return Double(votes) / pow(ageDays + 2, 1.5)
    case .newest: return Double(createdAt)
    case .discussed: return Double(comments)
    default: return Double(votes)
    }
  }

  /// Whether `(key, id)` comes before `(otherKey, otherID)` in this order.
  func precedes(_ key: Double, _ id: Int64, _ otherKey: Double, _ otherID: Int64) -> Bool {
    if key != otherKey { return key > otherKey }
    return order == .newest ? id > otherID : id < otherID
  }

  /// One page: the ids after `cursor`, at most `limit`, and the next cursor (nil at the end).
  func page(_ features: [BoardFeatureSummary], after cursor: Cursor?, limit: Int)
    -> (ids: [Int64], next: String?)
  {
    page(features.lazy.map { (key: key($0), id: $0.id) }, after: cursor, limit: limit)
  }

  /// One page of `keyed` (sort keys and ids, in any order): the best `limit + 1` after
  /// `cursor` are kept while the rest pass by, so a page costs one pass, not a sort of all.
  func page<S: Sequence<(key: Double, id: Int64)>>(_ keyed: S, after cursor: Cursor?, limit: Int)
    -> (ids: [Int64], next: String?)
  {
    let keep = max(1, limit) + 1
    var best: [(key: Double, id: Int64)] = []
    best.reserveCapacity(keep)
    for item in keyed {
      if let cursor, !precedes(cursor.key, cursor.id, item.key, item.id) { continue }
      if best.count == keep {
        guard let worst = best.last, precedes(item.key, item.id, worst.key, worst.id) else {
          continue
        }
        best.removeLast()
      }
      var low = 0
      var high = best.count
      while low < high {
        let middle = (low + high) / 2
        if precedes(best[middle].key, best[middle].id, item.key, item.id) {
          low = middle + 1
        } else {
          high = middle
        }
      }
      best.insert(item, at: low)
    }
    return finish(best, limit: limit)
  }

  /// One page of `ordered`, already in this order (the model's `newest` and `discussed`
  /// lists): a walk that stops after `limit + 1` items past the cursor.
  func page<S: Sequence<(key: Double, id: Int64)>>(
    ordered: S, after cursor: Cursor?, limit: Int
  ) -> (ids: [Int64], next: String?) {
    var taken: [(key: Double, id: Int64)] = []
    for item in ordered {
      if let cursor, !precedes(cursor.key, cursor.id, item.key, item.id) { continue }
      taken.append(item)
      if taken.count > limit { break }
    }
    return finish(taken, limit: limit)
  }

  /// The page of `sorted` (at most `limit + 1`, in order) and its next cursor.
  private func finish(_ sorted: [(key: Double, id: Int64)], limit: Int)
    -> (ids: [Int64], next: String?)
  {
    let page = Array(sorted.prefix(limit))
    guard sorted.count > limit, let last = page.last else { return (page.map(\.id), nil) }
    return (page.map(\.id), Cursor(order: order.rawValue, at: at, key: last.key, id: last.id).text)
  }

  /// Whether this order depends on votes (so a page needs every candidate's count).
  var needsVotes: Bool { order != .newest && order != .discussed }
}
