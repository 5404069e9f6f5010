import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Plain HTTP calls of the sync commands (the counters' admin `/set`), with a timeout and the
/// failure described with its URL.
enum SyncHTTP {
  /// One answer.
  struct Answer: Sendable {
    var status: Int
    var body: Data
  }

  /// Sends one request and returns the answer, or a failure naming the URL.
  static func send(
    _ method: String, _ url: URL, token: String? = nil, body: Data? = nil,
    timeout: TimeInterval = 60
  ) async throws(CommandError) -> Answer {
    var request = URLRequest(url: url)
    // Set after the initializer: swift-corelibs-foundation applies a request's own timeout
    // only when it was set this way (else the session's 60 s).
    request.timeoutInterval = timeout
    request.httpMethod = method
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    if let body {
      request.httpBody = body
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
    do {
      let (data, response) = try await session.data(for: request)
      let status = (response as? HTTPURLResponse)?.statusCode ?? 0
      return Answer(status: status, body: data)
    } catch {
      throw .failure("cannot reach \(url.absoluteString): \(error.localizedDescription)")
    }
  }

  private static let session: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.httpMaximumConnectionsPerHost = 8
    return URLSession(configuration: configuration)
  }()
}
