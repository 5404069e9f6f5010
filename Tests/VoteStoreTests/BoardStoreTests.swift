import Foundation
import Testing

@testable import VoteStore

extension StoreHandle {
  /// The board store on this test's database (beside the counters).
  ///
  /// With the memory cache, the board must share the open counter store `store` (its writes
  /// reach the counters' memory); without a store it opens on its own.
  func openBoard(sharing store: (any VoteStore)? = nil) throws -> any BoardStore {
    switch kind {
    case .sqliteCached:
      if let store = store as? SQLiteVoteStore { return try SQLiteBoardStore(sharing: store) }
      return try SQLiteBoardStore(
        path: directory!.url.appendingPathComponent(SQLiteVoteStore.fileName).path)
    case .sqlite:
      return try SQLiteBoardStore(
        path: directory!.url.appendingPathComponent(SQLiteVoteStore.fileName).path)
    case .postgres:
      return try PostgresBoardStore(connectionString: connectionString!, poolSize: 2)
    }
  }
}

extension StoreKind {
  /// Opens the counters and the board on one fresh database and runs `body` with both.
  func withBoard(
    _ body: (any VoteStore, any BoardStore, StoreHandle) async throws -> Void
  ) async throws {
    try await withStore { store, handle in
      let board = try handle.openBoard(sharing: store)
      do {
        try await body(store, board, handle)
      } catch {
        await board.close()
        throw error
      }
      await board.close()
    }
  }
}

/// The board store's semantics, the same bodies against SQLite and PostgreSQL.
@Suite struct BoardStoreTests {
  static let project = "demo-app"

  static func feature(
    _ id: Int64, ref: String?, board: String = "roadmap", stage: Int64? = nil,
    tags: [Int64] = [], search: String = "", comments: Int64 = 0, created: Int64 = 0
  ) -> BoardFeatureRow {
    BoardFeatureRow(
      project: project, id: id, ref: ref, counterKey: ref.map { "feature\($0)" } ?? "\u{1F}vf\(id)",
      board: board, stage: stage, tags: tags, search: search, comments: comments,
      createdAt: created, doc: #"{"title":"\#(id)"}"#)
  }

  static func ids(_ board: any BoardStore, _ filter: BoardFeatureFilter) async throws -> [Int64] {
    try await board.read { try $0.summaries(Self.project, filter) }.map(\.id).sorted()
  }

  @Test(arguments: StoreKind.allCases)
  func projectsComeIntoBeingOnceAndKeepTheirSettings(kind: StoreKind) async throws {
    try await kind.withBoard { _, board, _ in
      #expect(try await board.read { try $0.project(Self.project) } == nil)
      let made = try await board.write {
        try $0.createProject(BoardProjectRow(project: Self.project, settings: "{}", createdAt: 5))
      }
      #expect(made)
      let again = try await board.write {
        try $0.createProject(
          BoardProjectRow(project: Self.project, settings: "{\"x\":1}", createdAt: 9))
      }
      #expect(!again)
      try await board.write { try $0.updateSettings(Self.project, #"{"name":"Demo"}"#) }
      let row = try await board.read { try $0.project(Self.project) }
      #expect(
        row == BoardProjectRow(project: Self.project, settings: #"{"name":"Demo"}"#, createdAt: 5))
      #expect(try await board.read { try $0.projects() } == [Self.project])
    }
  }

  @Test(arguments: StoreKind.allCases)
  func idsAreNeverHandedOutTwice(kind: StoreKind) async throws {
    try await kind.withBoard { _, board, _ in
      let first = try await board.write { try $0.nextID(Self.project, "feature") }
      let second = try await board.write { try $0.nextID(Self.project, "feature") }
      let stage = try await board.write { try $0.nextID(Self.project, "stage") }
      let other = try await board.write { try $0.nextID("other-app", "feature") }
      #expect([first, second, stage, other] == [1, 2, 1, 1])
      try await board.write { try $0.reserveID(Self.project, "feature", atLeast: 40) }
      try await board.write { try $0.reserveID(Self.project, "feature", atLeast: 3) }
      #expect(try await board.write { try $0.nextID(Self.project, "feature") } == 41)
    }
  }

  /// A page of items starts after the position given (sort, then id: ties on `sort` are
  /// broken by id), keeps only the key asked for, and holds at most `limit`; the count of
  /// one key is the rows that have it.
  @Test(arguments: StoreKind.allCases)
  func itemsArePagedByPositionAndCountedByKey(kind: StoreKind) async throws {
    try await kind.withBoard { _, board, _ in
      let rows: [(id: Int64, key: String, sort: Int64)] = [
        (1, "pending", 10), (2, "rejected", 10), (3, "pending", 10), (4, "pending", 5),
        (5, "approved", 20), (6, "pending", -3),
      ]
      try await board.write { tables in
        for row in rows {
          try tables.put(
            .suggestion,
            BoardItemRow(
              project: Self.project, id: row.id, key: row.key, sort: row.sort, doc: "\(row.id)"))
        }
        try tables.put(
          .suggestion, BoardItemRow(project: "other-app", id: 9, key: "pending", sort: 0, doc: "x"))
      }
      func page(_ key: String?, after: (sort: Int64, id: Int64)?, limit: Int) async throws
        -> [Int64]
      {
        try await board.read {
          try $0.items(.suggestion, Self.project, key: key, after: after, limit: limit)
        }.map(\.id)
      }
      #expect(try await page(nil, after: nil, limit: 10) == [6, 4, 1, 2, 3, 5])
      #expect(try await page(nil, after: nil, limit: 2) == [6, 4])
      #expect(try await page(nil, after: (5, 4), limit: 2) == [1, 2])
      #expect(try await page(nil, after: (10, 2), limit: 2) == [3, 5])
      #expect(try await page(nil, after: (20, 5), limit: 2) == [])
      #expect(try await page("pending", after: nil, limit: 10) == [6, 4, 1, 3])
      #expect(try await page("pending", after: (10, 1), limit: 10) == [3])
      #expect(try await page("pending", after: nil, limit: 0) == [])
      let pending = try await board.read { try $0.count(.suggestion, Self.project, key: "pending") }
      let approved = try await board.read {
        try $0.count(.suggestion, Self.project, key: "approved")
      }
      let none = try await board.read { try $0.count(.suggestion, "nobody-app", key: "pending") }
      #expect([pending, approved, none] == [4, 1, 0])
    }
  }

  @Test(arguments: StoreKind.allCases)
  func itemsAreStoredOrderedFoundAndDeleted(kind: StoreKind) async throws {
    try await kind.withBoard { _, board, _ in
      try await board.write { tables in
        try tables.put(
          .stage, BoardItemRow(project: Self.project, id: 2, key: "roadmap", sort: 0, doc: "b"))
        try tables.put(
          .stage, BoardItemRow(project: Self.project, id: 1, key: "roadmap", sort: 1, doc: "a"))
        try tables.put(
          .stage, BoardItemRow(project: Self.project, id: 3, key: "ideas", sort: 0, doc: "c"))
        try tables.put(
          .board, BoardItemRow(project: Self.project, id: 1, key: "ideas", sort: 0, doc: "i"))
        try tables.put(
          .stage, BoardItemRow(project: "other-app", id: 1, key: "roadmap", sort: 0, doc: "x"))
      }
      let stages = try await board.read { try $0.items(.stage, Self.project) }
      #expect(stages.map(\.id) == [2, 3, 1])
      #expect(try await board.read { try $0.item(.board, Self.project, key: "ideas") }?.doc == "i")
      #expect(try await board.read { try $0.item(.board, Self.project, key: "nope") } == nil)
      try await board.write { tables in
        try tables.put(
          .stage, BoardItemRow(project: Self.project, id: 1, key: "roadmap", sort: 1, doc: "a2"))
      }
      #expect(try await board.read { try $0.item(.stage, Self.project, id: 1) }?.doc == "a2")
      #expect(try await board.write { try $0.delete(.stage, Self.project, id: 1) })
      #expect(!(try await board.write { try $0.delete(.stage, Self.project, id: 1) }))
      #expect(try await board.read { try $0.items(.stage, "other-app") }.count == 1)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func featuresAreFoundByRefAndFilteredWithTheirCountersVotes(kind: StoreKind) async throws {
    try await kind.withBoard { votes, board, _ in
      try await board.write { tables in
        try tables.put(Self.feature(1, ref: "1", stage: 10, tags: [1, 2], search: "dark mode"))
        try tables.put(Self.feature(2, ref: "2", stage: 11, tags: [2], search: "widgets"))
        try tables.put(Self.feature(3, ref: nil, board: "ideas", tags: [12], search: "dark sky"))
      }
      for voter in ["a", "b"] {
        _ = try await votes.apply(
          CounterMutation(
            namespace: Self.project, key: "feature1", delta: 1, voter: voter,
            createIfMissing: CounterCreation(namespace: Self.project, key: "feature1")))
      }
      _ = try await votes.apply(
        CounterMutation(
          namespace: Self.project, key: "\u{1F}vf3", delta: 1,
          createIfMissing: CounterCreation(namespace: Self.project, key: "\u{1F}vf3")))

      #expect(try await board.read { try $0.feature(Self.project, ref: "2") }?.id == 2)
      #expect(try await board.read { try $0.feature(Self.project, ref: "9") } == nil)
      let all = try await board.read { try $0.summaries(Self.project, BoardFeatureFilter()) }
      #expect(
        Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0.votes) }) == [1: 2, 2: 0, 3: 1])
      #expect(try await Self.ids(board, BoardFeatureFilter(board: "roadmap")) == [1, 2])
      #expect(try await Self.ids(board, BoardFeatureFilter(stage: 11)) == [2])
      #expect(try await Self.ids(board, BoardFeatureFilter(tag: 2)) == [1, 2])
      #expect(try await Self.ids(board, BoardFeatureFilter(tag: 1)) == [1])  // not 12
      #expect(try await Self.ids(board, BoardFeatureFilter(search: "dark")) == [1, 3])
      #expect(try await Self.ids(board, BoardFeatureFilter(board: "ideas", search: "dark")) == [3])
      #expect(try await Self.ids(board, BoardFeatureFilter(search: "%")) == [])
      #expect(try await board.read { try $0.featureCount(Self.project, tag: 2) } == 2)
      #expect(try await board.read { try $0.featureCount(Self.project, stage: 10) } == 1)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func aFeatureReadsBackAsWritten(kind: StoreKind) async throws {
    try await kind.withBoard { _, board, _ in
      let written = Self.feature(
        1, ref: "Available ", stage: 10, tags: [1, 2], search: "dark mode", comments: 3,
        created: 77)
      try await board.write { try $0.put(written) }
      let byID = try await board.read { try $0.feature(Self.project, id: 1) }
      #expect(byID == written)
      let byRef = try await board.read { try $0.feature(Self.project, ref: "Available ") }
      #expect(byRef == written)
      #expect(try await board.read { try $0.feature(Self.project, ref: "Available") } == nil)
      #expect(try await board.read { try $0.features(Self.project, ids: [5, 1]) } == [written])
      #expect(try await board.write { try $0.deleteFeature(Self.project, id: 1) })
      #expect(try await board.read { try $0.feature(Self.project, id: 1) } == nil)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func aDuplicateRefIsRefusedAndAFailedWriteKeepsNothing(kind: StoreKind) async throws {
    try await kind.withBoard { _, board, _ in
      try await board.write { try $0.put(Self.feature(1, ref: "1")) }
      await #expect(throws: VoteStoreError.self) {
        try await board.write { tables in
          try tables.put(Self.feature(2, ref: "2"))
          try tables.put(Self.feature(3, ref: "1"))
        }
      }
      #expect(try await board.read { try $0.features(Self.project) }.map(\.id) == [1])
    }
  }

  @Test(arguments: StoreKind.allCases)
  func votersAndAnonymousVotesAreTheCountersOwn(kind: StoreKind) async throws {
    try await kind.withBoard { votes, board, _ in
      let key = "feature7"
      #expect(try await board.read { try $0.anonymousVotes(Self.project, key: key) } == nil)
      #expect(!(try await board.read { try $0.counterExists(Self.project, key: key) }))
      for voter in ["a", "b"] {
        _ = try await votes.apply(
          CounterMutation(
            namespace: Self.project, key: key, delta: 1, voter: voter,
            createIfMissing: CounterCreation(namespace: Self.project, key: key)))
      }
      #expect(try await board.read { try $0.hasVoted(Self.project, key: key, voter: "a") })
      #expect(!(try await board.read { try $0.hasVoted(Self.project, key: key, voter: "c") }))
      let total = try await board.write {
        try $0.setAnonymousVotes(Self.project, key: key, count: 5, now: 1)
      }
      #expect(total == 7)
      #expect(try await votes.record(namespace: Self.project, key: key)?.value == 7)
      #expect(try await board.read { try $0.anonymousVotes(Self.project, key: key) } == 5)
      _ = try await votes.apply(
        CounterMutation(namespace: Self.project, key: key, delta: -1, voter: "a"))
      #expect(try await board.read { try $0.votes(Self.project, key: key) } == 6)
      #expect(try await board.read { try $0.anonymousVotes(Self.project, key: key) } == 5)
      // Setting again replaces the anonymous part, it does not add to it.
      #expect(
        try await board.write { try $0.setAnonymousVotes(Self.project, key: key, count: 0, now: 2) }
          == 1)
      // A counter the board creates takes votes through the counting routes' rules.
      _ = try await board.write {
        try $0.setAnonymousVotes(Self.project, key: "feature8", count: 3, now: 3)
      }
      let hit = try await votes.apply(
        CounterMutation(namespace: Self.project, key: "feature8", delta: -1, checkBounds: true))
      #expect(hit.outcome == .applied && hit.record?.value == 2)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func aRestoreWritesTheCountersAndTheBoardsTogetherOrNothing(kind: StoreKind) async throws {
    try await kind.withBoard { votes, board, _ in
      let export = VoteExport(
        version: 1,
        counters: [
          VoteExport.Counter(
            record: CounterRecord(
              id: 1, namespace: Self.project, key: "featurea", value: 3, enableReset: false,
              updateLowerBound: -1, updateUpperBound: 1, createdAt: 0, updatedAt: 0),
            voters: ["ann"])
        ])
      func backup(_ project: String) -> BoardBackup {
        var feature = Self.feature(1, ref: "a")
        feature.project = project
        return BoardBackup(
          projects: [BoardProjectRow(project: project, settings: "{}", createdAt: 0)],
          items: [], features: [feature],
          sequences: [BoardBackup.Sequence(project: project, kind: "feature", next: 2)])
      }
      // The boards cannot be written (the project exists): the counters are not either.
      _ = try await board.write {
        try $0.createProject(BoardProjectRow(project: "taken-app", settings: "{}", createdAt: 0))
      }
      await #expect(throws: VoteStoreError.self) {
        try await votes.restoreAll(votes: export, boards: backup("taken-app"))
      }
      #expect(try await votes.record(namespace: Self.project, key: "featurea") == nil)
      #expect(try await board.read { try $0.features("taken-app") }.isEmpty)

      // Run again where it can be: both, and the voter with them.
      let summary = try await votes.restoreAll(votes: export, boards: backup("free-app"))
      #expect(summary == ImportSummary(imported: 1, skipped: 0))
      #expect(try await votes.record(namespace: Self.project, key: "featurea")?.value == 3)
      #expect(
        try await board.read { try $0.hasVoted(Self.project, key: "featurea", voter: "ann") })
      #expect(try await board.read { try $0.features("free-app") }.map(\.ref) == ["a"])
      #expect(try await board.write { try $0.nextID("free-app", "feature") } == 2)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func aMergedCounterBringsEveryVoteOnceAndIsGone(kind: StoreKind) async throws {
    try await kind.withBoard { votes, board, _ in
      let source = "\u{1F}vf4"
      func vote(_ key: String, _ voter: String?) async throws {
        _ = try await votes.apply(
          CounterMutation(
            namespace: Self.project, key: key, delta: 1, voter: voter,
            createIfMissing: CounterCreation(namespace: Self.project, key: key)))
      }
      // The source: voters a and b, 2 anonymous (the last import); the target: voter a, 1 anonymous.
      try await vote(source, "a")
      try await vote(source, "b")
      _ = try await board.write {
        try $0.setImportedVotes(Self.project, key: source, count: 2, now: 1)
      }
      try await vote("featurex", "a")
      try await vote("featurex", nil)
      #expect(try await votes.record(namespace: Self.project, key: "featurex")?.value == 2)
      let before = try await votes.statistics()

      let merged = try await board.write {
        try $0.mergeCounter(Self.project, from: source, into: "featurex", now: 2)
      }
      #expect(merged == 5)
      #expect(try await votes.record(namespace: Self.project, key: "featurex")?.value == 5)
      #expect(try await votes.record(namespace: Self.project, key: source) == nil)
      let after = try await votes.statistics()
      #expect(after.counters == before.counters - 1 && after.updates == before.updates)
      #expect(try await board.read { try $0.anonymousVotes(Self.project, key: "featurex") } == 3)
      #expect(try await board.read { try $0.hasVoted(Self.project, key: "featurex", voter: "b") })
      // The target had no import of its own: it takes the source's.
      #expect(try await board.read { try $0.importedVotes(Self.project, key: "featurex") } == 2)
      // A voter who voted in both takes back one vote, once.
      let back = try await votes.apply(
        CounterMutation(namespace: Self.project, key: "featurex", delta: -1, voter: "a"))
      #expect(back.record?.value == 4)

      // Into a missing counter: it is made; a missing source changes nothing.
      try await vote("\u{1F}vf5", "c")
      #expect(
        try await board.write {
          try $0.mergeCounter(Self.project, from: "\u{1F}vf5", into: "featurey", now: 3)
        } == 1)
      #expect(try await votes.record(namespace: Self.project, key: "featurey")?.value == 1)
      #expect(
        try await board.write {
          try $0.mergeCounter(Self.project, from: "\u{1F}vf5", into: "featurey", now: 4)
        } == 1)
      // The anonymous parts add up to the maximum at most.
      _ = try await board.write { tables in
        try tables.setAnonymousVotes(
          Self.project, key: "\u{1F}vf6", count: CounterLimits.maximum, now: 5)
        try tables.setAnonymousVotes(Self.project, key: "featurez", count: 9, now: 5)
      }
      #expect(
        try await board.write {
          try $0.mergeCounter(Self.project, from: "\u{1F}vf6", into: "featurez", now: 6)
        } == CounterLimits.maximum)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func anImportMovesTheCounterByItsChangeAndKeepsTheVotesCastSince(kind: StoreKind) async throws {
    try await kind.withBoard { votes, board, _ in
      let key = "feature9"
      func hit(_ delta: Int64, voter: String? = nil) async throws {
        _ = try await votes.apply(
          CounterMutation(namespace: Self.project, key: key, delta: delta, voter: voter))
      }
      func imported(_ count: Int64, at now: Int64) async throws -> Int64 {
        try await board.write {
          try $0.setImportedVotes(Self.project, key: key, count: count, now: now)
        }
      }
      func state() async throws -> (imported: Int64?, anonymous: Int64?, export: Int64?) {
        try await board.read {
          (
            try $0.importedVotes(Self.project, key: key),
            try $0.anonymousVotes(Self.project, key: key),
            try $0.importedOrAnonymousVotes(Self.project, key: key)
          )
        }
      }
      #expect(try await state() == (nil, nil, nil))
      // The first import creates the counter with its votes.
      #expect(try await imported(5, at: 1) == 5)
      #expect(try await state() == (5, 5, 5))
      // Two anonymous votes (old app versions' /hit) and one identified vote come in.
      try await hit(1)
      try await hit(1)
      try await hit(1, voter: "v1")
      #expect(try await votes.record(namespace: Self.project, key: key)?.value == 8)
      // The same import again (a rerun) keeps them; the import's record stays 5.
      #expect(try await imported(5, at: 2) == 8)
      #expect(try await state() == (5, 7, 5))
      #expect(try await board.read { try $0.importedVotes(Self.project) } == [key: 5])
      // The source gained 3 votes: they are added, and the votes cast here stay.
      #expect(try await imported(8, at: 3) == 11)
      #expect(try await state() == (8, 10, 8))
      // It lost 9: the anonymous part goes down by as many, never below 0.
      #expect(try await imported(0, at: 4) == 3)
      #expect(try await state() == (0, 2, 0))
      #expect(try await imported(0, at: 5) == 3)
      try await hit(-1)
      try await hit(-1)
      #expect(try await imported(1, at: 6) == 2)
      #expect(try await state() == (1, 1, 1))
      // A count outside the limits changes nothing.
      await #expect(throws: VoteStoreError.self) { _ = try await imported(-1, at: 7) }
      await #expect(throws: VoteStoreError.self) {
        _ = try await imported(CounterLimits.maximum + 1, at: 7)
      }
      #expect(try await state() == (1, 1, 1))
      // A counter never imported into: its next import sets the anonymous part, and the
      // export names the anonymous part meanwhile.
      _ = try await votes.apply(
        CounterMutation(
          namespace: Self.project, key: "feature10", delta: 1,
          createIfMissing: CounterCreation(namespace: Self.project, key: "feature10")))
      #expect(
        try await board.read { try $0.importedOrAnonymousVotes(Self.project, key: "feature10") }
          == 1)
      #expect(try await board.read { try $0.importedVotes(Self.project) } == [key: 1])
      _ = try await board.write {
        try $0.setImportedVotes(Self.project, key: "feature10", count: 4, now: 8)
      }
      #expect(try await votes.record(namespace: Self.project, key: "feature10")?.value == 4)
      // Setting the anonymous part with an import record keeps the two apart.
      _ = try await board.write {
        try $0.setAnonymousVotes(Self.project, key: "feature11", count: 6, imported: 4, now: 9)
      }
      #expect(
        try await board.read { try $0.importedVotes(Self.project, key: "feature11") } == 4)
      let moved = try await board.write {
        try $0.setImportedVotes(Self.project, key: "feature11", count: 5, now: 10)
      }
      #expect(moved == 7)
    }
  }

  /// A counter that already holds more anonymous votes than a first import brings (counts
  /// `votes pull` copied in, which the roadmap's own `votes` lag behind) keeps them: a first
  /// import never lowers a counter. The import is recorded, and a later one moves by its
  /// change as usual. A raise-only import (`votes pull`) raises the part to its count and
  /// records it, and changes nothing where the part holds as much or more.
  @Test(arguments: StoreKind.allCases)
  func aFirstImportNeverLowersACounter(kind: StoreKind) async throws {
    try await kind.withBoard { votes, board, _ in
      func imported(_ key: String, _ count: Int64) async throws -> Int64 {
        try await board.write {
          try $0.setImportedVotes(Self.project, key: key, count: count, now: 3)
        }
      }
      // Pulled: 4 anonymous votes, no import record.
      _ = try await board.write {
        try $0.setAnonymousVotes(Self.project, key: "feature20", count: 4, now: 1)
      }
      _ = try await votes.apply(
        CounterMutation(
          namespace: Self.project, key: "feature20", delta: 1, voter: "v1",
          createIfMissing: CounterCreation(namespace: Self.project, key: "feature20")))
      #expect(try await imported("feature20", 1) == 5)
      #expect(try await board.read { try $0.anonymousVotes(Self.project, key: "feature20") } == 4)
      #expect(try await board.read { try $0.importedVotes(Self.project, key: "feature20") } == 1)
      #expect(try await imported("feature20", 3) == 7)
      func raised(_ key: String, _ count: Int64) async throws -> Int64 {
        try await board.write {
          try $0.raiseImportedVotes(Self.project, key: key, count: count, now: 4)
        }
      }
      // 6 anonymous votes now: a raise to 5 changes nothing, one to 9 sets 9 and records it.
      #expect(try await raised("feature20", 5) == 7)
      #expect(try await board.read { try $0.importedVotes(Self.project, key: "feature20") } == 3)
      #expect(try await raised("feature20", 9) == 10)
      #expect(try await board.read { try $0.importedVotes(Self.project, key: "feature20") } == 9)
      #expect(try await imported("feature20", 10) == 11)
      #expect(try await raised("feature22", 2) == 2)
      // Fewer than the import brings: the import sets the anonymous part, as before.
      _ = try await board.write {
        try $0.setAnonymousVotes(Self.project, key: "feature21", count: 2, now: 1)
      }
      #expect(try await imported("feature21", 6) == 6)
    }
  }

  @Test(arguments: StoreKind.allCases)
  func whatAnImportSetTravelsInAnExportAndBack(kind: StoreKind) async throws {
    try await kind.withBoard { votes, board, handle in
      _ = try await board.write {
        try $0.setImportedVotes(Self.project, key: "feature1", count: 5, now: 1)
      }
      _ = try await votes.apply(
        CounterMutation(
          namespace: Self.project, key: "feature1", delta: 1,
          createIfMissing: CounterCreation(namespace: Self.project, key: "feature1")))
      _ = try await votes.apply(
        CounterMutation(
          namespace: Self.project, key: "feature2", delta: 1,
          createIfMissing: CounterCreation(namespace: Self.project, key: "feature2")))
      let inMemory = try await votes.exportAll()
      #expect(inMemory.counters.map(\.imported) == [5, nil])
      let streamed = Chunks()
      _ = try await votes.exportAll { streamed.append($0) }
      let text = String(decoding: streamed.bytes, as: UTF8.self)
      #expect(text.components(separatedBy: #""imported" : 5,"#).count == 2)
      #expect(!text.contains(#""imported" : null"#))
      let read = try VoteExport.read(streamed.bytes).get()
      #expect(read.counters.map(\.imported) == [5, nil])
      // Imported into another store, a rerun of the same import still changes nothing.
      try await kind.withStore(voterKeyFrom: handle) { other, otherHandle in
        #expect(try await other.importAll(read, replace: false).imported == 2)
        #expect(try await other.exportAll().counters.map(\.imported) == [5, nil])
        let otherBoard = try otherHandle.openBoard(sharing: other)
        let value = try await otherBoard.write {
          try $0.setImportedVotes(Self.project, key: "feature1", count: 5, now: 2)
        }
        await otherBoard.close()
        #expect(value == 6)
      }
      // `null` reads as never imported; a negative count is refused with its place.
      let withNull = text.replacingOccurrences(of: #""imported" : 5"#, with: #""imported" : null"#)
      #expect(
        try VoteExport.read(Array(withNull.utf8)).get().counters.map(\.imported) == [nil, nil])
      let negative = text.replacingOccurrences(of: #""imported" : 5"#, with: #""imported" : -1"#)
      guard case .failure(let problems) = VoteExport.read(Array(negative.utf8)) else {
        Issue.record("a negative imported count was read")
        return
      }
      #expect("\(problems)".contains("an imported count must be 0 to"))
    }
  }

  @Test(arguments: StoreKind.allCases)
  func tenThousandFeaturesInOneWrite(kind: StoreKind) async throws {
    try await kind.withBoard { _, board, _ in
      try await board.write { tables in
        for id in 1...10_000 { try tables.put(Self.feature(Int64(id), ref: String(id))) }
      }
      #expect(
        try await board.read { try $0.summaries(Self.project, BoardFeatureFilter()) }.count
          == 10_000)
      #expect(!(try await board.read { try $0.isEmpty(Self.project) }))
      #expect(try await board.read { try $0.isEmpty("other-app") })
    }
  }

  // A second board store of its own writes the file: not beside a store with counts in memory.
  @Test(arguments: [StoreKind.sqlite, .postgres])
  func boardTablesAreAStepOfTheStoresMigrationsAndANewerSchemaIsRefused(kind: StoreKind)
    async throws
  {
    try await kind.withBoard { _, board, handle in
      try await board.write { try $0.put(Self.feature(1, ref: "1")) }
      let second = try handle.openBoard()
      #expect(try await second.read { try $0.features(Self.project) }.count == 1)
      let bump =
        kind == .sqlite
        ? "PRAGMA user_version = 99"
        : "INSERT INTO schema_migrations (version, summary) VALUES (99, 'from the future')"
      _ = try await second.write { tables in try tables.db.run(bump, []) }
      await second.close()
      #expect {
        _ = try handle.openBoard()
      } throws: { error in
        (error as? VoteStoreError)?.kind == .incompatible
      }
    }
  }

}

/// The pieces a streamed export was written in, put together.
final class Chunks: @unchecked Sendable {
  private let lock = NSLock()
  private var collected: [UInt8] = []

  /// Appends a piece.
  func append(_ piece: [UInt8]) {
    lock.lock()
    collected += piece
    lock.unlock()
  }

  /// Everything so far.
  var bytes: [UInt8] {
    lock.lock()
    defer { lock.unlock() }
    return collected
  }
}
