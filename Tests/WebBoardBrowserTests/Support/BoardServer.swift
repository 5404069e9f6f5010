// The real `roadmapctl serve` on port 0 with its own data directory, and the board API calls
// the browser tests seed it with (admin calls with the server's token).
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One answer of the board API.
struct APIAnswer: @unchecked Sendable {
  var status: Int
  var json: Any?
  var object: [String: Any] { json as? [String: Any] ?? [:] }
}

/// A running `roadmapctl serve`.
final class BoardServer: Sendable {
  static let adminToken = "browser-test-admin-token"

  let child: ChildProcess
  let base: String
  let dataDirectory: URL
  private let session = URLSession(configuration: .ephemeral)

  /// Starts `roadmapctl serve --port 0` in a new temporary data directory, without rate
  /// limits unless `limits` says otherwise.
  static func start(limits: [String] = ["--write-limit", "0", "--read-limit", "0"]) async throws
    -> BoardServer
  {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("webboard-browser-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let child = try ChildProcess(
      try Programs.roadmapctl(),
      [
        "serve", "--port", "0", "--data-dir", directory.path, "--admin-token", adminToken,
      ] + limits)
    let line = try await child.waitForLine(containing: "Serving on http://")
    let base = String(line[line.range(of: "http://")!.lowerBound...])
      .trimmingCharacters(in: .whitespaces)
    return BoardServer(child: child, base: base, dataDirectory: directory)
  }

  private init(child: ChildProcess, base: String, dataDirectory: URL) {
    self.child = child
    self.base = base
    self.dataDirectory = dataDirectory
  }

  /// Stops the server and removes its data.
  func stop() async {
    await child.stop()
    try? FileManager.default.removeItem(at: dataDirectory)
  }

  /// A call to `/api/v1/demo-app` + `path`.
  @discardableResult
  func api(
    _ method: String, _ path: String, _ body: Any? = nil, admin: Bool = false,
    voter: String? = nil, project: String = "demo-app"
  ) async throws -> APIAnswer {
    var request = URLRequest(url: URL(string: "\(base)/api/v1/\(project)\(path)")!)
    request.httpMethod = method
    request.timeoutInterval = 60
    if admin {
      request.setValue("Bearer \(BoardServer.adminToken)", forHTTPHeaderField: "Authorization")
    }
    if let voter { request.setValue(voter, forHTTPHeaderField: "X-Voter-ID") }
    if let body {
      request.httpBody = try JSONSerialization.data(withJSONObject: body)
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
    let (data, response) = try await session.data(for: request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    return APIAnswer(
      status: status,
      json: try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
  }

  /// An admin call that must succeed; its answer as an object.
  @discardableResult
  func admin(_ method: String, _ path: String, _ body: Any? = nil) async throws -> [String: Any] {
    let answer = try await api(method, path, body, admin: true)
    guard (200..<300).contains(answer.status) else {
      throw ChildProcessError(
        description: "\(method) \(path) answered \(answer.status): \(answer.json ?? "")")
    }
    return answer.object
  }

  /// A request for any path on the server, with its status, headers and body.
  func get(_ path: String, method: String = "GET", headers: [String: String] = [:])
    async throws -> (status: Int, headers: [String: String], body: String)
  {
    var request = URLRequest(url: URL(string: base + path)!)
    request.httpMethod = method
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await session.data(for: request)
    let http = response as? HTTPURLResponse
    var headers: [String: String] = [:]
    for (key, value) in http?.allHeaderFields ?? [:] {
      headers[String(describing: key).lowercased()] = String(describing: value)
    }
    return (http?.statusCode ?? 0, headers, String(decoding: data, as: UTF8.self))
  }
}
