import Foundation
import Testing
import VoteStore

/// Which store a shared test body runs against. Each test gets a store of its own
/// (its own SQLite directory or its own PostgreSQL database).
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case sqlite
  case postgres

  var testDescription: String { rawValue }

  /// Opens a fresh, empty store and runs `body` with it; closes and removes it afterwards.
  func withStore(
    _ body: (any VoteStore, StoreHandle) async throws -> Void
  ) async throws {
    let handle = try await StoreHandle.make(self)
    let store = try handle.open()
    do {
      try await body(store, handle)
    } catch {
      await store.close()
      await handle.cleanUp()
      throw error
    }
    await store.close()
    await handle.cleanUp()
  }
}

/// Where a test's store lives, so a test can open a second instance on the same data.
struct StoreHandle: Sendable {
  let kind: StoreKind
  let directory: TemporaryDirectory?
  let connectionString: String?
  let databaseName: String?

  static func make(_ kind: StoreKind) async throws -> StoreHandle {
    switch kind {
    case .sqlite:
      return StoreHandle(
        kind: kind, directory: try TemporaryDirectory(), connectionString: nil,
        databaseName: nil)
    case .postgres:
      let (url, name) = try await TestPostgres.shared.createDatabase()
      return StoreHandle(kind: kind, directory: nil, connectionString: url, databaseName: name)
    }
  }

  /// A new store instance on this test's data.
  func open() throws -> any VoteStore {
    switch kind {
    case .sqlite:
      return try SQLiteVoteStore(directory: directory!.url)
    case .postgres:
      return try PostgresVoteStore(connectionString: connectionString!, poolSize: 4)
    }
  }

  func cleanUp() async {
    directory?.remove()
    if let databaseName { await TestPostgres.shared.dropDatabase(databaseName) }
  }
}
