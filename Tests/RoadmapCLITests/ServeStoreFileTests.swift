import Foundation
import Testing

/// Issue 7, item 3, through the real binary: `serve` on an empty or foreign `votes.sqlite3`
/// exits 1 with a message naming the file, and leaves the file as it was.
@Suite struct ServeStoreFileTests {
  static func serve(_ directory: URL) async throws -> (exitCode: Int32, stderr: String) {
    let result = try await Roadmapctl.run(
      ["serve", "--port", "0", "--data-dir", directory.path], timeout: .seconds(60))
    return (result.exitCode, result.stderrText)
  }

  @Test func aTruncatedStoreIsRefusedNotStartedEmpty() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    // A store with counts, then truncated to 0 bytes (as the issue did with 5,000 counters).
    let server = try await ServeProcess.start(dataDirectory: directory.url)
    defer { server.process.kill() }
    _ = try await server.get("/hit/app.example/feature1")
    #expect(try await server.stop() == 0)
    let file = directory.url.appendingPathComponent("votes.sqlite3")
    for suffix in ["-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: file.path + suffix)
    }
    try Data().write(to: file)

    let (code, stderr) = try await Self.serve(directory.url)
    #expect(code == 1)
    #expect(stderr.contains("\(file.path) is an empty file (0 bytes)"), "\(stderr)")
    // Advice that can be followed: a restore into this directory is refused until the file
    // is moved away (it said "Restore it from a backup ('roadmapctl votes import')").
    #expect(stderr.contains("Move it away, then load a backup"), "\(stderr)")
    #expect(stderr.contains("'roadmapctl restore FILE' for a backup"), "\(stderr)")
    #expect(!stderr.contains("Serving on"))
    #expect(try Data(contentsOf: file).isEmpty)
  }

  /// `kill -9`, then `rm votes.sqlite3` without its `-wal`: the next start created a new
  /// database beside the old log, SQLite replayed the log into it, the start failed saying
  /// the store was damaged ("move the file away", though no file was left), and the failed
  /// start then deleted the log, which held the newest votes. Now it is refused, saying what
  /// happened, and the log is left as it was.
  @Test func aWriteAheadLogWithoutItsDatabaseIsRefusedAndKept() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let source = directory.url.appendingPathComponent("source")
    let target = directory.url.appendingPathComponent("target")
    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
    let server = try await ServeProcess.start(dataDirectory: source, ["--write-limit", "0"])
    defer { server.process.kill() }
    let sourceFile = source.appendingPathComponent("votes.sqlite3").path
    // The log as a crash leaves it: copied right after a vote, before the idle checkpoint
    // empties it (again until a copy holds frames).
    var log = Data()
    for round in 0..<10_000 where log.isEmpty {
      _ = try await server.get("/hit/app.example/feature\(round)")
      log = (try? Data(contentsOf: URL(fileURLWithPath: sourceFile + "-wal"))) ?? Data()
    }
    try #require(!log.isEmpty)
    #expect(try await server.stop() == 0)
    let file = target.appendingPathComponent("votes.sqlite3")
    try log.write(to: URL(fileURLWithPath: file.path + "-wal"))
    try FileManager.default.copyItem(
      atPath: sourceFile + "-voter-key", toPath: file.path + "-voter-key")

    let (code, stderr) = try await Self.serve(target)
    #expect(code == 1)
    #expect(
      stderr.contains(
        "\(file.path)-wal (\(log.count) bytes) is there but \(file.path) is not: the database "
          + "was deleted or moved away without its write-ahead log"), "\(stderr)")
    #expect(!stderr.contains("Serving on"))
    #expect(!FileManager.default.fileExists(atPath: file.path))
    #expect(FileManager.default.contents(atPath: file.path + "-wal") == log)
  }

  @Test func anotherProgramsDatabaseIsRefused() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let file = directory.url.appendingPathComponent("votes.sqlite3")
    let made = try await Roadmapctl.runTool(
      "/usr/bin/env",
      [
        "python3", "-c",
        "import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); "
          + "db.execute('CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT)'); db.commit()",
        file.path,
      ])
    #expect(made == 0)
    let before = try Data(contentsOf: file)
    let (code, stderr) = try await Self.serve(directory.url)
    #expect(code == 1)
    #expect(stderr.contains("\(file.path) is a SQLite database but not a RoadmapBridge vote store"))
    #expect(stderr.contains("tables users"))
    #expect(try Data(contentsOf: file) == before)
  }

  @Test func aMissingFileIsCreated() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(
      dataDirectory: directory.url.appendingPathComponent("new"))
    defer { server.process.kill() }
    #expect(try await server.get("/hit/app.example/feature1").body == #"{"value":1}"#)
    #expect(try await server.stop() == 0)
  }
}

/// A database file the server's user cannot write is refused at start: SQLite opened it
/// read-only, and the server answered reads and refused every vote while it looked healthy.
@Suite struct ReadOnlyStoreFileTests {
  @Test func aReadOnlyDatabaseFileIsRefusedAtStart() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let data = directory.url.appendingPathComponent("data")
    let imported = try await Roadmapctl.run(
      ["votes", "import", "-", "--data-dir", data.path],
      stdin: Array(#"{"version":1,"counters":[]}"#.utf8))
    #expect(imported.exitCode == 0, "\(imported.stderrText)")
    let database = data.appendingPathComponent("votes.sqlite3").path
    chmod(directory.path, 0o777)
    chmod(data.path, 0o777)
    chmod(database, 0o444)
    var command = [
      try Roadmapctl.binaryURL().path, "serve", "--port", "0", "--data-dir", data.path,
    ]
    if geteuid() == 0 {
      // Root writes any file: the server runs as nobody, who may read the key, not write the
      // database.
      let nobody = getpwnam("nobody")
      try #require(nobody != nil)
      chown(database + "-voter-key", nobody!.pointee.pw_uid, nobody!.pointee.pw_gid)
      command = ["/usr/sbin/runuser", "-u", "nobody", "--"] + command
    }
    let child = try ChildProcess.start(command[0], Array(command.dropFirst()))
    let status = try await child.waitForExit(timeout: .seconds(60))
    try await child.waitForOutputEnd(timeout: .seconds(10))
    #expect(status == 1, "\(child.stderrText)")
    #expect(child.stderrText.contains("\(database) cannot be written"), "\(child.stderrText)")
    #expect(!child.stdoutText.contains("Serving on"))
  }

  /// A data directory the server may not write, around a database it may: SQLite cannot
  /// make its write-ahead log there, and the start failed with "attempt to write a readonly
  /// database [1544] while preparing PRAGMA page_count".
  @Test func aReadOnlyDataDirectoryIsRefusedNamingIt() async throws {
    let directory = try TemporaryDirectory()
    defer {
      chmod(directory.url.appendingPathComponent("data").path, 0o755)
      directory.remove()
    }
    let data = directory.url.appendingPathComponent("data")
    let imported = try await Roadmapctl.run(
      ["votes", "import", "-", "--data-dir", data.path],
      stdin: Array(#"{"version":1,"counters":[]}"#.utf8))
    #expect(imported.exitCode == 0, "\(imported.stderrText)")
    let database = data.appendingPathComponent("votes.sqlite3").path
    chmod(directory.path, 0o777)
    chmod(database, 0o666)
    var command = [
      try Roadmapctl.binaryURL().path, "serve", "--port", "0", "--data-dir", data.path,
    ]
    if geteuid() == 0 {
      // Root writes any directory: the server runs as nobody, who owns the key and may
      // write the database, not the directory.
      let nobody = getpwnam("nobody")
      try #require(nobody != nil)
      chown(database + "-voter-key", nobody!.pointee.pw_uid, nobody!.pointee.pw_gid)
      command = ["/usr/sbin/runuser", "-u", "nobody", "--"] + command
    }
    chmod(data.path, 0o555)
    let child = try ChildProcess.start(command[0], Array(command.dropFirst()))
    let status = try await child.waitForExit(timeout: .seconds(60))
    try await child.waitForOutputEnd(timeout: .seconds(10))
    #expect(status == 1, "\(child.stderrText)")
    #expect(
      child.stderrText.contains(
        "the data directory \(data.path) cannot be written (Permission denied)"),
      "\(child.stderrText)")
    #expect(child.stderrText.contains("write permission on the directory"))
    #expect(!child.stdoutText.contains("Serving on"))
  }
}
