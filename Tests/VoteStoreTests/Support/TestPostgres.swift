import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// One throwaway PostgreSQL cluster per test process, started on first use.
///
/// `initdb` into a temporary directory, `pg_ctl start` listening only on a Unix socket in that
/// directory (`fsync=on`), stopped and removed when the process exits. As root (CI), the
/// server binaries run as the `postgres` user through `runuser`. Each test gets its own
/// database (`CREATE DATABASE t_<uuid>`). With `ROADMAP_TEST_POSTGRES_URL` set, that server
/// is used instead and nothing is started.
actor TestPostgres {
  static let shared = TestPostgres()

  private var adminURL: String?
  private var ownsCluster = false
  private var startError: String?

  /// Creates an empty database; returns its connection string and name.
  nonisolated func createDatabase() async throws -> (connectionString: String, name: String) {
    let admin = try await ensureRunning()
    let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    try Self.psql(admin, "CREATE DATABASE \(name)")
    return (Self.connectionString(admin, database: name), name)
  }

  /// Drops a database made by ``createDatabase()`` on a server given by
  /// `ROADMAP_TEST_POSTGRES_URL`. The throwaway cluster is removed whole at exit instead
  /// (each DROP DATABASE forces a checkpoint, which would slow the suite down).
  func dropDatabase(_ name: String) {
    guard let adminURL, !ownsCluster else { return }
    _ = try? Self.psql(adminURL, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
  }

  /// Runs SQL as the administrator in `database` (for tests that kill connections).
  nonisolated func administer(database: String, _ sql: String) async throws -> String {
    let admin = try await ensureRunning()
    return try Self.psql(Self.connectionString(admin, database: database), sql)
  }

  private func ensureRunning() throws -> String {
    if let adminURL { return adminURL }
    if let startError { throw TestPostgresError(message: startError) }
    do {
      let (url, owned) = try Self.start()
      adminURL = url
      ownsCluster = owned
      return url
    } catch {
      startError = "\(error)"
      throw error
    }
  }

  // MARK: The cluster

  private static let state = ClusterState()

  private static func start() throws -> (url: String, owned: Bool) {
    if let url = ProcessInfo.processInfo.environment["ROADMAP_TEST_POSTGRES_URL"], !url.isEmpty {
      return (url, false)
    }
    let bin = try binDirectory()
    let dir = FileManager.default.temporaryDirectory
      .appendingPathComponent("roadmap-pg-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let asRoot = getuid() == 0
    if asRoot { try run("/bin/chown", ["postgres:postgres", dir.path]) }
    let data = dir.appendingPathComponent("data").path
    let log = dir.appendingPathComponent("server.log").path
    try runServerTool(
      bin + "/initdb",
      ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"], asRoot: asRoot)
    let options = [
      "-c port=5432", "-c listen_addresses=''", "-c unix_socket_directories='\(dir.path)'",
      "-c fsync=on", "-c max_connections=400", "-c dynamic_shared_memory_type=mmap",
    ].joined(separator: " ")
    state.set(dir: dir.path, data: data, bin: bin, asRoot: asRoot)
    atexit { TestPostgres.stopAtExit() }
    try runServerTool(
      bin + "/pg_ctl", ["-D", data, "-l", log, "-w", "-o", options, "start"], asRoot: asRoot)
    return ("host=\(dir.path) port=5432 user=postgres dbname=postgres", true)
  }

  private static func stopAtExit() {
    guard let (dir, data, bin, asRoot) = state.get() else { return }
    try? runServerTool(
      bin + "/pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"], asRoot: asRoot)
    try? FileManager.default.removeItem(atPath: dir)
  }

  private static func binDirectory() throws -> String {
    let root = "/usr/lib/postgresql"
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
    let usable = versions.compactMap { Int($0) }.sorted(by: >)
      .map { "\(root)/\($0)/bin" }
      .filter { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }
    guard let bin = usable.first else {
      throw TestPostgresError(
        message: "no PostgreSQL server found under \(root) (install postgresql, or set "
          + "ROADMAP_TEST_POSTGRES_URL)")
    }
    return bin
  }

  // MARK: Processes

  private static func runServerTool(_ tool: String, _ arguments: [String], asRoot: Bool) throws {
    if asRoot {
      try run("/usr/sbin/runuser", ["-u", "postgres", "--", tool] + arguments)
    } else {
      try run(tool, arguments)
    }
  }

  /// The server's own `psql` when the server is installed, else the one on the usual path.
  private static let psqlPath: String = {
    if let bin = try? binDirectory(), FileManager.default.isExecutableFile(atPath: bin + "/psql") {
      return bin + "/psql"
    }
    return ["/usr/bin/psql", "/usr/local/bin/psql"].first {
      FileManager.default.isExecutableFile(atPath: $0)
    } ?? "/usr/bin/psql"
  }()

  @discardableResult
  private static func psql(_ connection: String, _ sql: String) throws -> String {
    try run(
      psqlPath, ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", connection, "-c", sql])
  }

  /// Runs a program to completion and returns its output (stdout and stderr).
  ///
  /// Not through Foundation's `Process`: it waits until every holder of a descriptor it gives
  /// the child has closed it, and a server started by `pg_ctl` holds it forever. Here the
  /// child gets stdin, stdout and stderr only (every other descriptor is closed).
  @discardableResult
  private static func run(_ executable: String, _ arguments: [String]) throws -> String {
    let outputPath = FileManager.default.temporaryDirectory
      .appendingPathComponent("roadmap-pg-output-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: outputPath) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    if let closeFrom = closeFromAction { _ = closeFrom(&actions, 3) }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard spawned == 0 else {
      throw TestPostgresError(
        message: "cannot start \(executable): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    guard status == 0 else {
      throw TestPostgresError(
        message: "\(executable) \(arguments.joined(separator: " ")) failed "
          + "(status \(status)): \(text)")
    }
    return text
  }

  private typealias CloseFrom =
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32

  /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which Swift does not import.
  private static let closeFromAction: CloseFrom? = {
    guard
      let symbol = dlsym(
        UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
    else { return nil }
    return unsafeBitCast(symbol, to: CloseFrom.self)
  }()

  /// `admin` with its database replaced by `database` (URL or key=value form).
  static func connectionString(_ admin: String, database: String) -> String {
    if admin.hasPrefix("postgres://") || admin.hasPrefix("postgresql://"),
      var components = URLComponents(string: admin)
    {
      components.path = "/" + database
      return components.string ?? admin
    }
    return admin + " dbname=\(database)"
  }
}

struct TestPostgresError: Error, CustomStringConvertible {
  var message: String
  var description: String { message }
}

/// What the exit handler needs to stop the cluster (it cannot capture context).
private final class ClusterState: @unchecked Sendable {
  private let lock = NSLock()
  private var value: (String, String, String, Bool)?

  func set(dir: String, data: String, bin: String, asRoot: Bool) {
    lock.withLock { value = (dir, data, bin, asRoot) }
  }

  func get() -> (String, String, String, Bool)? { lock.withLock { value } }
}

/// A PostgreSQL cluster of a test's own (for tests that freeze or stop the server, so that
/// no other test's database is affected). Stopped and removed by ``stop()``.
final class SeparateCluster: @unchecked Sendable {
  let connectionString: String
  private let dir: String
  private let data: String
  private let bin: String
  private let asRoot: Bool

  fileprivate init(connectionString: String, dir: String, data: String, bin: String, asRoot: Bool) {
    self.connectionString = connectionString
    self.dir = dir
    self.data = data
    self.bin = bin
    self.asRoot = asRoot
  }

  /// The postmaster and every process it started (backends, checkpointer, …).
  func serverProcesses() throws -> [pid_t] {
    let pidFile = try String(contentsOfFile: data + "/postmaster.pid", encoding: .utf8)
    guard let postmaster = pid_t(pidFile.split(separator: "\n").first ?? "") else {
      throw TestPostgresError(message: "no postmaster.pid in \(data)")
    }
    var pids = [postmaster]
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
      guard let pid = pid_t(entry),
        let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { continue }
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      if fields.count > 1, pid_t(fields[1]) == postmaster { pids.append(pid) }
    }
    return pids
  }

  /// Sends `signal` to the postmaster and all its children (SIGSTOP freezes the server).
  func signalAll(_ signal: Int32) throws {
    for pid in try serverProcesses() { kill(pid, signal) }
  }

  func stop() {
    _ = try? serverProcesses().map { kill($0, SIGCONT) }
    TestPostgres.stopSeparate(bin: bin, data: data, asRoot: asRoot)
    try? FileManager.default.removeItem(atPath: dir)
  }
}

extension TestPostgres {
  /// Starts a cluster of the caller's own (not shared with other tests); nil when no
  /// PostgreSQL server is installed here.
  static func startSeparateCluster() throws -> SeparateCluster {
    let bin = try binDirectory()
    let dir = FileManager.default.temporaryDirectory
      .appendingPathComponent("roadmap-pg-own-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let asRoot = getuid() == 0
    if asRoot { try run("/bin/chown", ["postgres:postgres", dir.path]) }
    let data = dir.appendingPathComponent("data").path
    do {
      try runServerTool(
        bin + "/initdb",
        ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"], asRoot: asRoot)
    } catch {
      try? FileManager.default.removeItem(at: dir)
      throw error
    }
    let options = [
      "-c port=5432", "-c listen_addresses=''", "-c unix_socket_directories='\(dir.path)'",
      "-c fsync=on", "-c max_connections=50", "-c dynamic_shared_memory_type=mmap",
    ].joined(separator: " ")
    try runServerTool(
      bin + "/pg_ctl",
      [
        "-D", data, "-l", dir.appendingPathComponent("server.log").path, "-w", "-o", options,
        "start",
      ],
      asRoot: asRoot)
    return SeparateCluster(
      connectionString: "host=\(dir.path) port=5432 user=postgres dbname=postgres", dir: dir.path,
      data: data, bin: bin, asRoot: asRoot)
  }

  fileprivate static func stopSeparate(bin: String, data: String, asRoot: Bool) {
    try? runServerTool(
      bin + "/pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"], asRoot: asRoot)
  }
}
