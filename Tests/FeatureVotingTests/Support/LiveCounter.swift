// The real counter service, in-process on a real socket: CounterService over a real
// SQLiteVoteStore in its own temporary directory, served by HTTPServer on 127.0.0.1 port 0 (or
// a port given, to bring a server "back up" where clients expect it). Every request it gets is
// logged, so tests can count requests and see their targets.
import CounterService
import Foundation
import HTTPServer
import VoteStore

final class LiveCounter: Sendable {
  let directory: URL
  let store: SQLiteVoteStore
  let server: HTTPServer
  let port: Int
  private let log = RequestLog()
  private let flight = InFlight()

  /// Starts the service; `adjust` changes its configuration (no rate limits by default).
  init(
    port: Int = 0, directory: URL? = nil,
    _ adjust: (inout CounterServiceConfiguration) -> Void = { _ in }
  ) throws {
    let directory =
      directory
      ?? FileManager.default.temporaryDirectory.appendingPathComponent(
        "feature-voting-live-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    self.directory = directory
    store = try SQLiteVoteStore(directory: directory)
    var configuration = CounterServiceConfiguration(
      adminToken: "test-token", readLimit: .unlimited, writeLimit: .unlimited, log: { _ in })
    adjust(&configuration)
    let service = CounterService(store: store, configuration: configuration)
    let inner = service.handler
    let log = self.log
    let flight = self.flight
    server = HTTPServer(
      configuration: HTTPServerConfiguration(
        host: "127.0.0.1", port: port, idleTimeout: .seconds(10), writeTimeout: .seconds(10))
    ) { request in
      log.append(request)
      flight.enter()
      defer { flight.leave() }
      return await inner(request)
    }
    self.port = try server.start()
  }

  var url: URL { URL(string: "http://127.0.0.1:\(port)")! }
  var targets: [String] { log.requests.map(\.target) }
  var requests: [HTTPRequest] { log.requests }
  /// The most requests the service handled at the same time.
  var highestConcurrency: Int { flight.highest }

  /// Stops the server and closes the store; `keepData` leaves the directory for a restart.
  func stop(keepData: Bool = false) async {
    await server.shutdown(gracePeriod: .seconds(1))
    await store.close()
    if !keepData { try? FileManager.default.removeItem(at: directory) }
  }
}

/// Counts requests in flight.
final class InFlight: @unchecked Sendable {
  private let lock = NSLock()
  private var current = 0
  private var most = 0

  func enter() {
    lock.withLock {
      current += 1
      most = max(most, current)
    }
  }

  func leave() { lock.withLock { current -= 1 } }
  var highest: Int { lock.withLock { most } }
}
