import Foundation
import Testing

@testable import VoteStore

/// Board writes of one project from two board stores (two instances) on one PostgreSQL
/// database at once: what holds them apart (the project lock).
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
      let start = BodyStartLine(8)
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
}

/// Holds database threads until `count` bodies have arrived (at most 60 s, so that one that
/// never comes cannot hang the test), then lets all go at once.
private final class BodyStartLine: @unchecked Sendable {
  private let condition = NSCondition()
  private let count: Int
  private var arrived = 0

  init(_ count: Int) { self.count = count }

  func arriveAndWait() {
    condition.lock()
    defer { condition.unlock() }
    arrived += 1
    if arrived >= count {
      condition.broadcast()
      return
    }
    let deadline = Date(timeIntervalSinceNow: 60)
    while arrived < count && condition.wait(until: deadline) {}
  }
}
