import Foundation
import VoteFirstAPI

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The plain HTTP exchanges of the commands (a URL input, `votes pull`'s reads): one data task
/// through the clients' `DeadlineLoad`, with one deadline for the whole exchange and a limit on
/// the body that cuts it off as it arrives, and every failure a ``CommandError`` that starts
/// with what was being done (`cannot fetch 'URL'`).
enum CommandHTTP {
  /// Runs `request` on `loading`'s session within `timeout` seconds; `failure` names the
  /// exchange at the start of every failure's message.
  static func load(
    _ request: URLRequest, through loading: LoadingSession, timeout: TimeInterval,
    failure: String
  ) async throws(CommandError) -> (Data, URLResponse) {
    switch await DeadlineLoad.run(request, through: loading, timeout: timeout) {
    case .answer(let body, let response):
      return (body, response)
    case .failure(let error):
      throw .failure("\(failure): \(error.localizedDescription)")
    case .expired:
      throw .failure("\(failure): no whole answer within \(timeout) s")
    case .cancelled:
      throw .failure("\(failure): cancelled")
    case .tooLarge(let limit):
      throw .failure(
        "\(failure): the body is longer than \(limit) bytes; is this the right URL?")
    }
  }
}
