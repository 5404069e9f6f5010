import Foundation
import HTTPServer

/// Token buckets per client address, in memory, with a bounded table.
///
/// Reads and writes have separate buckets so that loading a board never uses up a client's
/// votes. When the table is full, clients whose buckets have refilled (idle ones) are
/// dropped first, then the least recently seen.
///
/// A request that presents the admin token is not limited at all (the operator can do
/// anything anyway, and `votes pull` sets one counter per request); one that presents a wrong
/// token draws on its client's budget of wrong tokens besides (see ``take(client:kind:token:now:)``).
final class RateLimiter: Sendable {
  /// Which bucket a request draws from.
  enum Kind: Sendable { case read, write }

  /// Why a request was refused, and in how many seconds to try again.
  struct Refusal: Sendable, Equatable {
    /// Seconds until the bucket holds a token again (at least 1).
    var retry: Int
    /// Refused because its client sent too many wrong admin tokens, not too many requests.
    var wrongTokens: Bool
  }

  /// An admin token a request presents, and the one the server has.
  struct Token: Sendable {
    /// What the request sent (`Authorization: Bearer T`, or `?token=T` where a route takes it).
    var presented: String
    /// The server's admin token.
    var expected: String
  }

  private struct Bucket {
    var tokens: Double
    var updated: Double
  }

  private struct State {
    var reads: [String: Bucket] = [:]
    var writes: [String: Bucket] = [:]
    /// Wrong admin tokens per client.
    var wrongTokens: [String: Bucket] = [:]
  }

  private let readLimit: RateLimit
  private let writeLimit: RateLimit
  /// How many wrong admin tokens a client may send: the write limit, or the read limit when
  /// writes are not limited (a route whose kind is limited always has one of them on).
  private let wrongTokenLimit: RateLimit
  private let maxClients: Int
  private let state = Locked(State())

  init(reads: RateLimit, writes: RateLimit, maxClients: Int) {
    self.readLimit = reads
    self.writeLimit = writes
    self.wrongTokenLimit = writes.isUnlimited ? reads : writes
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
    take(client: client, kind: kind, token: nil, now: now)?.retry
  }

  /// Takes one token of `kind` for `client`, as ``take(client:kind:now:)`` does, unless the
  /// request presents `token` and it is the admin token; nil when allowed, else the refusal.
  ///
  /// - The right token (compared in constant time) is allowed and draws on nothing.
  /// - A wrong one draws on the client's budget of wrong tokens (as many a minute as the
  ///   write limit allows, or the read limit when writes are unlimited) and then, as any
  ///   request, on its bucket of `kind`. Once that budget is spent, every request of the
  ///   client that presents a token is refused, right or wrong, until it refills: had the
  ///   right one still passed, a client over its limit could go on testing guesses, each
  ///   refused (429) unless it was right.
  /// - Without a token (`token` nil), exactly ``take(client:kind:now:)``.
  ///
  /// Nothing is compared or looked up when `kind` is not limited.
  func take(client: String, kind: Kind, token: Token?, now: Double = RateLimiter.now())
    -> Refusal?
  {
    let limit = kind == .read ? readLimit : writeLimit
    if limit.isUnlimited { return nil }
    let client = ClientAddress.limitKey(client)
    // Compared before the lock, whatever the budget says, so the time an answer takes does
    // not depend on whether the token was looked at.
    let right = token.map { ConstantTime.equals($0.presented, $0.expected) }
    return state.withLock { s in
      if let right {
        if let retry = RateLimiter.wait(s.wrongTokens[client], wrongTokenLimit, now) {
          return Refusal(retry: retry, wrongTokens: true)
        }
        if right { return nil }
        _ = RateLimiter.take(&s.wrongTokens, client, wrongTokenLimit, maxClients, now)
      }
      let retry =
        switch kind {
        case .read: RateLimiter.take(&s.reads, client, limit, maxClients, now)
        case .write: RateLimiter.take(&s.writes, client, limit, maxClients, now)
        }
      return retry.map { Refusal(retry: $0, wrongTokens: false) }
    }
  }

  /// How many clients each table holds (for tests).
  var tableSizes: (reads: Int, writes: Int, wrongTokens: Int) {
    state.withLock { ($0.reads.count, $0.writes.count, $0.wrongTokens.count) }
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
    return retry(bucket.tokens, limit)
  }

  /// Nil when `bucket` (nil: a client not seen, whose bucket is full) holds a token at `now`,
  /// else the seconds until it does; takes nothing.
  private static func wait(_ bucket: Bucket?, _ limit: RateLimit, _ now: Double) -> Int? {
    guard let bucket else { return nil }
    let tokens = min(limit.burst, bucket.tokens + (now - bucket.updated) * limit.perSecond)
    return tokens >= 1 ? nil : retry(tokens, limit)
  }

  /// The whole seconds until a bucket holding `tokens` holds one.
  private static func retry(_ tokens: Double, _ limit: RateLimit) -> Int {
    // Clamped before the conversion: a very slow refill must not trap `Int(_:)`.
    let wait = ((1 - tokens) / limit.perSecond).rounded(.up)
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
