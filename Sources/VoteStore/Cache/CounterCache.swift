import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An in-memory view of the committed counter rows of one SQLite vote store, so a read is a
/// hash lookup instead of a trip to a database thread.
///
/// Only committed state is ever in it, and it is never older than what an acknowledged write
/// left behind:
/// - The writers *publish*: after each commit, and before any caller of that commit is
///   answered, the writer thread re-reads the rows the transaction changed and puts them in
///   (``publish(_:)``). Writers hold ``beginPublishing()``…``endPublishing()`` from before their
///   `COMMIT` to after they publish, so publications land in commit order even with two
///   writers on one file (the counters' and the board's).
/// - Readers *fill* what is not there (``fill(_:_:ticket:)``): a reader that missed takes a
///   ticket first, reads its row from a snapshot that starts after the ticket, and puts it in
///   only if the key is still absent and nothing was dropped meanwhile. A fill can therefore
///   never land on top of a newer publication, and a publication always replaces a fill.
/// - Anything it cannot follow row by row (a delete, a write of very many rows, the entry cap)
///   drops everything and moves the epoch on, which turns away every fill in flight.
///
/// It holds one entry per key read or written (a missing key too, so a 404 is answered from
/// memory), at most ``capacity``; past that it starts again from empty. Other processes must
/// not write the database while a store with a cache has it open: see ``ServeLock``.
final class CounterCache: @unchecked Sendable {
  /// What memory knows of a key.
  enum Lookup {
    /// The committed row.
    case found(CounterRecord)
    /// The key does not exist.
    case missing
    /// Memory does not know: read the database, then ``fill(_:_:ticket:)`` with the ticket.
    case unknown(Ticket)
  }

  /// Proof of when a reader missed, for ``fill(_:_:ticket:)``.
  struct Ticket {
    fileprivate let epoch: UInt64
  }

  /// A counter's name, compared by its bytes as the stores compare names: two spellings of
  /// one text in different Unicode forms (`é` precomposed, `e` + U+0301) are two counters,
  /// which Swift's `String` equality takes for one (``ExactText``). The names kept in
  /// `entries` are made with ``init(storing:key:)``, so a lookup of an ASCII name compares as
  /// a `String` would.
  private struct Key: Hashable {
    var namespace: ExactText
    var key: ExactText

    /// A name to look up.
    init(namespace: String, key: String) {
      self.namespace = ExactText(namespace)
      self.key = ExactText(key)
    }

    /// A name to keep.
    init(storing namespace: String, key: String) {
      self.namespace = ExactText(storing: namespace)
      self.key = ExactText(storing: key)
    }
  }

  /// The most entries kept; reaching it empties the cache.
  let capacity: Int
  // Every stored property below is read and written only under `lock`, so the runtime's
  // exclusivity checks (a call each, several per lookup) are left out.
  @exclusivity(unchecked) private var entries: [Key: CounterRecord?] = [:]
  /// The key looked up last and what memory knew of it, asked first: a run of lookups of one
  /// counter (a round of votes or reads) then hashes nothing. Forgotten whenever `entries`
  /// changes.
  @exclusivity(unchecked) private var hasLast = false
  @exclusivity(unchecked) private var lastNamespace = ExactText("")
  @exclusivity(unchecked) private var lastKey = ExactText("")
  @exclusivity(unchecked) private var lastEntry: CounterRecord?
  @exclusivity(unchecked) private var epoch: UInt64 = 0
  /// Set when the store closes: from then on memory knows nothing, so reads reach the closed
  /// store and fail as it does.
  @exclusivity(unchecked) private var closed = false
  private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let publishLock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  /// Lookups answered from memory and lookups that missed, since the store opened.
  @exclusivity(unchecked) private var hitCount: Int64 = 0
  @exclusivity(unchecked) private var missCount: Int64 = 0

  /// Creates an empty cache of at most `capacity` entries.
  init(capacity: Int = 1_000_000) {
    self.capacity = max(1, capacity)
    pthread_mutex_init(lock, nil)
    pthread_mutex_init(publishLock, nil)
  }

  deinit {
    pthread_mutex_destroy(lock)
    pthread_mutex_destroy(publishLock)
    lock.deallocate()
    publishLock.deallocate()
  }

  /// What memory knows of `key` in `namespace`.
  func lookup(namespace: String, key: String) -> Lookup {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    // Compared in place (plain fields, not one optional value: copying that out went through
    // the runtime's generic witnesses).
    // Compared by bytes, at String's speed for ASCII names (the kept ones know they are).
    if hasLast
      && ExactText.same(lastKey.text, key, eitherIsASCII: lastKey.isKnownASCII)
      && ExactText.same(lastNamespace.text, namespace, eitherIsASCII: lastNamespace.isKnownASCII)
      && !closed
    {
      hitCount &+= 1
      return lastEntry.map(Lookup.found) ?? .missing
    }
    guard !closed, let index = entries.index(forKey: Key(namespace: namespace, key: key)) else {
      missCount &+= 1
      return .unknown(Ticket(epoch: epoch))
    }
    let (kept, entry) = entries[index]
    (hasLast, lastNamespace, lastKey, lastEntry) = (true, kept.namespace, kept.key, entry)
    hitCount &+= 1
    return entry.map(Lookup.found) ?? .missing
  }

  /// The values of `keys` when memory knows every one of them (absent keys left out of the
  /// result, as ``VoteStore/values(namespace:keys:)`` does); nil when it does not.
  func values(namespace: String, keys: [String]) -> CounterValues? {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    guard !closed else { return nil }
    var values = CounterValues()
    values.reserveCapacity(keys.count)
    for key in keys {
      guard let entry = entries[Key(namespace: namespace, key: key)] else {
        missCount &+= 1
        return nil
      }
      if let record = entry { values[key] = record.value }
    }
    hitCount &+= 1
    return values
  }

  /// A ticket for a read of several keys (see ``fill(_:_:ticket:)``).
  func ticket() -> Ticket {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    return Ticket(epoch: epoch)
  }

  /// Puts in what a reader read (nil: the key does not exist) from a snapshot taken after
  /// `ticket`, unless memory learnt something newer since.
  func fill(_ namespace: String, _ key: String, _ record: CounterRecord?, ticket: Ticket) {
    fill([(namespace, key, record)], ticket: ticket)
  }

  /// ``fill(_:_:ticket:)`` for several rows read from one snapshot.
  func fill(_ rows: [(String, String, CounterRecord?)], ticket: Ticket) {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    guard ticket.epoch == epoch else { return }
    for (namespace, key, record) in rows {
      let key = Key(storing: namespace, key: key)
      guard entries[key] == nil else { continue }
      // Emptying a full cache forgets publications newer than this snapshot: stop here.
      guard entries.count < capacity else {
        dropAllLocked()
        return
      }
      hasLast = false
      entries[key] = .some(record)
    }
  }

  /// Held by a writer from before its `COMMIT` until it has published (or given up).
  func beginPublishing() { pthread_mutex_lock(publishLock) }

  /// Ends ``beginPublishing()``.
  func endPublishing() { pthread_mutex_unlock(publishLock) }

  /// Puts in the committed rows a writer just re-read (under ``beginPublishing()``).
  func publish(_ records: [CounterRecord]) {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    hasLast = false
    for record in records {
      let key = Key(storing: record.namespace, key: record.key)
      if entries[key] == nil && entries.count >= capacity { dropAllLocked() }
      entries[key] = .some(record)
    }
  }

  /// Forgets everything for good: every later lookup misses (the store is closing).
  func close() {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    closed = true
    dropAllLocked()
  }

  /// Forgets everything and turns away every fill in flight.
  func dropAll() {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    dropAllLocked()
  }

  /// How many keys memory knows, and how lookups went (for tests and metrics).
  var statistics: (entries: Int, hits: Int64, misses: Int64) {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    return (entries.count, hitCount, missCount)
  }

  private func dropAllLocked() {
    hasLast = false
    entries.removeAll()
    epoch &+= 1
  }
}
