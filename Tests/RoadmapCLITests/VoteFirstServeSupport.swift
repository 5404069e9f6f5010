import Foundation
import Testing
import VoteFirstAPI

/// Which store a VoteFirst end-to-end test runs `roadmapctl serve` on.
enum BoardBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case sqlite
  case postgres

  var testDescription: String { rawValue }

  /// The `serve` arguments that pick this store (a new database for PostgreSQL).
  func arguments() async throws -> [String] {
    switch self {
    case .sqlite: return []
    case .postgres: return ["--postgres", try await ServePostgres.shared.newDatabase()]
    }
  }
}

/// A real `roadmapctl serve` on port 0 with an admin token, and VoteFirst clients for it.
struct VoteFirstServer {
  static let token = "vf-admin-token"
  let serve: ServeProcess
  let directory: TemporaryDirectory

  /// Starts a server without rate limits (unless `arguments` set them).
  static func start(_ arguments: [String] = []) async throws -> VoteFirstServer {
    let directory = try TemporaryDirectory()
    let serve = try await ServeProcess.start(
      dataDirectory: directory.url,
      ["--admin-token", token, "--read-limit", "0", "--write-limit", "0"] + arguments)
    return VoteFirstServer(serve: serve, directory: directory)
  }

  var baseURL: URL { URL(string: "http://127.0.0.1:\(serve.port)")! }

  /// A reader and voter client for `project` voting as `voter`.
  func client(_ project: String = "demo-app", voter: String = "voter-a") -> VoteFirstHTTPClient {
    VoteFirstHTTPClient(
      configuration: VoteFirstClientConfiguration(baseURL: baseURL, project: project),
      voterID: voter)
  }

  /// A client with the admin token (or `token`).
  func admin(
    _ project: String = "demo-app", token: String? = VoteFirstServer.token,
    timeout: TimeInterval = 30
  ) -> VoteFirstHTTPClient {
    VoteFirstHTTPClient(
      configuration: VoteFirstClientConfiguration(
        baseURL: baseURL, project: project, adminToken: token, timeout: timeout),
      voterID: "admin")
  }

  /// Stops the server (it must exit 0) and removes its data.
  func stop() async throws {
    let status = try await serve.stop()
    directory.remove()
    #expect(status == 0)
  }

  /// Runs `body` against a fresh server and stops it afterwards, also when `body` throws.
  static func with(
    _ backend: BoardBackend, _ arguments: [String] = [],
    _ body: (VoteFirstServer) async throws -> Void
  ) async throws {
    let server = try await start(try await backend.arguments() + arguments)
    do {
      try await body(server)
    } catch {
      try? await server.stop()
      throw error
    }
    try await server.stop()
  }
}

/// Expects `body` to fail with a ``VoteFirstError`` of `kind` (and `code`, when given).
func expectFailure<T>(
  _ kind: VoteFirstError.Kind, code: String? = nil, field: String? = nil,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () async throws -> T
) async {
  do {
    _ = try await body()
    Issue.record("expected a \(kind) failure", sourceLocation: sourceLocation)
  } catch {
    guard let error = error as? VoteFirstError else {
      Issue.record("not a VoteFirstError: \(error)", sourceLocation: sourceLocation)
      return
    }
    #expect(error.kind == kind, "\(error)", sourceLocation: sourceLocation)
    if let code { #expect(error.code == code, "\(error)", sourceLocation: sourceLocation) }
    if let field {
      #expect(error.reason?.field == field, "\(error)", sourceLocation: sourceLocation)
    }
  }
}
