import Foundation
import HTTPServer

/// Token buckets per client address, in memory, with a bounded table.
///
/// Reads and writes have separate buckets so that loading a board never uses up a client's
/// votes. When the table is full, clients whose buckets have refilled (idle ones) are
/// dropped first, then the least recently seen.
final class RateLimiter: Sendable {
  /// Which bucket a request draws from.
  enum Kind: Sendable { case read, write }

  private struct Bucket {
    var tokens: Double
    var updated: Double
  }

  private struct State {
    var reads: [String: Bucket] = [:]
    var writes: [String: Bucket] = [:]
  }

  private let readLimit: RateLimit
  private let writeLimit: RateLimit
  private let maxClients: Int
  private let state = Locked(State())

  init(reads: RateLimit, writes: RateLimit, maxClients: Int) {
    self.readLimit = reads
    self.writeLimit = writes
    self.maxClients = max(1, maxClients)
  }

  /// Whether requests of `kind` are never limited (then ``take(client:kind:now:)`` always
  /// allows, and the client need not be worked out).
  func isUnlimited(_ kind: Kind) -> Bool {
    (kind == .read ? readLimit : writeLimit).isUnlimited
  }

  /// Takes one token for `client`; nil when allowed, else the seconds until one is available.
  ///
  /// An IPv6 client is counted per /64 network (``ClientAddress/limitKey(_:)``): one
  /// subscriber usually holds a whole /64, and counted per address could send from 2^64 of
  /// them, each with a full bucket.
  func take(client: String, kind: Kind, now: Double = RateLimiter.now()) -> Int? {
    let limit = kind == .read ? readLimit : writeLimit
    if limit.isUnlimited { return nil }
    let client = ClientAddress.limitKey(client)
    return state.withLock { s in
      switch kind {
      case .read: return RateLimiter.take(&s.reads, client, limit, maxClients, now)
      case .write: return RateLimiter.take(&s.writes, client, limit, maxClients, now)
      }
    }
  }

  /// How many clients each table holds (for tests).
  var tableSizes: (reads: Int, writes: Int) {
    state.withLock { ($0.reads.count, $0.writes.count) }
  }

  private static func take(
    _ table: inout [String: Bucket], _ client: String, _ limit: RateLimit, _ maxClients: Int,
    _ now: Double
  ) -> Int? {
    var bucket = table[client] ?? Bucket(tokens: limit.burst, updated: now)
    bucket.tokens = min(limit.burst, bucket.tokens + (now - bucket.updated) * limit.perSecond)
    bucket.updated = now
    if bucket.tokens >= 1 {
      bucket.tokens -= 1
      if table[client] == nil && table.count >= maxClients { evict(&table, limit, now) }
      table[client] = bucket
      return nil
    }
    table[client] = bucket
    // Clamped before the conversion: a very slow refill must not trap `Int(_:)`.
    let wait = ((1 - bucket.tokens) / limit.perSecond).rounded(.up)
    return max(1, Int(min(wait, 86_400 * 365)))
  }

  /// Drops idle clients (their buckets would be full by now); if that frees less than a
  /// quarter of the table, also drops the least recently seen.
  private static func evict(_ table: inout [String: Bucket], _ limit: RateLimit, _ now: Double) {
    let target = table.count * 3 / 4
    table = table.filter {
      $0.value.tokens + (now - $0.value.updated) * limit.perSecond < limit.burst
    }
    if table.count > target {
      let keep = table.sorted { $0.value.updated > $1.value.updated }.prefix(target)
      table = Dictionary(uniqueKeysWithValues: keep.map { ($0.key, $0.value) })
    }
  }

  /// Monotonic seconds.
  static func now() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1e9
  }
}
