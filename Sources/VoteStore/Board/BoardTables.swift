/// Every read and write of the board tables, on one connection inside the caller's
/// transaction (the store's ``BoardStore/read(_:)`` or ``BoardStore/write(_:)``).
///
/// The SQL is written once for both databases (see ``BoardSQL``); every value is bound. The
/// counter queries at the end read the counters' own tables, so that a feature's votes are
/// its counter's, whichever route voted.
public struct BoardTables {
  let db: any BoardSQL
  /// The store's voter key: voter ids are kept as its hashes.
  let voterKey: VoterKey
  /// Where a write notes what it touched, for the store's write observers; nil in reads.
  var log: BoardWriteLog? = nil

  /// Notes that `project`'s published board changes (a suggestion or id sequence alone is
  /// not noted: nothing kept in memory reads them).
  private func touched(_ project: String) { log?.touched(project) }

  // MARK: Projects

  /// The project, or nil before its first admin call.
  public func project(_ project: String) throws(VoteStoreError) -> BoardProjectRow? {
    try db.first(
      "SELECT project, settings, created_ms FROM vf_projects WHERE project = ?1", [.text(project)]
    ).map { row in
      BoardProjectRow(
        project: row[0].text ?? "", settings: row[1].text ?? "", createdAt: row[2].integer ?? 0)
    }
  }

  /// Makes the rest of this write wait until no other write of `project` is in progress,
  /// and keeps others waiting until it commits or rolls back: call it first in a write that
  /// reads what it then decides on (a suggestion still pending, a stage or a ref not there
  /// yet), so that two such writes at once run one after the other, on every instance of a
  /// shared database. On PostgreSQL a transaction-level advisory lock (each statement after
  /// it sees what the writes before committed); on SQLite nothing, as its one writer runs
  /// writes one at a time.
  public func lockProject(_ project: String) throws(VoteStoreError) {
    try db.lockProject(project)
  }

  /// Creates the project; false (nothing changed) when it exists.
  @discardableResult
  public func createProject(_ row: BoardProjectRow) throws(VoteStoreError) -> Bool {
    touched(row.project)
    return try db.run(
      """
      INSERT INTO vf_projects (project, settings, created_ms) VALUES (?1, ?2, ?3)
      ON CONFLICT (project) DO NOTHING
      """, [.text(row.project), .text(row.settings), .integer(row.createdAt)]) == 1
  }

  /// Replaces the project's settings document.
  public func updateSettings(_ project: String, _ settings: String) throws(VoteStoreError) {
    touched(project)
    try db.run(
      "UPDATE vf_projects SET settings = ?2 WHERE project = ?1", [.text(project), .text(settings)])
  }

  /// Whether the project has no features, stages, tags, releases or suggestions (boards
  /// other than the roadmap board count too).
  public func isEmpty(_ project: String) throws(VoteStoreError) -> Bool {
    var tables = ["vf_features"]
    tables += BoardItemKind.allCases.filter { $0 != .board }.map(\.table)
    for table in tables {
      if try db.first("SELECT 1 FROM \(table) WHERE project = ?1 LIMIT 1", [.text(project)]) != nil
      {
        return false
      }
    }
    return try db.first(
      "SELECT count(*) FROM vf_boards WHERE project = ?1", [.text(project)])?[0].integer ?? 0 <= 1
  }

  /// Every project id, sorted.
  public func projects() throws(VoteStoreError) -> [String] {
    try db.rows("SELECT project FROM vf_projects ORDER BY project", []).compactMap { $0[0].text }
  }

  // MARK: Ids

  /// A new id for `kind` (`feature`, `stage`, …) in the project: never handed out before.
  public func nextID(_ project: String, _ kind: String) throws(VoteStoreError) -> Int64 {
    let row = try db.first(
      """
      INSERT INTO vf_sequences (project, kind, next_id) VALUES (?1, ?2, 2)
      ON CONFLICT (project, kind) DO UPDATE SET next_id = vf_sequences.next_id + 1
      RETURNING next_id - 1
      """, [.text(project), .text(kind)])
    guard let id = row?[0].integer else {
      throw VoteStoreError(.other, "no id allocated for \(kind) in \(project)")
    }
    return id
  }

  /// `count` new ids for `kind` in the project, in one statement: the first of them.
  public func nextIDs(_ project: String, _ kind: String, count: Int64) throws(VoteStoreError)
    -> Int64
  {
    let row = try db.first(
      """
      INSERT INTO vf_sequences (project, kind, next_id) VALUES (?1, ?2, ?3 + 1)
      ON CONFLICT (project, kind) DO UPDATE SET next_id = vf_sequences.next_id + ?3
      RETURNING next_id - ?3
      """, [.text(project), .text(kind), .integer(max(1, count))])
    guard let first = row?[0].integer else {
      throw VoteStoreError(.other, "no ids allocated for \(kind) in \(project)")
    }
    return first
  }

  /// Makes sure ids handed out later for `kind` are above `id` (after an import kept ids).
  public func reserveID(_ project: String, _ kind: String, atLeast id: Int64) throws(VoteStoreError)
  {
    try db.run(
      """
      INSERT INTO vf_sequences (project, kind, next_id) VALUES (?1, ?2, ?3)
      ON CONFLICT (project, kind) DO UPDATE SET next_id = CASE
        WHEN vf_sequences.next_id > excluded.next_id THEN vf_sequences.next_id ELSE excluded.next_id END
      """, [.text(project), .text(kind), .integer(id + 1)])
  }

  /// Every id sequence of every project.
  public func sequences() throws(VoteStoreError) -> [BoardBackup.Sequence] {
    try db.rows(
      "SELECT project, kind, next_id FROM vf_sequences ORDER BY project, kind", []
    ).map { row in
      BoardBackup.Sequence(
        project: row[0].text ?? "", kind: row[1].text ?? "", next: row[2].integer ?? 1)
    }
  }

  // MARK: Boards, stages, tags, releases, suggestions

  private static func item(_ row: [BoardValue]) -> BoardItemRow {
    BoardItemRow(
      project: row[0].text ?? "", id: row[1].integer ?? 0, key: row[2].text ?? "",
      sort: row[3].integer ?? 0, doc: row[4].text ?? "")
  }

  /// Every object of `kind` in the project, by `sort` then id.
  public func items(_ kind: BoardItemKind, _ project: String) throws(VoteStoreError)
    -> [BoardItemRow]
  {
    try db.rows(
      "SELECT project, id, key, sort, doc FROM \(kind.table) WHERE project = ?1 ORDER BY sort, id",
      [.text(project)]
    ).map(Self.item)
  }

  /// At most `limit` objects of `kind` in the project, by `sort` then id, starting after the
  /// position `after` (a `sort` and an id) and only those whose key is `key` when given: one
  /// page of a listing that cannot be read whole in one answer (suggestions).
  public func items(
    _ kind: BoardItemKind, _ project: String, key: String?, after: (sort: Int64, id: Int64)?,
    limit: Int
  ) throws(VoteStoreError) -> [BoardItemRow] {
    var conditions = ["project = ?1"]
    var values: [BoardValue] = [.text(project)]
    if let key {
      values.append(.text(key))
      conditions.append("key = ?\(values.count)")
    }
    if let after {
      values.append(.integer(after.sort))
      let sort = values.count
      values.append(.integer(after.id))
      conditions.append("(sort > ?\(sort) OR (sort = ?\(sort) AND id > ?\(values.count)))")
    }
    values.append(.integer(Int64(max(0, limit))))
    return try db.rows(
      """
      SELECT project, id, key, sort, doc FROM \(kind.table)
      WHERE \(conditions.joined(separator: " AND ")) ORDER BY sort, id LIMIT ?\(values.count)
      """, values
    ).map(Self.item)
  }

  /// How many objects of `kind` in the project have the key `key` (pending suggestions).
  public func count(_ kind: BoardItemKind, _ project: String, key: String) throws(VoteStoreError)
    -> Int64
  {
    try db.first(
      "SELECT count(*) FROM \(kind.table) WHERE project = ?1 AND key = ?2",
      [.text(project), .text(key)]
    )?[0].integer ?? 0
  }

  /// The object `id` of `kind`, or nil.
  public func item(_ kind: BoardItemKind, _ project: String, id: Int64) throws(VoteStoreError)
    -> BoardItemRow?
  {
    try db.first(
      "SELECT project, id, key, sort, doc FROM \(kind.table) WHERE project = ?1 AND id = ?2",
      [.text(project), .integer(id)]
    ).map(Self.item)
  }

  /// The first object of `kind` whose key is `key` (a board by slug), or nil.
  public func item(_ kind: BoardItemKind, _ project: String, key: String) throws(VoteStoreError)
    -> BoardItemRow?
  {
    try db.first(
      """
      SELECT project, id, key, sort, doc FROM \(kind.table)
      WHERE project = ?1 AND key = ?2 ORDER BY id LIMIT 1
      """, [.text(project), .text(key)]
    ).map(Self.item)
  }

  /// Stores the object (insert or replace by project and id).
  public func put(_ kind: BoardItemKind, _ row: BoardItemRow) throws(VoteStoreError) {
    if kind != .suggestion { touched(row.project) }
    try db.run(
      """
      INSERT INTO \(kind.table) (project, id, key, sort, doc) VALUES (?1, ?2, ?3, ?4, ?5)
      ON CONFLICT (project, id) DO UPDATE
        SET key = excluded.key, sort = excluded.sort, doc = excluded.doc
      """,
      [.text(row.project), .integer(row.id), .text(row.key), .integer(row.sort), .text(row.doc)])
  }

  /// Deletes the object; false when there was none.
  @discardableResult
  public func delete(_ kind: BoardItemKind, _ project: String, id: Int64) throws(VoteStoreError)
    -> Bool
  {
    if kind != .suggestion { touched(project) }
    return try db.run(
      "DELETE FROM \(kind.table) WHERE project = ?1 AND id = ?2", [.text(project), .integer(id)])
      == 1
  }

  // MARK: Features

  private static let featureColumns =
    "project, id, ref, counter_key, board, stage, tags, search, comments, created_ms, doc"

  private static func feature(_ row: [BoardValue]) -> BoardFeatureRow {
    BoardFeatureRow(
      project: row[0].text ?? "", id: row[1].integer ?? 0, ref: row[2].text,
      counterKey: row[3].text ?? "", board: row[4].text ?? "", stage: row[5].integer,
      tags: (row[6].text ?? "").split(separator: ",").compactMap { Int64($0) },
      search: row[7].text ?? "", comments: row[8].integer ?? 0, createdAt: row[9].integer ?? 0,
      doc: row[10].text ?? "")
  }

  /// The feature `id`, or nil.
  public func feature(_ project: String, id: Int64) throws(VoteStoreError) -> BoardFeatureRow? {
    try db.first(
      "SELECT \(Self.featureColumns) FROM vf_features WHERE project = ?1 AND id = ?2",
      [.text(project), .integer(id)]
    ).map(Self.feature)
  }

  /// The feature whose external reference is `ref`, or nil.
  public func feature(_ project: String, ref: String) throws(VoteStoreError) -> BoardFeatureRow? {
    try db.first(
      "SELECT \(Self.featureColumns) FROM vf_features WHERE project = ?1 AND ref = ?2",
      [.text(project), .text(ref)]
    ).map(Self.feature)
  }

  /// Every feature of the project, by id.
  public func features(_ project: String) throws(VoteStoreError) -> [BoardFeatureRow] {
    try db.rows(
      "SELECT \(Self.featureColumns) FROM vf_features WHERE project = ?1 ORDER BY id",
      [.text(project)]
    ).map(Self.feature)
  }

  /// The features with these ids, in the order of `ids` (missing ones left out).
  public func features(_ project: String, ids: [Int64]) throws(VoteStoreError)
    -> [BoardFeatureRow]
  {
    var rows: [BoardFeatureRow] = []
    for id in ids {
      if let row = try feature(project, id: id) { rows.append(row) }
    }
    return rows
  }

  /// The features matching `filter`, with their vote counts, unordered.
  public func summaries(_ project: String, _ filter: BoardFeatureFilter) throws(VoteStoreError)
    -> [BoardFeatureSummary]
  {
    try db.rows(
      """
      SELECT f.id, f.board, f.stage, f.comments, f.created_ms, COALESCE(c.value, 0)
      FROM vf_features f LEFT JOIN counters c ON c.namespace = f.project AND c.key = f.counter_key
      WHERE f.project = ?1
        AND (CAST(?2 AS TEXT) IS NULL OR f.board = CAST(?2 AS TEXT))
        AND (CAST(?3 AS BIGINT) IS NULL OR f.stage = CAST(?3 AS BIGINT))
        AND (CAST(?4 AS TEXT) IS NULL OR instr(f.tags, CAST(?4 AS TEXT)) > 0)
        AND (CAST(?5 AS TEXT) IS NULL OR instr(f.search, CAST(?5 AS TEXT)) > 0)
      """,
      [
        .text(project), .optional(filter.board), .optional(filter.stage),
        .optional(filter.tag.map { ",\($0)," }), .optional(filter.search),
      ]
    ).map { row in
      BoardFeatureSummary(
        id: row[0].integer ?? 0, board: row[1].text ?? "", stage: row[2].integer,
        comments: row[3].integer ?? 0, createdAt: row[4].integer ?? 0, votes: row[5].integer ?? 0)
    }
  }

  /// Stores the feature (insert or replace by project and id).
  public func put(_ row: BoardFeatureRow) throws(VoteStoreError) {
    touched(row.project)
    try db.run(
      """
      INSERT INTO vf_features (\(Self.featureColumns))
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
      ON CONFLICT (project, id) DO UPDATE SET ref = excluded.ref,
        counter_key = excluded.counter_key, board = excluded.board, stage = excluded.stage,
        tags = excluded.tags, search = excluded.search, comments = excluded.comments,
        created_ms = excluded.created_ms, doc = excluded.doc
      """,
      [
        .text(row.project), .integer(row.id), .optional(row.ref), .text(row.counterKey),
        .text(row.board), .optional(row.stage),
        .text(row.tags.isEmpty ? "" : "," + row.tags.map(String.init).joined(separator: ",") + ","),
        .text(row.search), .integer(row.comments), .integer(row.createdAt), .text(row.doc),
      ])
  }

  /// Deletes the feature; false when there was none.
  @discardableResult
  public func deleteFeature(_ project: String, id: Int64) throws(VoteStoreError) -> Bool {
    touched(project)
    return try db.run(
      "DELETE FROM vf_features WHERE project = ?1 AND id = ?2", [.text(project), .integer(id)])
      == 1
  }

  /// How many features are in the stage.
  public func featureCount(_ project: String, stage: Int64) throws(VoteStoreError) -> Int64 {
    try db.first(
      "SELECT count(*) FROM vf_features WHERE project = ?1 AND stage = ?2",
      [.text(project), .integer(stage)])?[0].integer ?? 0
  }

  /// How many features carry the tag.
  public func featureCount(_ project: String, tag: Int64) throws(VoteStoreError) -> Int64 {
    try db.first(
      "SELECT count(*) FROM vf_features WHERE project = ?1 AND instr(tags, ?2) > 0",
      [.text(project), .text(",\(tag),")])?[0].integer ?? 0
  }

  /// How many features are on the board.
  public func featureCount(_ project: String, board: String) throws(VoteStoreError) -> Int64 {
    try db.first(
      "SELECT count(*) FROM vf_features WHERE project = ?1 AND board = ?2",
      [.text(project), .text(board)])?[0].integer ?? 0
  }

  // MARK: The features' counters (the counters' own tables)

  /// The counter's value, 0 when it does not exist.
  public func votes(_ namespace: String, key: String) throws(VoteStoreError) -> Int64 {
    try db.first(
      "SELECT value FROM counters WHERE namespace = ?1 AND key = ?2",
      [.text(namespace), .text(key)])?[0].integer ?? 0
  }

  /// Whether `voter` (the id as the client sent it) holds a vote on the counter.
  public func hasVoted(_ namespace: String, key: String, voter: String) throws(VoteStoreError)
    -> Bool
  {
    let voter = voterKey.hash(voter)
    return try db.first(
      """
      SELECT 1 FROM counters c JOIN voters v ON v.counter_id = c.id
      WHERE c.namespace = ?1 AND c.key = ?2 AND v.voter = ?3
      """, [.text(namespace), .text(key), .text(voter)]) != nil
  }

  /// The counter's anonymous part (its votes without a voter id); nil when missing.
  public func anonymousVotes(_ namespace: String, key: String) throws(VoteStoreError) -> Int64? {
    try db.first(
      "SELECT anonymous FROM counters WHERE namespace = ?1 AND key = ?2",
      [.text(namespace), .text(key)]
    ).map { $0[0].integer ?? 0 }
  }

  /// Sets the counter's anonymous part to `count`, keeping every identified vote, creating
  /// the counter (bounds [-1, 1], as `/hit` does) when missing, in one statement. Returns the
  /// new value. With `imported`, records it as what the last import set (see
  /// ``setImportedVotes(_:key:count:now:)``); without, leaves that record as it is. A count
  /// outside `0…CounterLimits.maximum` throws `.outOfRange`.
  @discardableResult
  public func setAnonymousVotes(
    _ namespace: String, key: String, count: Int64, imported: Int64? = nil, now: Int64
  ) throws(VoteStoreError) -> Int64 {
    for value in [count, imported ?? 0] where value < 0 || value > CounterLimits.maximum {
      throw VoteStoreError(
        .outOfRange, "\(value) anonymous votes lie outside 0…\(CounterLimits.maximum)")
    }
    log?.touched(namespace: namespace, key: key)
    let row = try db.first(
      """
      INSERT INTO counters (namespace, key, value, anonymous, imported, enable_reset, lower,
        upper, created_ms, updated_ms)
      VALUES (?1, ?2, ?3, ?3, ?5, false, -1, 1, ?4, ?4)
      ON CONFLICT (namespace, key) DO UPDATE SET updated_ms = excluded.updated_ms,
        anonymous = excluded.anonymous,
        imported = coalesce(excluded.imported, counters.imported),
        value = excluded.anonymous
          + (SELECT count(*) FROM voters v WHERE v.counter_id = counters.id)
      RETURNING value
      """,
      [
        .text(namespace), .text(key), .integer(count), .integer(now),
        imported.map { .integer($0) } ?? .null,
      ])
    return row?[0].integer ?? 0
  }

  /// Imports `count` votes into the counter's anonymous part, keeping every identified vote
  /// and creating the counter (bounds [-1, 1], as `/hit` does) when missing, in one
  /// statement; returns the new value.
  ///
  /// The first import into a counter sets its anonymous part to `count`, or leaves it when it
  /// already holds more (counts copied in by `roadmapctl votes pull`, which the roadmap's own
  /// `votes` lag behind: a first import never lowers a counter). A later one moves it by the
  /// change since the last import (`count` minus what that import set, at least 0 after), so
  /// the anonymous votes cast in between, through `/hit` by old app versions, stay: importing
  /// the same count again changes nothing. A count outside `0…CounterLimits.maximum` throws
  /// `.outOfRange`.
  @discardableResult
  public func setImportedVotes(
    _ namespace: String, key: String, count: Int64, now: Int64
  ) throws(VoteStoreError) -> Int64 {
    // The moved part, clamped to 0…maximum; the sum cannot overflow (each term ≤ 2^53).
    let moved = "(counters.anonymous + excluded.imported - counters.imported)"
    return try importIntoAnonymous(
      namespace, key: key, count: count, now: now,
      anonymous: """
        CASE WHEN counters.imported IS NULL AND counters.anonymous > excluded.anonymous
            THEN counters.anonymous
          WHEN counters.imported IS NULL THEN excluded.anonymous
          WHEN \(moved) < 0 THEN 0 WHEN \(moved) > ?5 THEN ?5 ELSE \(moved) END
        """,
      bindings: [.integer(CounterLimits.maximum)])
  }

  /// Raises the counter's anonymous part to `count` when it holds less, recording `count` as
  /// what was imported, creating the counter (bounds [-1, 1]) when missing; when it holds
  /// `count` or more, changes nothing (what was imported before stays recorded). Returns the
  /// counter's value. What `roadmapctl votes pull` does with a copy of the source's count: the
  /// higher count wins, and a later import moves by what the source gained since the copy.
  @discardableResult
  public func raiseImportedVotes(
    _ namespace: String, key: String, count: Int64, now: Int64
  ) throws(VoteStoreError) -> Int64 {
    try importIntoAnonymous(
      namespace, key: key, count: count, now: now, anonymous: "excluded.anonymous",
      onlyWhere: "counters.anonymous < excluded.anonymous")
  }

  /// Imports `count` into the counter's anonymous part in one statement: creates the counter
  /// (bounds [-1, 1], as `/hit` does) with `count` when missing, else sets the part to the SQL
  /// `anonymous` (over `counters` and `excluded`; `bindings` are ?5 on), records `count` as
  /// imported and keeps every identified vote, where `onlyWhere` holds. Returns the counter's
  /// value; a count outside `0…CounterLimits.maximum` throws `.outOfRange`.
  private func importIntoAnonymous(
    _ namespace: String, key: String, count: Int64, now: Int64, anonymous: String,
    onlyWhere condition: String? = nil, bindings: [BoardValue] = []
  ) throws(VoteStoreError) -> Int64 {
    guard count >= 0, count <= CounterLimits.maximum else {
      throw VoteStoreError(
        .outOfRange, "\(count) imported votes lie outside 0…\(CounterLimits.maximum)")
    }
    log?.touched(namespace: namespace, key: key)
    let row = try db.first(
      """
      INSERT INTO counters (namespace, key, value, anonymous, imported, enable_reset, lower,
        upper, created_ms, updated_ms)
      VALUES (?1, ?2, ?3, ?3, ?3, false, -1, 1, ?4, ?4)
      ON CONFLICT (namespace, key) DO UPDATE SET updated_ms = excluded.updated_ms,
        imported = excluded.imported,
        anonymous = \(anonymous),
        value = \(anonymous)
          + (SELECT count(*) FROM voters v WHERE v.counter_id = counters.id)
      \(condition.map { "WHERE " + $0 } ?? "")
      RETURNING value
      """,
      [.text(namespace), .text(key), .integer(count), .integer(now)] + bindings)
    if let value = row?[0].integer { return value }
    // `onlyWhere` left the counter as it was.
    return try db.first(
      "SELECT value FROM counters WHERE namespace = ?1 AND key = ?2",
      [.text(namespace), .text(key)]
    )?[0].integer ?? 0
  }

  /// What the last import set on the counter; nil when it was never imported into (or is
  /// missing).
  public func importedVotes(_ namespace: String, key: String) throws(VoteStoreError) -> Int64? {
    try db.first(
      "SELECT imported FROM counters WHERE namespace = ?1 AND key = ?2",
      [.text(namespace), .text(key)]
    )?[0].integer
  }

  /// What the last import set on every counter of the namespace that had one, by key (one
  /// query; keys compared by their bytes, ``CounterValues``): a counter missing here takes its
  /// next import as its first.
  public func importedVotes(_ namespace: String) throws(VoteStoreError) -> CounterValues {
    var votes = CounterValues()
    for row in try db.rows(
      "SELECT key, imported FROM counters WHERE namespace = ?1 AND imported IS NOT NULL",
      [.text(namespace)])
    {
      votes[row[0].text ?? ""] = row[1].integer ?? 0
    }
    return votes
  }

  /// What the last import set on the counter, or its anonymous part when none did; nil when
  /// the counter is missing. What an export says of a feature's imported votes.
  public func importedOrAnonymousVotes(_ namespace: String, key: String) throws(VoteStoreError)
    -> Int64?
  {
    try db.first(
      "SELECT coalesce(imported, anonymous) FROM counters WHERE namespace = ?1 AND key = ?2",
      [.text(namespace), .text(key)]
    ).map { $0[0].integer ?? 0 }
  }

  /// The anonymous part of every counter in the namespace, by key (one query, for imports;
  /// keys compared by their bytes, ``CounterValues``).
  public func anonymousVotes(_ namespace: String) throws(VoteStoreError) -> CounterValues {
    var votes = CounterValues()
    for row in try db.rows(
      "SELECT key, anonymous FROM counters WHERE namespace = ?1", [.text(namespace)])
    {
      votes[row[0].text ?? ""] = row[1].integer ?? 0
    }
    return votes
  }

  /// Whether the counter exists.
  public func counterExists(_ namespace: String, key: String) throws(VoteStoreError) -> Bool {
    try db.first(
      "SELECT 1 FROM counters WHERE namespace = ?1 AND key = ?2", [.text(namespace), .text(key)])
      != nil
  }

  /// Moves every vote of the counter `source` into the counter `target` of the namespace and
  /// deletes `source`; does nothing when `source` is missing. `target` is created when
  /// missing (bounds [-1, 1], as `/hit` does). The anonymous parts add up (at most
  /// `CounterLimits.maximum`), the identified voters are united (a voter in both counts
  /// once), the applied updates add up, and `target` keeps what its last import set (or
  /// takes `source`'s when it has none). Returns `target`'s new value.
  ///
  /// Both counters' rows are locked before they are read (on PostgreSQL; a vote locks its
  /// counter's row too): a vote on `source` in flight is waited for and merged, and one made
  /// after finds `source` gone and makes it again; the board's vote path, which read the
  /// feature's key before, reads it again after such a write and merges once more (or makes
  /// an unvote again on `target`), so no vote is left in a counter no feature shows.
  @discardableResult
  public func mergeCounter(
    _ namespace: String, from source: String, into target: String, now: Int64
  )
    throws(VoteStoreError) -> Int64
  {
    guard source != target,
      let old = try db.first(
        "SELECT id, anonymous, updates, imported FROM counters WHERE namespace = ?1 AND key = ?2"
          + db.rowLock, [.text(namespace), .text(source)])
    else { return try votes(namespace, key: target) }
    log?.touched(namespace: namespace, key: source)
    log?.touched(namespace: namespace, key: target)
    try db.run(
      """
      INSERT INTO counters (namespace, key, value, anonymous, enable_reset, lower, upper,
        created_ms, updated_ms)
      VALUES (?1, ?2, 0, 0, false, -1, 1, ?3, ?3) ON CONFLICT (namespace, key) DO NOTHING
      """, [.text(namespace), .text(target), .integer(now)])
    let targetID =
      try db.first(
        "SELECT id FROM counters WHERE namespace = ?1 AND key = ?2" + db.rowLock,
        [.text(namespace), .text(target)])?[0].integer ?? 0
    try db.run(
      """
      INSERT INTO voters (counter_id, voter)
      SELECT ?1, voter FROM voters WHERE counter_id = ?2 ON CONFLICT DO NOTHING
      """, [.integer(targetID), old[0]])
    let anonymous = "CASE WHEN anonymous + ?2 > ?3 THEN ?3 ELSE anonymous + ?2 END"
    let row = try db.first(
      """
      UPDATE counters SET anonymous = \(anonymous),
        value = \(anonymous) + (SELECT count(*) FROM voters v WHERE v.counter_id = counters.id),
        updates = updates + ?4, imported = coalesce(imported, ?5), updated_ms = ?6
      WHERE id = ?1 RETURNING value
      """,
      [
        .integer(targetID), .integer(old[1].integer ?? 0), .integer(CounterLimits.maximum),
        .integer(old[2].integer ?? 0), old[3], .integer(now),
      ])
    try db.run("DELETE FROM voters WHERE counter_id = ?1", [old[0]])
    try db.run("DELETE FROM counters WHERE id = ?1", [old[0]])
    return row?[0].integer ?? 0
  }
}
