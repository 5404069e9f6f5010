import Foundation

/// Where vote counters live: the embedded SQLite store or PostgreSQL.
///
/// Every mutating call is one atomic, durable step: when it returns, the change survives
/// `kill -9` and power loss; when it throws, nothing was changed. Counts never go below zero.
/// Implementations are safe to call from many tasks at once and may group concurrent writes
/// into one transaction (group commit).
public protocol VoteStore: Sendable {
  /// The counter `key` in `namespace`, or nil when it does not exist.
  func record(namespace: String, key: String) async throws(VoteStoreError) -> CounterRecord?

  /// The counter as the store's memory knows it, without waiting (for a server's I/O
  /// thread): nil when the store keeps no counts in memory or does not know this one.
  /// Never older than a write the store has acknowledged. A default returns nil.
  func cachedRecord(namespace: String, key: String) -> CachedCounter?

  /// ``values(namespace:keys:)`` from the store's memory, without waiting: nil when the store
  /// keeps no counts in memory or does not know every key. A default returns nil.
  func cachedValues(namespace: String, keys: [String]) -> CounterValues?

  /// The values of `keys` in `namespace`; keys that do not exist are absent from the result.
  /// Keys are told apart by their bytes, as the store tells counters apart (``CounterValues``).
  func values(namespace: String, keys: [String]) async throws(VoteStoreError) -> CounterValues

  /// Creates a counter; returns nil (and changes nothing) when it already exists.
  func create(_ creation: CounterCreation) async throws(VoteStoreError) -> CounterRecord?

  /// Applies one change to one counter, atomically and durably. See ``CounterMutation``.
  func apply(_ mutation: CounterMutation) async throws(VoteStoreError) -> MutationResult

  /// ``apply(_:)`` without suspending, for a server's I/O thread: hands the mutation to the
  /// store's writer and calls `completion` on a store thread once it is durable (or failed).
  /// A default runs ``apply(_:)`` in a task.
  func submit(
    _ mutation: CounterMutation,
    completion: @escaping @Sendable (Result<MutationResult, VoteStoreError>) -> Void
  )

  /// ``submit(_:completion:)`` for many mutations handed over at once (a server's I/O thread
  /// gathers the votes of one round): each is applied as ``apply(_:)`` applies it, a failing
  /// one failing alone, and `completion` runs once, on a store thread, with every result in
  /// the order of `mutations`, when all are durable (or failed). The order they are applied
  /// in is the store's (SQLite's writer keeps theirs); a default applies them concurrently
  /// in tasks.
  func submitBatch(
    _ mutations: [CounterMutation],
    completion: @escaping @Sendable ([Result<MutationResult, VoteStoreError>]) -> Void
  )

  /// Sets a counter to `value` (clamped at zero). With `createIfMissing` a missing counter is
  /// created with `defaults`; otherwise nil is returned for a missing counter.
  func set(
    namespace: String, key: String, value: Int64, createIfMissing: CounterCreation?
  ) async throws(VoteStoreError) -> (old: Int64, record: CounterRecord)?

  /// Totals across the store, for `/stats` and `/metrics`.
  func statistics() async throws(VoteStoreError) -> StoreStatistics

  /// How many counters the store holds: ``statistics()``'s `counters`, without its other
  /// totals (a store of many voters counts them in a whole-table read), for `serve`'s bound
  /// on new counters.
  func counterCount() async throws(VoteStoreError) -> Int64

  /// Every counter with its voter set, in memory (small stores, tests).
  func exportAll() async throws(VoteStoreError) -> VoteExport

  /// Writes every counter with its voter set as export JSON (version 2) from one consistent
  /// snapshot, in pieces of about 64 KiB handed to `write` as they are made: memory stays
  /// constant however many counters there are (`roadmapctl votes export`). `write` runs on a
  /// database thread; an error it throws ends the export with ``VoteStoreError/Kind/io``.
  func exportAll(
    to write: @escaping @Sendable ([UInt8]) throws -> Void
  ) async throws(VoteStoreError) -> ExportSummary

  /// Loads an export. `replace` overwrites counters that exist; otherwise they are left as
  /// they are and counted in the result's `skipped`. All or nothing.
  func importAll(_ export: VoteExport, replace: Bool) async throws(VoteStoreError) -> ImportSummary

  /// Loads a backup's counters (none of which may exist: those are skipped and counted, as
  /// ``importAll(_:replace:)`` without `replace` does) and its boards in one transaction: a
  /// restore cut off by a full disk or a killed process leaves the store as it was, never
  /// the counters without the boards. A project of `boards` that exists is `.invalid`.
  func restoreAll(votes: VoteExport, boards: BoardBackup) async throws(VoteStoreError)
    -> ImportSummary

  /// Loads a checked export file (``VoteExport/check(_:range:keepingKeys:)``) as
  /// ``importAll(_:replace:)-(VoteExport,_)`` does, in one transaction, reading its counters
  /// from the file one at a time inside it, so memory does not grow with the file. The
  /// default reads them all into memory first.
  func importAll(_ export: CheckedVoteExport, replace: Bool) async throws(VoteStoreError)
    -> ImportSummary

  /// Loads a backup whose counters are a checked export file, as
  /// ``restoreAll(votes:boards:)-(VoteExport,_)`` does, reading the counters from the file one
  /// at a time inside its transaction. The default reads them all into memory first.
  func restoreAll(votes: CheckedVoteExport, boards: BoardBackup) async throws(VoteStoreError)
    -> ImportSummary

  /// Checks that the store can be read and written (for `/healthz`); throws the last write
  /// failure while writes are failing (see ``StoreWriteHealth``).
  func checkHealth() async throws(VoteStoreError)

  /// How recent writes went, without touching the database (for `/healthz` and metrics).
  func writeHealth() -> StoreWriteHealth

  /// Flushes pending work and closes the store. Later calls throw ``VoteStoreError/closed``.
  func close() async
}

/// One counter as stored.
public struct CounterRecord: Sendable, Equatable, Codable {
  /// A stable numeric id (counterapi's `id`).
  public var id: Int64
  /// The namespace (countapi's `namespace`, counterapi's namespace name).
  public var namespace: String
  /// The key (countapi's `key`, counterapi's `name`).
  public var key: String
  /// The current count, never below zero.
  public var value: Int64
  /// Whether `/set` is allowed without the admin token (countapi's `enable_reset`).
  public var enableReset: Bool
  /// The smallest `amount` one update may apply (countapi's `update_lowerbound`).
  public var updateLowerBound: Int64
  /// The largest `amount` one update may apply (countapi's `update_upperbound`).
  public var updateUpperBound: Int64
  /// When the counter was created, in milliseconds since 1970 (UTC).
  public var createdAt: Int64
  /// When the counter last changed, in milliseconds since 1970 (UTC).
  public var updatedAt: Int64

  /// Creates a record.
  public init(
    id: Int64, namespace: String, key: String, value: Int64, enableReset: Bool,
    updateLowerBound: Int64, updateUpperBound: Int64, createdAt: Int64, updatedAt: Int64
  ) {
    self.id = id
    self.namespace = namespace
    self.key = key
    self.value = value
    self.enableReset = enableReset
    self.updateLowerBound = updateLowerBound
    self.updateUpperBound = updateUpperBound
    self.createdAt = createdAt
    self.updatedAt = updatedAt
  }
}

/// How to create a counter (countapi's `/create` parameters).
public struct CounterCreation: Sendable, Equatable {
  /// The namespace.
  public var namespace: String
  /// The key.
  public var key: String
  /// The starting value (clamped at zero).
  public var value: Int64
  /// Whether `/set` is allowed without the admin token.
  public var enableReset: Bool
  /// The smallest amount one update may apply.
  public var updateLowerBound: Int64
  /// The largest amount one update may apply.
  public var updateUpperBound: Int64

  /// Creates a creation request. The defaults are those of a key made by `/hit`:
  /// value 0, no reset, update bounds [-1, 1] (so an unvote works).
  public init(
    namespace: String, key: String, value: Int64 = 0, enableReset: Bool = false,
    updateLowerBound: Int64 = -1, updateUpperBound: Int64 = 1
  ) {
    self.namespace = namespace
    self.key = key
    self.value = value
    self.enableReset = enableReset
    self.updateLowerBound = updateLowerBound
    self.updateUpperBound = updateUpperBound
  }
}

/// One change to one counter.
///
/// - Without a voter, `delta` is added to the value; the result is clamped at zero
///   (a `-1` on a zero counter leaves it at zero and reports ``MutationResult/Outcome/atZero``).
/// - With a voter, a positive `delta` counts only if this voter has no vote on the key yet
///   (then the vote is recorded); a negative one only if the voter has a vote (then it is
///   removed). Otherwise the value is unchanged and the outcome says why.
/// - With `checkBounds`, a `delta` outside the key's update bounds changes nothing and
///   reports ``MutationResult/Outcome/outOfBounds``.
/// - A missing key is created from `createIfMissing` first, or reported as missing.
public struct CounterMutation: Sendable, Equatable {
  /// The namespace.
  public var namespace: String
  /// The key.
  public var key: String
  /// The amount to add (negative to subtract).
  public var delta: Int64
  /// The voter's stable id, for idempotent votes; nil for anonymous counting.
  public var voter: String?
  /// Whether `delta` must lie within the key's update bounds.
  public var checkBounds: Bool
  /// How to create the key when it does not exist; nil means "report missing".
  public var createIfMissing: CounterCreation?

  /// Creates a mutation.
  public init(
    namespace: String, key: String, delta: Int64, voter: String? = nil,
    checkBounds: Bool = false, createIfMissing: CounterCreation? = nil
  ) {
    self.namespace = namespace
    self.key = key
    self.delta = delta
    self.voter = voter
    self.checkBounds = checkBounds
    self.createIfMissing = createIfMissing
  }
}

/// What ``VoteStore/apply(_:)`` did.
public struct MutationResult: Sendable, Equatable {
  /// Why the value changed or did not.
  public enum Outcome: String, Sendable, Equatable {
    /// The delta was applied.
    case applied
    /// The key does not exist and no creation was asked for.
    case missing
    /// The delta lies outside the key's update bounds; nothing changed.
    case outOfBounds
    /// The voter already has a vote on this key; nothing changed.
    case alreadyVoted
    /// The voter has no vote to remove; nothing changed.
    case notVoted
    /// The counter is at zero and would have gone below; nothing changed.
    case atZero
  }

  /// Why the value changed or did not.
  public var outcome: Outcome
  /// The counter after the call; nil only when `outcome` is `.missing`.
  public var record: CounterRecord?
  /// Whether the call created the counter.
  public var created: Bool

  /// Creates a result.
  public init(outcome: Outcome, record: CounterRecord?, created: Bool = false) {
    self.outcome = outcome
    self.record = record
    self.created = created
  }
}

/// Totals across a store.
public struct StoreStatistics: Sendable, Equatable {
  /// How many counters exist (countapi's `keys_created`).
  public var counters: Int64
  /// How many changes were applied since the store was created (countapi's `keys_updated`).
  public var updates: Int64
  /// How many voter records exist.
  public var voters: Int64

  /// Creates statistics.
  public init(counters: Int64, updates: Int64, voters: Int64) {
    self.counters = counters
    self.updates = updates
    self.voters = voters
  }
}

/// Every counter and voter set of a store, as written by `roadmapctl votes export`.
///
/// Version 2 (written now) carries voter ids as the store keeps them: keyed hashes
/// (HMAC-SHA-256, 64 hex digits), with ``voterKey`` naming the key they were made with; an
/// import needs a store with that same key. Version 1 (written before voter ids were hashed)
/// carries voter ids in clear; an import hashes them with the importing store's key.
public struct VoteExport: Sendable, Equatable, Codable {
  /// One counter with its voters.
  public struct Counter: Sendable, Equatable, Codable {
    /// The counter.
    public var record: CounterRecord
    /// The voters who hold a vote on it, sorted: hashes in version 2, clear ids in version 1.
    public var voters: [String]
    /// What the last import of a board feature's votes set on it (see
    /// `BoardTables.setImportedVotes`); nil when nothing was imported into it, and then
    /// absent from the document.
    public var imported: Int64?

    /// Creates an exported counter.
    public init(record: CounterRecord, voters: [String], imported: Int64? = nil) {
      self.record = record
      self.voters = voters
      self.imported = imported
    }
  }

  /// The version this build writes.
  public static let currentVersion = 2

  /// The format version: 2, or 1 for exports with voter ids in clear.
  public var version: Int
  /// The fingerprint (16 hex digits) of the voter key the hashes were made with; nil in
  /// version 1.
  public var voterKey: String?
  /// The counters, sorted by namespace then key.
  public var counters: [Counter]

  /// Creates an export.
  public init(version: Int = 1, voterKey: String? = nil, counters: [Counter]) {
    self.version = version
    self.voterKey = voterKey
    self.counters = counters
  }
}

/// What an import did.
public struct ImportSummary: Sendable, Equatable {
  /// Counters written.
  public var imported: Int
  /// Counters left as they were because they existed and `replace` was false.
  public var skipped: Int

  /// Creates a summary.
  public init(imported: Int, skipped: Int) {
    self.imported = imported
    self.skipped = skipped
  }
}

/// What a store's memory knows of a counter (``VoteStore/cachedRecord(namespace:key:)``).
public enum CachedCounter: Sendable, Equatable {
  /// The committed counter.
  case found(CounterRecord)
  /// The counter does not exist.
  case missing
}

extension VoteStore {
  /// Reads the export's counters into memory and imports them with
  /// ``importAll(_:replace:)-(VoteExport,_)``.
  public func importAll(_ export: CheckedVoteExport, replace: Bool) async throws(VoteStoreError)
    -> ImportSummary
  {
    try await importAll(try export.materialized(), replace: replace)
  }

  /// Reads the backup's counters into memory and restores them with
  /// ``restoreAll(votes:boards:)-(VoteExport,_)``.
  public func restoreAll(votes: CheckedVoteExport, boards: BoardBackup)
    async throws(VoteStoreError) -> ImportSummary
  {
    try await restoreAll(votes: try votes.materialized(), boards: boards)
  }
}

extension VoteStore {
  /// The counter as the store's memory knows it, without waiting: nil when the store keeps
  /// no counts in memory or does not know this one (then ask ``record(namespace:key:)``).
  ///
  /// Never older than a write the store has acknowledged. The default knows nothing.
  public func cachedRecord(namespace: String, key: String) -> CachedCounter? { nil }

  /// The values as the store's memory knows them; the default knows nothing.
  public func cachedValues(namespace: String, keys: [String]) -> CounterValues? { nil }

  /// Applies a mutation without suspending the caller: the default runs ``apply(_:)`` in a
  /// task and calls `completion` with its result.
  public func submit(
    _ mutation: CounterMutation,
    completion: @escaping @Sendable (Result<MutationResult, VoteStoreError>) -> Void
  ) {
    Task {
      do throws(VoteStoreError) {
        completion(.success(try await apply(mutation)))
      } catch {
        completion(.failure(error))
      }
    }
  }

  /// Applies mutations without suspending the caller: the default applies them concurrently
  /// in tasks (so a store that groups concurrent writes can group them) and calls
  /// `completion` with their results in order.
  public func submitBatch(
    _ mutations: [CounterMutation],
    completion: @escaping @Sendable ([Result<MutationResult, VoteStoreError>]) -> Void
  ) {
    Task {
      let results = await withTaskGroup(
        of: (Int, Result<MutationResult, VoteStoreError>).self
      ) { group in
        for (index, mutation) in mutations.enumerated() {
          group.addTask {
            do throws(VoteStoreError) {
              return (index, .success(try await apply(mutation)))
            } catch {
              return (index, .failure(error))
            }
          }
        }
        var results = [Result<MutationResult, VoteStoreError>](
          repeating: .failure(.closed), count: mutations.count)
        for await (index, result) in group { results[index] = result }
        return results
      }
      completion(results)
    }
  }
}

extension VoteStore {
  /// ``statistics()``'s `counters`, for a store with no cheaper way to count them.
  public func counterCount() async throws(VoteStoreError) -> Int64 {
    try await statistics().counters
  }
}
