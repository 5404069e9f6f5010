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
  /// refused (`.invalid`, nothing written); so is a backup of a newer version or an unknown
  /// kind. Returns how many projects were restored.
  @discardableResult
  public func restore(_ backup: BoardBackup) async throws -> Int {
    guard backup.version == 1 else {
      throw VoteStoreError(.invalid, "board backup version \(backup.version); this build reads 1")
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
