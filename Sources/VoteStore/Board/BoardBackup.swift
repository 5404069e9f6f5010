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
  /// unknown object kind, or a row of a project the backup does not hold.
  public var firstProblem: String? {
    var projects: [String: Int] = [:]
    for (index, row) in self.projects.enumerated() {
      if let first = projects[row.project] {
        return "project \(row.project) appears twice (projects[\(first)] and projects[\(index)])"
      }
      projects[row.project] = index
    }
    func unknown(_ project: String, _ place: String) -> String? {
      projects[project] == nil
        ? "\(place) belongs to project \(project), which the backup does not hold" : nil
    }
    var items: [String: Int] = [:]
    for (index, item) in self.items.enumerated() {
      guard BoardItemKind(rawValue: item.kind) != nil else {
        return "items[\(index)] is of an unknown kind, \(item.kind)"
      }
      if let problem = unknown(item.row.project, "items[\(index)]") { return problem }
      let key = "\(item.kind)\u{0}\(item.row.project)\u{0}\(item.row.id)"
      if let first = items[key] {
        return "\(item.kind) id \(item.row.id) of project \(item.row.project) appears twice "
          + "(items[\(first)] and items[\(index)])"
      }
      items[key] = index
    }
    var ids: [String: Int] = [:]
    var refs: [String: Int] = [:]
    for (index, feature) in features.enumerated() {
      if let problem = unknown(feature.project, "features[\(index)]") { return problem }
      let id = "\(feature.project)\u{0}\(feature.id)"
      if let first = ids[id] {
        return "feature id \(feature.id) of project \(feature.project) appears twice "
          + "(features[\(first)] and features[\(index)])"
      }
      ids[id] = index
      guard let ref = feature.ref else { continue }
      let key = "\(feature.project)\u{0}\(ref)"
      if let first = refs[key] {
        return "features[\(first)] and features[\(index)] of project \(feature.project) "
          + "have the same ref \"\(ref)\""
      }
      refs[key] = index
    }
    var sequences: [String: Int] = [:]
    for (index, sequence) in self.sequences.enumerated() {
      if let problem = unknown(sequence.project, "sequences[\(index)]") { return problem }
      let key = "\(sequence.project)\u{0}\(sequence.kind)"
      if let first = sequences[key] {
        return "the \(sequence.kind) sequence of project \(sequence.project) appears twice "
          + "(sequences[\(first)] and sequences[\(index)])"
      }
      sequences[key] = index
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
    guard backup.version == 1 else {
      throw VoteStoreError(.invalid, "board backup version \(backup.version); this build reads 1")
    }
    if let problem = backup.firstProblem {
      throw VoteStoreError(.invalid, "\(problem); nothing was restored")
    }
    let kinds = try backup.items.map { item throws(VoteStoreError) -> BoardItemKind in
      guard let kind = BoardItemKind(rawValue: item.kind) else {
        throw VoteStoreError(.invalid, "unknown board object kind \(item.kind) in the backup")
      }
      return kind
    }
    return try await write { tables in
      for project in backup.projects where try tables.project(project.project) != nil {
        throw VoteStoreError(
          .invalid, "project \(project.project) already exists; nothing was restored")
      }
      for project in backup.projects { try tables.createProject(project) }
      for (item, kind) in zip(backup.items, kinds) { try tables.put(kind, item.row) }
      for feature in backup.features { try tables.put(feature) }
      for sequence in backup.sequences {
        try tables.reserveID(sequence.project, sequence.kind, atLeast: sequence.next - 1)
      }
      return backup.projects.count
    }
  }
}
