import Foundation
import Testing

/// Servers and fixtures for the end-to-end tests of `migrate`, `publish`, `reconcile` and
/// `votes pull`: real `roadmapctl serve` processes on port 0, each with its own data directory.
enum SyncSupport {
  /// The admin token the tests' servers are started with.
  static let token = "sync-test-token"

  /// Starts `roadmapctl serve` with the admin token in `directory/name`, without rate limits
  /// unless `readLimit` or `writeLimit` (per minute, as `serve` takes them) set one.
  static func serve(
    in directory: TemporaryDirectory, name: String, readLimit: Int = 0, writeLimit: Int = 0
  ) async throws -> ServeProcess {
    let data = directory.url.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    return try await ServeProcess.start(
      dataDirectory: data,
      [
        "--admin-token", token, "--read-limit", String(readLimit), "--write-limit",
        String(writeLimit),
      ])
  }

  /// The project's export document, read with the admin token.
  static func export(_ server: ServeProcess, _ project: String) async throws -> [String: Any] {
    let answer = try await server.get(
      "/api/v1/\(project)/export", headers: ["Authorization": "Bearer \(token)"])
    #expect(answer.status == 200, "\(answer.body)")
    return answer.object
  }

  /// `http://127.0.0.1:PORT`.
  static func url(_ server: ServeProcess) -> String { "http://127.0.0.1:\(server.port)" }

  /// Casts `count` anonymous countapi votes for `key` in `namespace`.
  static func hit(_ server: ServeProcess, _ namespace: String, _ key: String, times count: Int)
    async throws
  {
    for _ in 0..<count {
      let answer = try await server.get("/hit/\(namespace)/\(key)")
      #expect(answer.status == 200)
    }
  }

  /// The countapi value of `key` in `namespace` (nil when the key does not exist).
  static func value(_ server: ServeProcess, _ namespace: String, _ key: String) async throws
    -> Int?
  {
    let answer = try await server.get("/get/\(namespace)/\(key)")
    return answer.object["value"] as? Int
  }

  /// A port nothing listens on: one a server held and gave up.
  static func closedPort(in directory: TemporaryDirectory) async throws -> Int {
    // A socket bound to the port and never listening: a connection to it is refused at once,
    // and no server another test starts on port 0 can be handed it (the port of a server
    // that was started and stopped could be, and then answered).
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(descriptor >= 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
        bind(descriptor, raw, length) == 0 && getsockname(descriptor, raw, &length) == 0
      }
    }
    try #require(bound, "cannot bind a socket: \(String(cString: strerror(errno)))")
    // Held open until the test process ends: the port stays taken and closed.
    return Int(UInt16(bigEndian: address.sin_port))
  }
}
