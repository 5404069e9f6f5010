import Foundation

/// Sends one HTTP request and returns the answer: the seam between the voters and the network.
///
/// ``URLSessionTransport`` is the implementation apps use. A transport reports only failures to
/// get an answer at all (``VotingError/Kind/offline``, ``VotingError/Kind/timedOut``); any
/// status, 404 or 500 included, is an answer, which the voter interprets. It must honour
/// ``TransportRequest/timeout`` and may be called from many tasks at once.
public protocol HTTPTransport: Sendable {
  /// Sends `request` and returns the server's answer, whatever its status.
  func send(_ request: TransportRequest) async throws(VotingError) -> TransportResponse
}
