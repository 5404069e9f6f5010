import Foundation
import VoteFirstAPI

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Plain HTTP calls of the sync commands (`votes pull`'s reads), with one deadline for the
/// whole call, a limit on the answer (``maximumBytes``) and the failure described with its URL.
enum SyncHTTP {
  /// One answer.
  struct Answer: Sendable {
    var status: Int
    var body: Data
  }

  /// Sends one request and returns the answer, or a failure naming the URL. A 429 is sent
  /// again after the server's `Retry-After` (``RateLimitPatience``).
  static func send(
    _ method: String, _ url: URL, token: String? = nil, body: Data? = nil,
    timeout: TimeInterval = 60
  ) async throws(CommandError) -> Answer {
    var request = URLRequest(url: url)
    request.httpMethod = method
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    if let body {
      request.httpBody = body
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
    var patience = RateLimitPatience()
    while true {
      let (data, response) = try await CommandHTTP.load(
        request, through: loading, timeout: timeout,
        failure: "cannot reach \(url.absoluteString)")
      let http = response as? HTTPURLResponse
      let status = http?.statusCode ?? 0
      // Refused before anything was done (see RateLimitPatience): the same call again.
      if status == 429,
        await patience.waitToRetry(
          retryAfter: RateLimitPatience.seconds(http?.value(forHTTPHeaderField: "Retry-After")))
      {
        continue
      }
      return Answer(status: status, body: data)
    }
  }

  /// The most bytes an answer may have: 64 MiB, far above the counts of 100,000 features.
  static let maximumBytes = 64 << 20

  private static let loading = LoadingSession(maximumBytes: maximumBytes)
}
