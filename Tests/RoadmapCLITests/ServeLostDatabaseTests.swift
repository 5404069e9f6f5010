import Foundation
import Testing

/// The real `roadmapctl serve` when its database file is deleted while it runs: it must not
/// acknowledge votes that land in the unlinked file (a restart would not find them).
@Suite struct ServeLostDatabaseTests {
  /// A server on a new data directory in `directory`, with one vote counted.
  static func servedWithAVote(in directory: TemporaryDirectory) async throws
    -> (server: ServeProcess, data: URL)
  {
    let data = directory.url.appendingPathComponent("data")
    let server = try await ServeProcess.start(dataDirectory: data)
    #expect(try await server.get("/hit/app.example/kept").body == #"{"value":1}"#)
    return (server, data)
  }

  @Test func votesAfterTheDatabaseFileIsDeletedAreRefusedAndHealthSaysWhy() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (server, data) = try await Self.servedWithAVote(in: directory)
    defer { server.process.kill() }

    let database = data.appendingPathComponent("votes.sqlite3").path
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: database + suffix)
    }
    for route in ["/hit/app.example/kept", "/hit/app.example/new", "/v1/app.example/kept/up"] {
      let refused = try await server.get(route)
      #expect(refused.status == 503, "\(route): \(refused.body)")
      #expect(refused.body.contains("nothing was changed"), "\(route): \(refused.body)")
    }
    let health = try await server.get("/healthz")
    #expect(health.status == 503)
    #expect(
      health.body.contains("was deleted or replaced while the store had it open"), "\(health.body)")
    #expect(try await server.stop() == 0)
  }

  /// Bug: with only the database file deleted (its WAL still there), `/healthz` said "disk
  /// I/O error … while preparing SELECT …", as if the disk had failed; and the vote's refusal
  /// advised putting the file back, which does not bring the store back.
  @Test func healthNamesADeletedFileAsDeleted() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (server, data) = try await Self.servedWithAVote(in: directory)
    defer { server.process.kill() }
    try FileManager.default.removeItem(
      atPath: data.appendingPathComponent("votes.sqlite3").path)
    let health = try await server.get("/healthz")
    #expect(health.status == 503)
    #expect(
      health.body.contains("was deleted or replaced while the store had it open"), "\(health.body)")
    #expect(!health.body.contains("disk I/O error"), "\(health.body)")
    // Anyone may ask /healthz: the data directory is named in the log only.
    #expect(!health.body.contains(data.path), "\(health.body)")
    let refused = try await server.get("/hit/app.example/kept")
    #expect(refused.status == 503)
    #expect(try await server.stop() == 0)
  }
}
