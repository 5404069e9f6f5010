/// Every board of a store, row for row, as `roadmapctl backup` writes it: projects, their
/// boards, stages, tags, releases and suggestions, features, and the id sequences (so ids are
/// never handed out twice after a restore).
public struct BoardBackup: Sendable, Hashable, Codable {
  /// One object of a ``BoardItemKind`` table.
  public struct Item: Sendable, Hashable, Codable {
    /// The kind's table name (`vf_stages`, …).
    public var kind: String
    /// The row.
    public var row: BoardItemRow
    /// Creates an item.
    public init(kind: String, row: BoardItemRow) {
      self.kind = kind
      self.row = row
    }
  }

  /// One id sequence.
  public struct Sequence: Sendable, Hashable, Codable {
    /// The project.
    public var project: String
    /// What it numbers (`feature`, `stage`, …).
    public var kind: String
    /// The next id it hands out.
    public var next: Int64
    /// Creates a sequence.
    public init(project: String, kind: String, next: Int64) {
      self.project = project
      self.kind = kind
      self.next = next
    }
  }

  /// The format version; 1 for now.
  public var version: Int
  /// Every project.
  public var projects: [BoardProjectRow]
  /// Every board, stage, tag, release and suggestion.
  public var items: [Item]
  /// Every feature.
  public var features: [BoardFeatureRow]
  /// Every id sequence.
  public var sequences: [Sequence]

  /// Creates a backup.
  public init(
    version: Int = 1, projects: [BoardProjectRow], items: [Item], features: [BoardFeatureRow],
    sequences: [Sequence]
  ) {
    self.version = version
    self.projects = projects
    self.items = items
    self.features = features
    self.sequences = sequences
  }
}

extension BoardBackup {
  /// The first thing that makes this backup impossible to restore as it reads, or nil: a
  /// project twice, a feature or object id twice in its project (a restore would keep one
  /// and drop the others), a feature ref twice in its project, an id sequence twice, an
  /// unknown object kind, or a feature or object of a project the backup does not hold. (An
  /// id sequence of such a project only keeps ids from being handed out again; `backup` writes
  /// every sequence of the store.)
  public var firstProblem: String? {
    if let (first, second) = Self.firstRepeat(projects, { [$0.project] }) {
      return "project \(projects[second].project) appears twice "
        + "(projects[\(first)] and projects[\(second)])"
    }
    let held = Set(projects.map(\.project))
    func orphan(_ rowProjects: [String], _ name: String) -> String? {
      guard let index = rowProjects.firstIndex(where: { !held.contains($0) }) else { return nil }
      return "\(name)[\(index)] belongs to project \(rowProjects[index]), which the backup does "
        + "not hold"
    }
    if let index = items.firstIndex(where: { BoardItemKind(rawValue: $0.kind) == nil }) {
      return "items[\(index)] is of an unknown kind, \(items[index].kind)"
    }
    if let problem = orphan(items.map(\.row.project), "items") { return problem }
    if let (first, second) = Self.firstRepeat(
      items, { [$0.kind, $0.row.project, "\($0.row.id)"] })
    {
      let row = items[second].row
      return "\(items[second].kind) id \(row.id) of project \(row.project) appears twice "
        + "(items[\(first)] and items[\(second)])"
    }
    if let problem = orphan(features.map(\.project), "features") { return problem }
    if let (first, second) = Self.firstRepeat(features, { [$0.project, "\($0.id)"] }) {
      let row = features[second]
      return "feature id \(row.id) of project \(row.project) appears twice "
        + "(features[\(first)] and features[\(second)])"
    }
    // Refs compare by their bytes, as the store does: a ref in another Unicode form (a
    // store made before such refs were refused holds pairs) is another feature.
    if let (first, second) = Self.firstRepeat(
      features, { row in row.ref.map { [ExactText(row.project), ExactText($0)] } })
    {
      let row = features[second]
      return "features[\(first)] and features[\(second)] of project \(row.project) have the same "
        + "ref \"\(row.ref ?? "")\""
    }
    if let (first, second) = Self.firstRepeat(sequences, { [$0.project, $0.kind] }) {
      let row = sequences[second]
      return "the \(row.kind) sequence of project \(row.project) appears twice "
        + "(sequences[\(first)] and sequences[\(second)])"
    }
    return nil
  }

  /// The first row whose key (nil: none) an earlier row has: that row's index and its own.
  private static func firstRepeat<Row, Key: Hashable>(_ rows: [Row], _ key: (Row) -> Key?) -> (
    Int, Int
  )? {
    var seen: [Key: Int] = [:]
    for (index, row) in rows.enumerated() {
      guard let key = key(row) else { continue }
      if let first = seen[key] { return (first, index) }
      seen[key] = index
    }
    return nil
  }
}

extension BoardStore {
  /// Every board of the store, from one snapshot.
  public func backup() async throws -> BoardBackup {
    try await read { tables in
      var backup = BoardBackup(projects: [], items: [], features: [], sequences: [])
      for project in try tables.projects() {
        if let row = try tables.project(project) { backup.projects.append(row) }
        for kind in BoardItemKind.allCases {
          backup.items += try tables.items(kind, project).map {
            BoardBackup.Item(kind: kind.rawValue, row: $0)
          }
        }
        backup.features += try tables.features(project)
      }
      backup.sequences = try tables.sequences()
      return backup
    }
  }

  /// Writes `backup` in one transaction. A project that already exists in the store is
  /// refused (`.invalid`, nothing written); so is a backup of a newer version or one with a
  /// ``BoardBackup/firstProblem``. Returns how many projects were restored.
  @discardableResult
  public func restore(_ backup: BoardBackup) async throws -> Int {
    let kinds = try backup.checkedKinds()
    return try await write { tables in try backup.restoreRows(into: tables, kinds: kinds) }
  }
}

extension BoardBackup {
  /// The kind of each item, once the backup is one this build restores: version 1, without a
  /// ``firstProblem``; else `.invalid`.
  func checkedKinds() throws(VoteStoreError) -> [BoardItemKind] {
    guard version == 1 else {
      throw VoteStoreError(.invalid, "board backup version \(version); this build reads 1")
    }
    if let problem = firstProblem {
      throw VoteStoreError(.invalid, "\(problem); nothing was restored")
    }
    return try items.map { item throws(VoteStoreError) -> BoardItemKind in
      guard let kind = BoardItemKind(rawValue: item.kind) else {
        throw VoteStoreError(.invalid, "unknown board object kind \(item.kind) in the backup")
      }
      return kind
    }
  }

  /// Writes the rows with `tables`, inside the caller's transaction (`kinds` from
  /// ``checkedKinds()``): a project that already exists is `.invalid`, and the caller's
  /// transaction then writes nothing. Returns how many projects were restored.
  func restoreRows(into tables: BoardTables, kinds: [BoardItemKind]) throws(VoteStoreError)
    -> Int
  {
    for project in projects where try tables.project(project.project) != nil {
      throw VoteStoreError(
        .invalid, "project \(project.project) already exists; nothing was restored")
    }
    for project in projects { try tables.createProject(project) }
    for (item, kind) in zip(items, kinds) { try tables.put(kind, item.row) }
    for feature in features { try tables.put(feature) }
    for sequence in sequences {
      try tables.reserveID(sequence.project, sequence.kind, atLeast: sequence.next - 1)
    }
    return projects.count
  }
}

/// A backup checked and ready to be written by a store, inside one transaction of its own
/// (``VoteStore/restoreAll(votes:boards:)``): its counters' voters hashed with the store's
/// key, its board objects' kinds known.
struct PreparedRestore: Sendable {
  let votes: VoteExport
  let boards: BoardBackup
  let kinds: [BoardItemKind]
  let voterKey: VoterKey

  /// Checks `votes` and `boards` for a store whose voter key is `voterKey`.
  init(votes: VoteExport, boards: BoardBackup, voterKey: VoterKey) throws(VoteStoreError) {
    try votes.validate()
    self.votes = try votes.hashingVoters(with: voterKey)
    self.kinds = try boards.checkedKinds()
    self.boards = boards
    self.voterKey = voterKey
  }

  /// Writes the counters with `importRows` (the store's own, without replacing), then the
  /// boards on `db`, inside the caller's transaction.
  func write(
    on db: any BoardSQL, importRows: (VoteExport) throws(VoteStoreError) -> ImportSummary
  ) throws(VoteStoreError) -> ImportSummary {
    let summary = try importRows(votes)
    _ = try boards.restoreRows(into: BoardTables(db: db, voterKey: voterKey), kinds: kinds)
    return summary
  }
}
