import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The `URLSession` a client loads through, and the most bytes one answer may have.
///
/// A session of ours (``init(session:maximumBytes:)`` without a session) gets each answer's bytes as they arrive, and
/// cancels an answer as soon as it passes the limit, so a server that sends a body without
/// end costs at most the limit in memory. A session of the caller's
/// keeps its own delegate, so an answer is checked against the limit once it is whole.
package final class LoadingSession: Sendable {
  /// The default limit of a ``VoteFirstHTTPClient`` answer: 64 MiB.
  package static let defaultVoteFirstLimit = 64 * 1024 * 1024
  /// The default limit of a counting-API answer (FeatureVoting's `URLSessionTransport`): 16 MiB.
  package static let defaultCountingLimit = 16 * 1024 * 1024

  /// The session the data tasks run on.
  package let session: URLSession
  /// The most bytes an answer's body may have (0 or more).
  package let maximumBytes: Int
  /// The delegate that collects the answers of a session of ours; nil for the caller's.
  let collector: Collector?

  /// Loads through the caller's `session` as it is, or, when nil, through an ephemeral
  /// session of ours without a cache or cookies (a count never comes from a cache) whose own
  /// silence limit is lifted, so that only the deadline ends an exchange:
  /// swift-corelibs-foundation times a task out after the configuration's
  /// `timeoutIntervalForRequest` (60 s by default) and ignores a request's `timeoutInterval`
  /// given to its initializer. Negative limits are 0.
  package init(session: URLSession? = nil, maximumBytes: Int) {
    self.maximumBytes = max(0, maximumBytes)
    if let session {
      self.session = session
      collector = nil
      return
    }
    let configuration = URLSessionConfiguration.ephemeral
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    configuration.urlCache = nil
    configuration.httpCookieStorage = nil
    configuration.timeoutIntervalForRequest = DeadlineLoad.longestTimeout
    configuration.timeoutIntervalForResource = DeadlineLoad.longestTimeout
    let collector = Collector()
    self.collector = collector
    self.session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
  }

  deinit {
    // A session keeps its delegate until it is invalidated; tasks still running finish first.
    if collector != nil { session.finishTasksAndInvalidate() }
  }

  /// The delegate of a session of ours: each data task's bytes go into its own buffer until
  /// they would pass the task's limit, and the task's outcome goes to its ``DeadlineLoad/Race``.
  final class Collector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// One task's answer so far (a class, so that appending never copies the buffer).
    private final class Answer {
      var data = Data()
      let limit: Int
      let race: DeadlineLoad.Race
      init(limit: Int, race: DeadlineLoad.Race) {
        self.limit = limit
        self.race = race
      }
    }

    // lock()/unlock(): NSLock's withLock is on Apple platforms only since iOS 16.
    private let lock = NSLock()
    private var answers: [Int: Answer] = [:]

    /// Collects `task`'s answer for `race`, up to `limit` bytes. Called before the task is
    /// resumed.
    func track(_ task: URLSessionTask, limit: Int, race: DeadlineLoad.Race) {
      lock.lock()
      answers[task.taskIdentifier] = Answer(limit: limit, race: race)
      lock.unlock()
    }

    /// How many tasks are being collected (for tests: none once every call has ended).
    var tracked: Int {
      lock.lock()
      defer { lock.unlock() }
      return answers.count
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
      lock.lock()
      guard let answer = answers[dataTask.taskIdentifier] else {
        lock.unlock()
        return
      }
      // Past the deadline or a cancel, the task is being cancelled: what still arrives (on
      // Linux, up to seconds of it) is dropped.
      guard !answer.race.isFinished else {
        answers[dataTask.taskIdentifier] = nil
        lock.unlock()
        return
      }
      guard data.count <= answer.limit - answer.data.count else {
        answers[dataTask.taskIdentifier] = nil
        lock.unlock()
        answer.race.finish(.tooLarge(limit: answer.limit))  // its hook cancels the task
        return
      }
      answer.data.append(data)
      lock.unlock()
    }

    func urlSession(
      _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
    ) {
      lock.lock()
      let answer = answers.removeValue(forKey: task.taskIdentifier)
      lock.unlock()
      guard let answer else { return }
      if let error {
        answer.race.finish(.failure(error))
      } else if let response = task.response {
        answer.race.finish(.answer(answer.data, response))
      } else {
        answer.race.finish(.failure(URLError(.badServerResponse)))
      }
    }
  }
}
