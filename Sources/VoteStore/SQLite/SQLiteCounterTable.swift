/// The store's SQL, run on one connection inside whatever transaction the caller holds.
///
/// Every value is bound; the SQL texts are constants, so each is prepared once per connection
/// and reused from its statement cache.
struct SQLiteCounterTable {
  let db: SQLiteConnection

  static let columns =
    "id, namespace, key, value, enable_reset, lower, upper, created_ms, updated_ms"

  static func record(_ row: SQLiteStatement) -> CounterRecord {
    CounterRecord(
      id: row.int64(0), namespace: row.text(1), key: row.text(2), value: row.int64(3),
      enableReset: row.int64(4) != 0, updateLowerBound: row.int64(5),
      updateUpperBound: row.int64(6), createdAt: row.int64(7), updatedAt: row.int64(8))
  }

  // MARK: Reads

  func record(namespace: String, key: String) throws(VoteStoreError) -> CounterRecord? {
    try db.statement(
      "SELECT \(Self.columns) FROM counters WHERE namespace = ?1 AND key = ?2"
    ).firstRow([.text(namespace), .text(key)]) { row in Self.record(row) }
  }

  func values(namespace: String, keys: [String]) throws(VoteStoreError) -> CounterValues {
    let statement = try db.statement(
      "SELECT value FROM counters WHERE namespace = ?1 AND key = ?2")
    var values = CounterValues()
    for key in keys where values[key] == nil {
      if let value = try statement.firstRow([.text(namespace), .text(key)], { $0.int64(0) }) {
        values[key] = value
      }
    }
    return values
  }

  func statistics() throws(VoteStoreError) -> StoreStatistics {
    let counters = try db.statement("SELECT count(*) FROM counters").firstRow { $0.int64(0) }
    let voters = try db.statement("SELECT count(*) FROM voters").firstRow { $0.int64(0) }
    let updates = try db.statement(
      """
      SELECT (SELECT value FROM meta WHERE name = 'updates')
        + (SELECT coalesce(sum(updates), 0) FROM counters)
      """
    ).firstRow { $0.int64(0) }
    return StoreStatistics(counters: counters ?? 0, updates: updates ?? 0, voters: voters ?? 0)
  }

  func exportAll() throws(VoteStoreError) -> VoteExport {
    let records = try db.statement(
      "SELECT \(Self.columns), imported FROM counters ORDER BY namespace, key"
    ).rows { row in (Self.record(row), row.optionalInt64(9)) }
    var voters: [Int64: [String]] = [:]
    let pairs = try db.statement("SELECT counter_id, voter FROM voters ORDER BY counter_id, voter")
      .rows { row in (row.int64(0), row.text(1)) }
    for (id, voter) in pairs { voters[id, default: []].append(voter) }
    return VoteExport(
      counters: records.map { record, imported in
        VoteExport.Counter(record: record, voters: voters[record.id] ?? [], imported: imported)
      })
  }

  // MARK: Writes

  /// Inserts a counter; nil when (namespace, key) exists.
  func insert(
    _ creation: CounterCreation, now: Int64
  ) throws(VoteStoreError) -> CounterRecord? {
    try db.statement(
      """
      INSERT INTO counters (namespace, key, value, anonymous, enable_reset, lower, upper,
        created_ms, updated_ms)
      VALUES (?1, ?2, ?3, ?3, ?4, ?5, ?6, ?7, ?7) ON CONFLICT (namespace, key) DO NOTHING
      """
    ).run([
      .text(creation.namespace), .text(creation.key), .integer(max(0, creation.value)),
      .bool(creation.enableReset), .integer(creation.updateLowerBound),
      .integer(creation.updateUpperBound), .integer(now),
    ])
    guard db.changes == 1 else { return nil }
    return CounterRecord(
      id: db.lastInsertRowID, namespace: creation.namespace, key: creation.key,
      value: max(0, creation.value), enableReset: creation.enableReset,
      updateLowerBound: creation.updateLowerBound, updateUpperBound: creation.updateUpperBound,
      createdAt: now, updatedAt: now)
  }

  /// The counter with its anonymous part, for a write.
  private func tallied(
    namespace: String, key: String
  ) throws(VoteStoreError) -> (record: CounterRecord, tally: CounterTally)? {
    try db.statement(
      "SELECT \(Self.columns), anonymous FROM counters WHERE namespace = ?1 AND key = ?2"
    ).firstRow([.text(namespace), .text(key)]) { row in
      let record = Self.record(row)
      return (record, CounterTally(value: record.value, anonymous: row.int64(9)))
    }
  }

  /// The counter for a write, created from `creation` when missing and one is given.
  private func target(
    namespace: String, key: String, creation: CounterCreation?, now: Int64
  ) throws(VoteStoreError) -> (record: CounterRecord, tally: CounterTally, created: Bool)? {
    if let (record, tally) = try tallied(namespace: namespace, key: key) {
      return (record, tally, false)
    }
    guard var creation else { return nil }
    creation.namespace = namespace
    creation.key = key
    guard let inserted = try insert(creation, now: now) else {
      throw VoteStoreError(.other, "\(db.path): counter vanished while being created")
    }
    return (inserted, CounterTally(anonymous: inserted.value, identified: 0), true)
  }

  func apply(_ mutation: CounterMutation, now: Int64) throws(VoteStoreError) -> MutationResult {
    guard
      let (found, tally, created) = try target(
        namespace: mutation.namespace, key: mutation.key, creation: mutation.createIfMissing,
        now: now)
    else {
      return MutationResult(outcome: .missing, record: nil)
    }
    var record = found
    var hasVoted: Bool?
    if let voter = mutation.voter, mutation.delta != 0 {
      hasVoted =
        try db.statement("SELECT 1 FROM voters WHERE counter_id = ?1 AND voter = ?2")
        .firstRow([.integer(record.id), .text(voter)]) { _ in true } ?? false
    }
    let decision = try VoteDecision.apply(
      delta: mutation.delta, voterHasVoted: hasVoted, checkBounds: mutation.checkBounds,
      lower: record.updateLowerBound, upper: record.updateUpperBound, to: tally)
    guard decision.changes else {
      return MutationResult(outcome: decision.outcome, record: record, created: created)
    }
    try carryOut(decision, on: record.id, voter: mutation.voter, now: now)
    record.value = decision.tally.value
    record.updatedAt = now
    return MutationResult(outcome: decision.outcome, record: record, created: created)
  }

  /// Applies `mutations` in order, each as ``apply(_:now:)`` would, with one result each.
  ///
  /// They are the votes of one batch on one counter (see ``SQLiteVoteStore/submitBatch(_:completion:)``).
  /// Anonymous increments of a counter that exists and has room for all of them, without
  /// bounds to check, are applied with one read and one write for the lot (what applying
  /// them one by one would leave, each answered with the count it reached). Otherwise each
  /// runs in a savepoint of its own, so a refused one (``VoteStoreError/isRefusal``) is
  /// undone and answered alone; any other error fails them all (the writer then undoes the
  /// whole unit).
  func applyInOrder(
    _ mutations: [CounterMutation], now: Int64
  ) throws(VoteStoreError) -> [Result<MutationResult, VoteStoreError>] {
    if mutations.count == 1 { return [.success(try apply(mutations[0], now: now))] }
    if let results = try addAnonymously(mutations, now: now) { return results.map { .success($0) } }
    var results: [Result<MutationResult, VoteStoreError>] = []
    results.reserveCapacity(mutations.count)
    for mutation in mutations {
      try db.statement("SAVEPOINT vote").run()
      do throws(VoteStoreError) {
        results.append(.success(try apply(mutation, now: now)))
      } catch {
        guard error.isRefusal, !db.isAutocommit else { throw error }
        try db.statement("ROLLBACK TO vote").run()
        results.append(.failure(error))
      }
      try db.statement("RELEASE vote").run()
    }
    return results
  }

  /// The anonymous increments `mutations` of one counter with one read and one write, when
  /// they can all apply (see ``applyInOrder(_:now:)``); nil, with nothing changed, otherwise.
  private func addAnonymously(
    _ mutations: [CounterMutation], now: Int64
  ) throws(VoteStoreError) -> [MutationResult]? {
    guard let first = mutations.first,
      mutations.allSatisfy({
        $0.voter == nil && $0.delta > 0 && !$0.checkBounds && $0.namespace == first.namespace
          && $0.key == first.key
      })
    else { return nil }
    guard let (found, tally) = try tallied(namespace: first.namespace, key: first.key) else {
      return nil
    }
    var total: Int64 = 0
    for mutation in mutations {
      let (sum, overflow) = total.addingReportingOverflow(mutation.delta)
      guard !overflow, sum <= CounterLimits.maximum - tally.value else { return nil }
      total = sum
    }
    try db.statement(
      """
      UPDATE counters SET value = ?2, anonymous = ?3, updated_ms = ?4, updates = updates + ?5
      WHERE id = ?1
      """
    ).run([
      .integer(found.id), .integer(tally.value + total), .integer(tally.anonymous + total),
      .integer(now), .integer(Int64(mutations.count)),
    ])
    var record = found
    record.updatedAt = now
    var results: [MutationResult] = []
    results.reserveCapacity(mutations.count)
    for mutation in mutations {
      record.value += mutation.delta
      results.append(MutationResult(outcome: .applied, record: record, created: false))
    }
    return results
  }

  /// Writes a decision: the voter set change, the tally, the updated time, one update.
  private func carryOut(
    _ decision: VoteDecision, on id: Int64, voter: String?, now: Int64
  ) throws(VoteStoreError) {
    switch (decision.voterChange, voter) {
    case (.record, let voter?):
      try db.statement("INSERT INTO voters (counter_id, voter) VALUES (?1, ?2)")
        .run([.integer(id), .text(voter)])
    case (.remove, let voter?):
      try db.statement("DELETE FROM voters WHERE counter_id = ?1 AND voter = ?2")
        .run([.integer(id), .text(voter)])
    case (.removeAll, _):
      try db.statement("DELETE FROM voters WHERE counter_id = ?1").run([.integer(id)])
    default:
      break
    }
    // One statement, one page: the update is counted on the counter's own row.
    try db.statement(
      """
      UPDATE counters SET value = ?2, anonymous = ?3, updated_ms = ?4, updates = updates + 1
      WHERE id = ?1
      """
    ).run([
      .integer(id), .integer(decision.tally.value), .integer(decision.tally.anonymous),
      .integer(now),
    ])
  }

  func set(
    namespace: String, key: String, value: Int64, createIfMissing: CounterCreation?, now: Int64
  ) throws(VoteStoreError) -> (old: Int64, record: CounterRecord)? {
    guard
      let (found, tally, _) = try target(
        namespace: namespace, key: key, creation: createIfMissing, now: now)
    else { return nil }
    var record = found
    let decision = try VoteDecision.set(value: value, on: tally)
    try carryOut(decision, on: record.id, voter: nil, now: now)
    let old = record.value
    record.value = decision.tally.value
    record.updatedAt = now
    return (old, record)
  }

  func importAll(_ export: VoteExport, replace: Bool) throws(VoteStoreError) -> ImportSummary {
    var summary = ImportSummary(imported: 0, skipped: 0)
    for counter in export.counters { try importCounter(counter, replace: replace, into: &summary) }
    return summary
  }

  /// Writes one counter of an import (checked, its voters as the store keeps them), counting
  /// it in `summary`.
  func importCounter(
    _ counter: VoteExport.Counter, replace: Bool, into summary: inout ImportSummary
  ) throws(VoteStoreError) {
    let incoming = counter.record
    // Validated before: the voters are distinct and no more than the count.
    let anonymous = max(0, incoming.value - Int64(counter.voters.count))
    let id: Int64
    if let existing = try record(namespace: incoming.namespace, key: incoming.key) {
      guard replace else {
        summary.skipped += 1
        return
      }
      id = existing.id
      try db.statement(
        """
        UPDATE counters SET value = ?2, enable_reset = ?3, lower = ?4, upper = ?5,
          created_ms = ?6, updated_ms = ?7, anonymous = ?8, imported = ?9 WHERE id = ?1
        """
      ).run([
        .integer(id), .integer(incoming.value), .bool(incoming.enableReset),
        .integer(incoming.updateLowerBound), .integer(incoming.updateUpperBound),
        .integer(incoming.createdAt), .integer(incoming.updatedAt), .integer(anonymous),
        counter.imported.map { .integer($0) } ?? .null,
      ])
      try db.statement("DELETE FROM voters WHERE counter_id = ?1").run([.integer(id)])
    } else {
      // Keep the exported id when it is free, so counterapi ids survive a move.
      try db.statement(
        """
        INSERT INTO counters (id, namespace, key, value, enable_reset, lower, upper,
          created_ms, updated_ms, anonymous, imported)
        VALUES ((SELECT CASE WHEN count(*) = 0 AND ?1 > 0 THEN ?1 END
                 FROM counters WHERE id = ?1), ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
        """
      ).run([
        .integer(incoming.id), .text(incoming.namespace), .text(incoming.key),
        .integer(incoming.value), .bool(incoming.enableReset),
        .integer(incoming.updateLowerBound), .integer(incoming.updateUpperBound),
        .integer(incoming.createdAt), .integer(incoming.updatedAt), .integer(anonymous),
        counter.imported.map { .integer($0) } ?? .null,
      ])
      id = db.lastInsertRowID
    }
    let insertVoter = try db.statement(
      "INSERT INTO voters (counter_id, voter) VALUES (?1, ?2) ON CONFLICT DO NOTHING")
    for voter in counter.voters { try insertVoter.run([.integer(id), .text(voter)]) }
    summary.imported += 1
  }
}

extension SQLiteCounterTable {
  /// Applies the votes of a gathering (``VoteGatherer``): each counter's (`units`, indices into
  /// `mutations` in their order) as ``applyInOrder(_:now:)`` does, the results in the order of
  /// `mutations`.
  ///
  /// The counters run straight, inside one savepoint for the lot. A counter whose lone write is
  /// refused (``VoteStoreError/isRefusal``) undoes the lot, which runs again with a savepoint per
  /// counter, so that only the refused counter's votes fail. Any other error fails them all
  /// (the writer undoes the unit).
  func applyGathered(
    _ mutations: [CounterMutation], units: [[Int]], now: Int64
  ) throws(VoteStoreError) -> [Result<MutationResult, VoteStoreError>] {
    if units.count == 1 {
      // One counter: applyInOrder answers a refusal of one of several votes itself, and a
      // lone vote's refusal is the unit's own.
      return try applyInOrder(mutations, now: now)
    }
    try db.statement("SAVEPOINT gathered").run()
    do throws(VoteStoreError) {
      let results = try applyUnits(mutations, units: units, now: now, careful: false)
      try db.statement("RELEASE gathered").run()
      return results
    } catch  where error.isRefusal && !db.isAutocommit {
      try db.statement("ROLLBACK TO gathered").run()
      let results = try applyUnits(mutations, units: units, now: now, careful: true)
      try db.statement("RELEASE gathered").run()
      return results
    }
  }

  /// Each unit's votes through ``applyInOrder(_:now:)``; `careful`: each in a savepoint, a
  /// refused one answered with its refusal.
  private func applyUnits(
    _ mutations: [CounterMutation], units: [[Int]], now: Int64, careful: Bool
  ) throws(VoteStoreError) -> [Result<MutationResult, VoteStoreError>] {
    var results = [Result<MutationResult, VoteStoreError>](
      repeating: .failure(.closed), count: mutations.count)
    for unit in units {
      let votes = units.count == 1 ? mutations : unit.map { mutations[$0] }
      guard careful else {
        for (index, result) in zip(unit, try applyInOrder(votes, now: now)) {
          results[index] = result
        }
        continue
      }
      try db.statement("SAVEPOINT counter").run()
      do throws(VoteStoreError) {
        for (index, result) in zip(unit, try applyInOrder(votes, now: now)) {
          results[index] = result
        }
        try db.statement("RELEASE counter").run()
      } catch  where error.isRefusal && !db.isAutocommit {
        try db.statement("ROLLBACK TO counter").run()
        try db.statement("RELEASE counter").run()
        for index in unit { results[index] = .failure(error) }
      }
    }
    return results
  }
}
