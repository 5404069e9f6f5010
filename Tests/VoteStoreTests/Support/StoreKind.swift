import Foundation
import Testing
import VoteStore

/// Which store a shared test body runs against. Each test gets a store of its own
/// (its own SQLite directory or its own PostgreSQL database).
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case sqlite
  /// SQLite with counts in memory (``SQLiteVoteStoreOptions/memoryCache``), as `serve` runs it.
  case sqliteCached
  case postgres

  /// Whether the store is a SQLite file (with or without the memory cache).
  var isSQLite: Bool { self != .postgres }

  var testDescription: String { rawValue }

  /// Opens a fresh, empty store and runs `body` with it; closes and removes it afterwards.
  /// With `voterKeyFrom`, the new store gets that store's voter key first (as an operator
  /// moving a store does, docs/storage.md), so exports of the one import into the other.
  func withStore(
    voterKeyFrom source: StoreHandle? = nil,
    _ body: (any VoteStore, StoreHandle) async throws -> Void
  ) async throws {
    let handle = try await StoreHandle.make(self)
    if let source { try await handle.install(voterKey: try await source.voterKeySecret()) }
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
    case .sqlite, .sqliteCached:
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
    case .sqliteCached:
      return try SQLiteVoteStore(
        directory: directory!.url, options: SQLiteVoteStoreOptions(memoryCache: true))
    case .postgres:
      return try PostgresVoteStore(connectionString: connectionString!, poolSize: 4)
    }
  }

  /// The 64 hex digits of this store's voter key (its file, or its `voter_key` row).
  func voterKeySecret() async throws -> String {
    switch kind {
    case .sqlite, .sqliteCached:
      let text = try String(contentsOf: keyFile, encoding: .utf8)
      return String(text.split(separator: " ")[1].prefix(64))
    case .postgres:
      return try await TestPostgres.shared.administer(
        database: databaseName!, "SELECT secret FROM voter_key"
      ).trimmingCharacters(in: .whitespacesAndNewlines)
    }
  }

  /// Gives this (still voter-less) store the voter key `secret`, the documented way.
  func install(voterKey secret: String) async throws {
    switch kind {
    case .sqlite, .sqliteCached:
      try? FileManager.default.removeItem(at: keyFile)
      try Data("roadmapbridge-voter-key-v1 \(secret)\n".utf8).write(to: keyFile)
      try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
    case .postgres:
      try await open().close()
      _ = try await TestPostgres.shared.administer(
        database: databaseName!, "UPDATE voter_key SET secret = '\(secret)' WHERE id = 1")
    }
  }

  /// The SQLite store's key file.
  var keyFile: URL {
    directory!.url.appendingPathComponent(SQLiteVoteStore.fileName + "-voter-key")
  }

  func cleanUp() async {
    directory?.remove()
    if let databaseName { await TestPostgres.shared.dropDatabase(databaseName) }
  }
}
