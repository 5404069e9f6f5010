/// The PostgreSQL store's SQL on one connection. Every value is bound ($1…), never spliced.
///
/// Writes that read a counter first lock its row (`FOR UPDATE`, or the no-op
/// `ON CONFLICT … DO UPDATE` that creates-or-locks in one statement), so concurrent service
/// instances never lose an update or count a voter twice.
struct PostgresCounterTable {
  let db: PostgresConnection

  static let columns =
    "id, namespace, key, value, enable_reset, lower, upper, created_ms, updated_ms"

  static func record(_ row: [String?]) -> CounterRecord {
    CounterRecord(
      id: PostgresText.int64(row[0]), namespace: row[1] ?? "", key: row[2] ?? "",
      value: PostgresText.int64(row[3]), enableReset: PostgresText.bool(row[4]),
      updateLowerBound: PostgresText.int64(row[5]), updateUpperBound: PostgresText.int64(row[6]),
      createdAt: PostgresText.int64(row[7]), updatedAt: PostgresText.int64(row[8]))
  }

  private static func creationParameters(
    _ creation: CounterCreation, namespace: String, key: String, now: Int64
  ) -> [String?] {
    [
      namespace, key, String(max(0, creation.value)), PostgresText.bool(creation.enableReset),
      String(creation.updateLowerBound), String(creation.updateUpperBound), String(now),
    ]
  }

  // MARK: Reads

  func record(namespace: String, key: String) throws(VoteStoreError) -> CounterRecord? {
    try db.query(
      "SELECT \(Self.columns) FROM counters WHERE namespace = $1 AND key = $2",
      [namespace, key]
    ).first.map(Self.record)
  }

  func values(namespace: String, keys: [String]) throws(VoteStoreError) -> CounterValues {
    guard !keys.isEmpty else { return [:] }
    let rows = try db.query(
      "SELECT key, value FROM counters WHERE namespace = $1 AND key = ANY ($2::text[])",
      [namespace, PostgresText.array(keys)]
    ).rows
    var values = CounterValues()
    for row in rows { values[row[0] ?? ""] = PostgresText.int64(row[1]) }
    return values
  }

  func statistics() throws(VoteStoreError) -> StoreStatistics {
    let row = try db.query(
      """
      SELECT (SELECT count(*) FROM counters),
             (SELECT COALESCE(sum(value), 0) FROM meta WHERE name LIKE 'updates:%')
               + (SELECT COALESCE(sum(updates), 0) FROM counters),
             (SELECT count(*) FROM voters)
      """
    ).first
    return StoreStatistics(
      counters: PostgresText.int64(row?[0]), updates: PostgresText.int64(row?[1]),
      voters: PostgresText.int64(row?[2]))
  }

  func counterCount() throws(VoteStoreError) -> Int64 {
    PostgresText.int64(try db.query("SELECT count(*) FROM counters").first?[0])
  }

  func exportAll() throws(VoteStoreError) -> VoteExport {
    try db.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
      () throws(VoteStoreError) in
      let rows = try db.query(
        "SELECT \(Self.columns), imported FROM counters "
          + "ORDER BY namespace COLLATE \"C\", key COLLATE \"C\""
      ).rows
      var voters: [Int64: [String]] = [:]
      for row in try db.query(
        "SELECT counter_id, voter FROM voters ORDER BY counter_id, voter COLLATE \"C\""
      ).rows {
        voters[PostgresText.int64(row[0]), default: []].append(row[1] ?? "")
      }
      return VoteExport(
        counters: rows.map { row in
          let record = Self.record(row)
          return VoteExport.Counter(
            record: record, voters: voters[record.id] ?? [],
            imported: row[9].flatMap { Int64($0) })
        })
    }
  }

  // MARK: Writes

  func insert(_ creation: CounterCreation, now: Int64) throws(VoteStoreError) -> CounterRecord? {
    try db.query(
      """
      INSERT INTO counters (namespace, key, value, anonymous, enable_reset, lower, upper,
        created_ms, updated_ms)
      VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $7) ON CONFLICT (namespace, key) DO NOTHING
      RETURNING \(Self.columns)
      """,
      Self.creationParameters(
        creation, namespace: creation.namespace, key: creation.key, now: now)
    ).first.map(Self.record)
  }

  /// The counter, locked until the transaction ends; created first from `creation` if given.
  private func lockedRecord(
    namespace: String, key: String, creation: CounterCreation?, now: Int64
  ) throws(VoteStoreError) -> (record: CounterRecord, tally: CounterTally, created: Bool)? {
    guard let creation else {
      return try db.query(
        """
        SELECT \(Self.columns), anonymous FROM counters WHERE namespace = $1 AND key = $2
        FOR UPDATE
        """,
        [namespace, key]
      ).first.map { row in
        let record = Self.record(row)
        return (
          record, CounterTally(value: record.value, anonymous: PostgresText.int64(row[9])), false
        )
      }
    }
    guard
      let row = try db.query(
        """
        INSERT INTO counters (namespace, key, value, anonymous, enable_reset, lower, upper,
          created_ms, updated_ms)
        VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $7)
        ON CONFLICT (namespace, key) DO UPDATE SET value = counters.value
        RETURNING \(Self.columns), (xmax = 0) AS inserted, anonymous
        """,
        Self.creationParameters(creation, namespace: namespace, key: key, now: now)
      ).first
    else {
      throw VoteStoreError(.other, "PostgreSQL returned no row for an upsert")
    }
    let record = Self.record(row)
    return (
      record, CounterTally(value: record.value, anonymous: PostgresText.int64(row[10])),
      PostgresText.bool(row[9])
    )
  }

  /// Writes a decision: the voter set change, the tally, the updated time, one update.
  private func carryOut(
    _ decision: VoteDecision, on id: Int64, voter: String?, now: Int64
  ) throws(VoteStoreError) {
    switch (decision.voterChange, voter) {
    case (.record, let voter?):
      try db.query(
        "INSERT INTO voters (counter_id, voter) VALUES ($1, $2)", [String(id), voter])
    case (.remove, let voter?):
      try db.query(
        "DELETE FROM voters WHERE counter_id = $1 AND voter = $2", [String(id), voter])
    case (.removeAll, _):
      try db.query("DELETE FROM voters WHERE counter_id = $1", [String(id)])
    default:
      break
    }
    try db.query(
      """
      UPDATE counters SET value = $2, anonymous = $3, updated_ms = $4, updates = updates + 1
      WHERE id = $1
      """,
      [
        String(id), String(decision.tally.value), String(decision.tally.anonymous), String(now),
      ])
  }

  func apply(_ mutation: CounterMutation, now: Int64) throws(VoteStoreError) -> MutationResult {
    try db.transaction { () throws(VoteStoreError) in
      guard
        let (found, tally, created) = try lockedRecord(
          namespace: mutation.namespace, key: mutation.key,
          creation: mutation.createIfMissing, now: now)
      else {
        return MutationResult(outcome: .missing, record: nil)
      }
      var record = found
      var hasVoted: Bool?
      if let voter = mutation.voter, mutation.delta != 0 {
        hasVoted =
          !(try db.query(
            "SELECT 1 FROM voters WHERE counter_id = $1 AND voter = $2", [String(record.id), voter]
          ).rows.isEmpty)
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
  }

  func set(
    namespace: String, key: String, value: Int64, createIfMissing: CounterCreation?, now: Int64
  ) throws(VoteStoreError) -> (old: Int64, record: CounterRecord)? {
    try db.transaction { () throws(VoteStoreError) in
      guard
        let (found, tally, _) = try lockedRecord(
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
  }

  /// Loads an export in one transaction.
  func importAll(_ export: VoteExport, replace: Bool) throws(VoteStoreError) -> ImportSummary {
    try db.transaction { () throws(VoteStoreError) in try importRows(export, replace: replace) }
  }

  /// Loads an export inside the caller's transaction.
  func importRows(_ export: VoteExport, replace: Bool) throws(VoteStoreError) -> ImportSummary {
    var summary = ImportSummary(imported: 0, skipped: 0)
    for counter in export.counters { try importCounter(counter, replace: replace, into: &summary) }
    try finishImport()
    return summary
  }

  /// Writes one counter of an import (checked, its voters as the store keeps them) inside the
  /// caller's transaction, counting it in `summary`; ``finishImport()`` follows the last.
  func importCounter(
    _ counter: VoteExport.Counter, replace: Bool, into summary: inout ImportSummary
  ) throws(VoteStoreError) {
    let onConflict =
      replace
      ? """
      DO UPDATE SET value = EXCLUDED.value, anonymous = EXCLUDED.anonymous,
        imported = EXCLUDED.imported, enable_reset = EXCLUDED.enable_reset,
        lower = EXCLUDED.lower, upper = EXCLUDED.upper, created_ms = EXCLUDED.created_ms,
        updated_ms = EXCLUDED.updated_ms
      """ : "DO NOTHING"
    let incoming = counter.record
    // Keep the exported id when it is free, so counterapi ids survive a move.
    guard
      let row = try db.query(
        """
        INSERT INTO counters (id, namespace, key, value, enable_reset, lower, upper,
          created_ms, updated_ms, anonymous, imported)
        VALUES (CASE WHEN $1::bigint > 0
                      AND NOT EXISTS (SELECT 1 FROM counters WHERE id = $1::bigint)
                     THEN $1::bigint ELSE nextval('counters_id_seq') END,
                $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::bigint)
        ON CONFLICT (namespace, key) \(onConflict)
        RETURNING id, (xmax = 0) AS inserted
        """,
        [
          String(incoming.id), incoming.namespace, incoming.key, String(incoming.value),
          PostgresText.bool(incoming.enableReset), String(incoming.updateLowerBound),
          String(incoming.updateUpperBound), String(incoming.createdAt),
          String(incoming.updatedAt),
          // Validated before: the voters are distinct and no more than the count.
          String(max(0, incoming.value - Int64(counter.voters.count))),
          counter.imported.map { String($0) },
        ]
      ).first
    else {
      summary.skipped += 1
      return
    }
    let id = row[0] ?? "0"
    if !PostgresText.bool(row[1]) {
      try db.query("DELETE FROM voters WHERE counter_id = $1", [id])
    }
    if !counter.voters.isEmpty {
      try db.query(
        """
        INSERT INTO voters (counter_id, voter) SELECT $1::bigint, unnest($2::text[])
        ON CONFLICT DO NOTHING
        """,
        [id, PostgresText.array(counter.voters)])
    }
    summary.imported += 1
  }

  /// Moves the id sequence past the ids an import kept.
  func finishImport() throws(VoteStoreError) {
    try db.query(
      """
      SELECT setval('counters_id_seq', GREATEST((SELECT COALESCE(max(id), 1) FROM counters),
                                                (SELECT last_value FROM counters_id_seq)))
      """)
  }
}
