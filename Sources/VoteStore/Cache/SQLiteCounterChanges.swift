import CSQLite
import Foundation

/// Follows the counter rows one writer connection changes (through SQLite's update hook) and
/// publishes them to a ``CounterCache`` after each commit, before the commit's callers are
/// answered.
///
/// Confined to its writer thread, like the connection it watches.
final class SQLiteCounterChanges: @unchecked Sendable {
  /// A transaction that changed more rows than this empties the cache instead of re-reading
  /// them one by one (an import, a restore).
  static let maximumRows = 512

  let cache: CounterCache
  private var changed: Set<Int64> = []
  private var overflowed = false

  /// Creates a tracker that publishes to `cache`.
  init(cache: CounterCache) {
    self.cache = cache
  }

  /// Installs the update hook on `connection`, which must not outlive this tracker.
  func attach(to connection: SQLiteConnection) {
    let context = Unmanaged.passUnretained(self).toOpaque()
    sqlite3_update_hook(
      connection.handle,
      { context, operation, _, table, rowid in
        guard let context, let table, strcmp(table, "counters") == 0 else { return }
        let changes = Unmanaged<SQLiteCounterChanges>.fromOpaque(context).takeUnretainedValue()
        changes.noteChange(rowid, deleted: operation == SQLITE_DELETE)
      }, context)
  }

  private func noteChange(_ rowid: Int64, deleted: Bool) {
    guard !overflowed else { return }
    if deleted || changed.count >= Self.maximumRows {
      overflowed = true
      changed.removeAll()
    } else {
      changed.insert(rowid)
    }
  }

  /// Called just before `COMMIT`: from here to ``committed(_:)`` or ``notCommitted()`` no
  /// other writer publishes.
  func willCommit() {
    cache.beginPublishing()
  }

  /// Called after a successful `COMMIT`: re-reads the changed rows and publishes them.
  func committed(_ connection: SQLiteConnection) {
    defer { finish() }
    guard !overflowed else {
      cache.dropAll()
      return
    }
    guard !changed.isEmpty else { return }
    do throws(VoteStoreError) {
      let records = try SQLiteCounterTable(db: connection).records(ids: changed)
      cache.publish(records)
    } catch {
      // What memory holds may now be older than the database: forget it.
      cache.dropAll()
    }
  }

  /// Called when a transaction was rolled back before its commit began: forgets the rows
  /// it noted (they are as they were).
  func discard() {
    changed.removeAll(keepingCapacity: true)
    overflowed = false
  }

  /// Called when the transaction did not commit (its changes are gone).
  func notCommitted() {
    finish()
  }

  private func finish() {
    changed.removeAll(keepingCapacity: true)
    overflowed = false
    cache.endPublishing()
  }
}
