import Foundation
import HTTPServer
import Testing
import VoteStore

@testable import CounterService

/// One answer, as a test sees it.
struct Answer {
  var status: Int
  var headers: HTTPHeaders
  var body: String

  /// The body parsed as a JSON object.
  var object: [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
  }
}

/// A `CounterService` over a real `SQLiteVoteStore` in its own temporary directory.
struct ServiceHarness {
  let directory: URL
  let store: SQLiteVoteStore
  let service: CounterService
  let logged = Locked<[String]>([])

  /// The admin token every harness is configured with unless a test says otherwise.
  static let token = "s3cret-token"

  /// A configuration without rate limits (nor bounds on new counters), with the admin token,
  /// logging into `logged`.
  static func configuration(
    _ adjust: (inout CounterServiceConfiguration) -> Void = { _ in }
  ) -> CounterServiceConfiguration {
    var configuration = CounterServiceConfiguration(
      adminToken: token, readLimit: .unlimited, writeLimit: .unlimited)
    configuration.createLimit = .unlimited
    configuration.maxCounters = 0
    adjust(&configuration)
    return configuration
  }

  init(
    options: SQLiteVoteStoreOptions = .init(),
    _ adjust: (inout CounterServiceConfiguration) -> Void = { _ in }
  ) throws {
    directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("counter-service-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    store = try SQLiteVoteStore(directory: directory, options: options)
    var configuration = ServiceHarness.configuration(adjust)
    let logged = self.logged
    configuration.log = { line in logged.withLock { $0.append(line) } }
    service = CounterService(store: store, configuration: configuration)
  }

  /// Sends one request through the service's handler.
  func call(
    _ target: String, method: HTTPMethod = .get, headers: HTTPHeaders = HTTPHeaders(),
    from address: String = "10.0.0.1"
  ) async -> Answer {
    let request = HTTPRequest(
      method: method, target: target, headers: headers, remoteAddress: address)
    let response = await service.handler(request)
    return Answer(
      status: response.status, headers: response.headers,
      body: String(decoding: response.body, as: UTF8.self))
  }

  /// Closes the store and removes the directory.
  func tearDown() async {
    await store.close()
    try? FileManager.default.removeItem(at: directory)
  }
}

/// One step of a scenario table: a request and the exact answer expected.
struct Step: CustomTestStringConvertible {
  var target: String
  var headers: HTTPHeaders = HTTPHeaders()
  var status: Int
  var body: String?

  init(_ target: String, _ status: Int, _ body: String?, headers: HTTPHeaders = HTTPHeaders()) {
    self.target = target
    self.status = status
    self.body = body
    self.headers = headers
  }

  var testDescription: String { "GET \(target) → \(status)" }
}

extension ServiceHarness {
  /// Runs `steps` in order and checks each status and (when given) the exact body.
  func run(_ steps: [Step], sourceLocation: SourceLocation = #_sourceLocation) async {
    for step in steps {
      let answer = await call(step.target, headers: step.headers)
      #expect(
        answer.status == step.status, "\(step.target): \(answer.body)",
        sourceLocation: sourceLocation)
      if let body = step.body {
        #expect(answer.body == body, "\(step.target)", sourceLocation: sourceLocation)
      }
    }
  }
}
