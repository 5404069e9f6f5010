// A throwaway PostgreSQL server for the `serve --postgres` end-to-end tests: `initdb` into a
// temporary directory and `pg_ctl start` listening only on a Unix socket there (fsync on),
// started once per test process on first use and stopped at exit. As root, the server tools
// run as the `postgres` user through `runuser`. `ROADMAP_TEST_POSTGRES_URL` names an existing
// server instead. Each test gets its own database.
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The shared throwaway cluster. Its blocking work runs on plain threads, never on the
/// cooperative pool, and one lock makes the first caller start it.
final class ServePostgres: @unchecked Sendable {
  static let shared = ServePostgres()

  private let lock = NSLock()
  private var admin: String?
  private static let cluster = Locked()

  /// A connection string to a new, empty database.
  func newDatabase() async throws -> String {
    try await WireClient.onThread { try self.lock.withLock { try self.newDatabaseLocked() } }
  }

  /// The rows `sql` returns on the database at `url`, as `psql -A -t` prints them, trimmed.
  func query(_ url: String, _ sql: String) async throws -> String {
    try await WireClient.onThread {
      try Self.tool("/usr/bin/psql", [url, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql])
        .trimmingCharacters(in: .whitespacesAndNewlines)
    }
  }

  private func newDatabaseLocked() throws -> String {
    let admin = try running()
    let name = "serve_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    try Self.tool(
      "/usr/bin/psql", [admin, "-v", "ON_ERROR_STOP=1", "-c", "CREATE DATABASE \(name)"])
    return admin.replacingOccurrences(of: "dbname=postgres", with: "dbname=\(name)")
  }

  private func running() throws -> String {
    if let admin { return admin }
    if let url = ProcessInfo.processInfo.environment["ROADMAP_TEST_POSTGRES_URL"], !url.isEmpty {
      admin = url
      return url
    }
    let bin = try Self.binDirectory()
    let dir = FileManager.default.temporaryDirectory
      .appendingPathComponent("serve-pg-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let asRoot = getuid() == 0
    if asRoot { try Self.tool("/bin/chown", ["postgres:postgres", dir.path]) }
    let data = dir.appendingPathComponent("data").path
    try Self.server(
      bin + "/initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync"], asRoot)
    let options =
      "-c listen_addresses='' -c unix_socket_directories='\(dir.path)' -c fsync=on "
      + "-c max_connections=400"
    Self.cluster.set((bin, data, dir.path, asRoot))
    atexit { ServePostgres.stopAtExit() }
    try Self.server(
      bin + "/pg_ctl",
      ["-D", data, "-l", dir.appendingPathComponent("log").path, "-w", "-o", options, "start"],
      asRoot)
    let url = "host=\(dir.path) user=postgres dbname=postgres"
    admin = url
    return url
  }

  private static func stopAtExit() {
    guard let (bin, data, dir, asRoot) = cluster.get() else { return }
    try? server(bin + "/pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"], asRoot)
    try? FileManager.default.removeItem(atPath: dir)
  }

  private static func binDirectory() throws -> String {
    let root = "/usr/lib/postgresql"
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    for version in versions.sorted(by: >)
    where FileManager.default.isExecutableFile(
      atPath: "\(root)/\(version)/bin/initdb")
    {
      return "\(root)/\(version)/bin"
    }
    throw ServePostgresError(message: "no PostgreSQL server binaries under \(root)")
  }

  private static func server(_ path: String, _ arguments: [String], _ asRoot: Bool) throws {
    if asRoot {
      try tool("/usr/sbin/runuser", ["-u", "postgres", "--", path] + arguments)
    } else {
      try tool(path, arguments)
    }
  }

  /// Runs a tool to completion with posix_spawn and waitpid. Not Foundation's `Process`: it
  /// waits for every holder of a descriptor it hands the child to close it, and the server
  /// `pg_ctl` leaves behind would hold it forever. The child keeps only fds 0-2.
  @discardableResult
  private static func tool(_ path: String, _ arguments: [String]) throws -> String {
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("serve-pg-tool-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: output) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    if let closeFrom { _ = closeFrom(&actions, 3) }
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
    guard spawned == 0 else {
      throw ServePostgresError(message: "cannot run \(path): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    guard status == 0 else {
      throw ServePostgresError(
        message: "\(path) \(arguments.joined(separator: " ")) failed (\(status)): \(text)")
    }
    return text
  }

  private typealias CloseFrom =
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

  /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), looked up at run time.
  private static let closeFrom: CloseFrom? = {
    dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
      .map { unsafeBitCast($0, to: CloseFrom.self) }
  }()

  /// The cluster's paths, for the exit handler.
  final class Locked: @unchecked Sendable {
    private let lock = NSLock()
    private var value: (String, String, String, Bool)?
    func set(_ v: (String, String, String, Bool)) { lock.withLock { value = v } }
    func get() -> (String, String, String, Bool)? { lock.withLock { value } }
  }
}

/// The throwaway server could not be started or used.
struct ServePostgresError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}
