import Foundation
import TestProcess
import Testing

@testable import VoteStore

/// Board writes of one project from two board stores (two instances) on one PostgreSQL
/// database at once: what holds them apart (the project lock) and what a unique key that a
/// concurrent write took first becomes (a conflict, retried, in our own words).
@Suite struct PostgresBoardRaceTests {
  static let project = BoardStoreTests.project

  /// Bug (audit of `serve`, defect 1): each write read the suggestion as pending and
  /// approved it, so one suggestion became several features. Writes that take the project's
  /// lock first run one after the other, on any instance: one of eight decides.
  @Test func writesThatTakeTheProjectLockDecideOneAfterTheOther() async throws {
    let handle = try await StoreHandle.make(.postgres)
    let url = try #require(handle.connectionString)
    let stores = try (0..<2).map { _ in
      try PostgresBoardStore(connectionString: url, poolSize: 4)
    }
    for round in 0..<3 {
      let id = Int64(round + 1)
      try await stores[0].write { tables in
        try tables.put(
          .suggestion,
          BoardItemRow(project: Self.project, id: id, key: "pending", sort: 0, doc: "{}"))
      }
      // Eight bodies, one per connection, held until all have started: then each reads and
      // decides at once.
      let start = StartLine(8)
      let decisions = try await withThrowingTaskGroup(of: Bool.self) { group in
        for index in 0..<8 {
          group.addTask {
            try await stores[index % 2].write { tables in
              start.arriveAndWait()
              try tables.lockProject(Self.project)
              guard try tables.item(.suggestion, Self.project, id: id)?.key == "pending" else {
                return false
              }
              try tables.put(
                .suggestion,
                BoardItemRow(project: Self.project, id: id, key: "approved", sort: 0, doc: "{}"))
              return true
            }
          }
        }
        return try await group.reduce(into: [Bool]()) { $0.append($1) }
      }
      #expect(decisions.filter { $0 }.count == 1, "round \(round): \(decisions)")
    }
    for store in stores { await store.close() }
    await handle.cleanUp()
  }

  /// Bug (defect 3): a unique key a concurrent write had just taken (23505) was `.invalid`,
  /// which the board API answered `422 validation_failed` with PostgreSQL's own text. It is
  /// now a ``VoteStoreError/Kind/conflict``: the write runs again (three more times, as an
  /// upsert that lost a race then finds the row), and one that still fails says so in our
  /// words, on one line.
  @Test func aUniqueKeyTakenFirstIsAConflictRetriedAndToldInOurWords() async throws {
    let handle = try await StoreHandle.make(.postgres)
    let board = try PostgresBoardStore(
      connectionString: try #require(handle.connectionString), poolSize: 1)
    try await board.write { try $0.put(BoardStoreTests.feature(1, ref: "taken")) }
    let attempts = AttemptCount()
    var caught: (any Error)?
    do {
      try await board.write { tables in
        attempts.add()
        try tables.put(BoardStoreTests.feature(2, ref: "taken"))
      }
    } catch {
      caught = error
    }
    let failure = try #require(caught as? VoteStoreError, "\(String(describing: caught))")
    #expect(failure.kind == .conflict)
    #expect(attempts.value == 4)
    #expect(failure.message.contains("23505"), "\(failure.message)")
    #expect(failure.message.contains(where: \.isNewline) == false, "\(failure.message)")
    #expect(!failure.publicMessage.contains("duplicate"), "\(failure.publicMessage)")
    #expect(!failure.publicMessage.contains("PostgreSQL"), "\(failure.publicMessage)")
    #expect(failure.isStoreFailure == false)
    // Nothing of the failed write was kept.
    #expect(try await board.read { try $0.feature(Self.project, id: 2) } == nil)
    await board.close()
    await handle.cleanUp()
  }

  @Test func theServersConflictCodesAreConflictsAndSessionEndsAreLostConnections() {
    for state in ["23505", "40001", "40P01"] {
      #expect(PostgresConnection.kind(sqlState: state) == .conflict, "\(state)")
    }
    #expect(PostgresConnection.kind(sqlState: "23514") == .invalid)
    #expect(PostgresConnection.kind(sqlState: "55P03") == .busy)
    for state in ["57P01", "57P02", "08006"] {
      #expect(PostgresConnection.endsSession(sqlState: state), "\(state)")
    }
    #expect(!PostgresConnection.endsSession(sqlState: "57014"))
    let refused = PostgresConnection.failure(
      sqlState: "23514",
      message: PostgresConnection.oneLine(
        "ERROR:  new row violates check constraint \"c\"\nDETAIL:  Failing row contains (1).\n"))
    #expect(refused.kind == .invalid)
    #expect(
      refused.message
        == "PostgreSQL [23514]: ERROR:  new row violates check constraint \"c\" DETAIL:  Failing row contains (1)."
    )
    #expect(refused.publicDetail?.contains("violates") == false)
  }
}

/// How many times a body ran.
private final class AttemptCount: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0

  func add() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}
