import FeatureVoting
import Foundation
import RoadmapFormat
import RoadmapSync
import VoteFirstAPI

/// The counting APIs the sync commands read, as `CountReader`s over `CountingAPIVoter`.
enum VoteSources {
  /// A reader of `server`'s counts in `namespace`, each request bounded by `timeout` seconds
  /// (the command's `--server-timeout`) and tried up to 3 times.
  static func reader(
    server: String, namespace: String, dialect: SyncDialect, keyTemplate: String,
    timeout: TimeInterval
  ) throws(CommandError) -> CountReader {
    try source(
      server: server, namespace: namespace, dialect: dialect, keyTemplate: keyTemplate,
      timeout: timeout
    ).reader
  }

  /// A reader of `server`'s counts in `namespace` (``reader(server:namespace:dialect:keyTemplate:timeout:)``)
  /// that can tell afterwards whether any of the counters it read exists there.
  static func source(
    server: String, namespace: String, dialect: SyncDialect, keyTemplate: String,
    timeout: TimeInterval
  ) throws(CommandError) -> CountSource {
    guard let url = URL(string: server) else {
      throw .validation("'\(server)' is not a URL.")
    }
    let keys: KeyTemplate
    do {
      keys = try KeyTemplate(keyTemplate)
    } catch {
      throw .validation("--key-template: \(error.message)")
    }
    let answers = FoundAnswers()
    let voter = CountingAPIVoter(
      server: url, namespace: namespace, dialect: dialect.counting, keys: keys,
      timeout: timeout, maxConcurrentReads: 16, transport: answers)
    return CountSource(
      reader: CountReader(voter: voter, batch: dialect.counting.hasBatchRoute), answers: answers,
      url: url, server: server, namespace: namespace, dialect: dialect, keys: keys,
      timeout: timeout)
  }
}

/// A counting API read through a ``CountReader``, and what its answers said about the
/// counters' existence.
final class CountSource {
  /// The reader of its dialect.
  let reader: CountReader
  /// The server's URL.
  let url: URL
  /// Whether the counts were read through the batch route (`/counts`).
  private(set) var batched: Bool

  /// Creates a source.
  init(
    reader: CountReader, answers: FoundAnswers, url: URL, server: String, namespace: String,
    dialect: SyncDialect, keys: KeyTemplate, timeout: TimeInterval
  ) {
    self.reader = reader
    self.answers = answers
    self.url = url
    self.server = server
    self.namespace = namespace
    self.dialect = dialect
    self.keys = keys
    self.timeout = timeout
    self.batched = dialect.counting.hasBatchRoute
  }

  /// The counts of `features`. A countapi source that is another `roadmapctl serve` (it
  /// answers `/counts/NS?keys=KEY` as ours does) is read through that batch route, 500 keys a
  /// request, instead of one request per feature: 5,000 features took it 10 requests, not
  /// 5,000 drawn on its read limit (1,200 a minute by default: about 4 minutes).
  /// `notice` is told, once, when the source's rate limit makes the reads wait, and when
  /// they stop waiting for it (``FoundAnswers``).
  func read(
    _ features: [RoadmapFeature], progress: @escaping @Sendable (Int) -> Void = { _ in },
    notice: @escaping @Sendable (String) -> Void = { _ in }
  ) async -> CountReader.Result {
    answers.tell(notice, about: server)
    if dialect == .countapi, let first = features.first, await servesBatchCounts(first) {
      batched = true
      let voter = CountingAPIVoter(
        server: url, namespace: namespace, dialect: .roadmapBridge, keys: keys,
        timeout: timeout, maxConcurrentReads: 16, transport: answers)
      return await CountReader(voter: voter, batch: true).read(features, progress: progress)
    }
    return await reader.read(features, progress: progress)
  }

  /// Whether the server answers the batch route for `feature`'s key in ours' shape.
  private func servesBatchCounts(_ feature: RoadmapFeature) async -> Bool {
    let key = keys.key(for: feature.id)
    let path =
      "/counts/\(VoteFirstContract.encodeSegment(namespace))?keys="
      + VoteFirstContract.encodeSegment(key)
    // Through the reads' transport: a source that refuses it (429) uses up the same waiting.
    guard let url = ServerURL.join(server, path),
      let answer = try? await answers.send(
        TransportRequest(url: url, headers: ["Accept": "application/json"], timeout: timeout),
        noting: false),
      answer.status == 200,
      let object = try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any],
      let counts = object["counts"] as? [String: Any], counts.count == 1,
      counts[key] is NSNumber
    else { return false }
    return true
  }
  /// The answers its reads got.
  let answers: FoundAnswers
  /// The counting API's URL, as given.
  let server: String
  /// The namespace read.
  let namespace: String
  /// Its protocol.
  let dialect: SyncDialect
  /// How a feature id becomes a key.
  let keys: KeyTemplate
  /// The limit on one request.
  let timeout: TimeInterval

  /// The warning to give when none of `features`' counters exists in the namespace (every
  /// count `read` is 0 because the counting API does not know the keys: a wrong `--namespace`
  /// or `--key-template` most of the time); nil when one does, when a count is not 0, or
  /// when it cannot tell.
  func noneExists(_ features: [RoadmapFeature], read: CountReader.Result) async -> String? {
    guard !read.counts.isEmpty, read.counts.values.allSatisfy({ $0 == 0 }) else { return nil }
    if batched {
      // The batch route answers a missing key as 0: look for the keys among the namespace's
      // counters. (An empty namespace alone was asked: a wrong --key-template in the
      // namespace the counters are in read every count as 0 without a word.)
      let lister = CountingAPIVoter(
        server: url, namespace: namespace, dialect: .roadmapBridge, keys: keys,
        timeout: timeout, maxConcurrentReads: 16, transport: answers)
      guard let counters = try? await lister.allCounts() else { return nil }
      let asked = Set(features.map { keys.key(for: $0.id) })
      if counters.keys.contains(where: asked.contains) { return nil }
    } else if answers.anyFound {
      return nil
    }
    let ids = features.map(\.id)
    let sample = ids.prefix(3).map { keys.key(for: $0) }.joined(separator: ", ")
    return "none of the \(pluralized(read.counts.count, "counter")) read (\(sample)"
      + "\(ids.count > 3 ? ", …" : "")) exists in the namespace '\(namespace)' of \(server), "
      + "so every count reads as 0: check --namespace (the Roadmap package uses the app's "
      + "bundle identifier) and --key-template (\(keys.template))"
  }
}

/// The transport of a ``CountSource``'s reads: a read the counting API refuses for its rate
/// limit (429) is sent again after its `Retry-After`, as the board calls are
/// (``RateLimitPatience``), and whether any answer was a found counter is noted (a 2xx; a
/// counter a counting API does not know is a 404 or a 400).
///
/// The waiting is the source's, not each read's: the reads (16 at a time, each tried up to 3
/// times by the voter) share one ``RateLimitPatience/mostWaiting``, counted from the last
/// answer the source gave that was not a 429. A source that lets reads through at its pace is
/// read whole however long that takes; one that has refused every read for that long fails
/// the reads still to come at their first 429. Each read kept its own 10 minutes, and each of
/// its 3 tries did: a source that answered every read 429 held `votes pull` of 300 features
/// for about 10 hours, and of 5,000 for a week.
final class FoundAnswers: HTTPTransport, @unchecked Sendable {
  private let base: any HTTPTransport = URLSessionTransport()
  private let lock = NSLock()
  private var found = false
  /// When the source last gave an answer that was not a 429 (or the first read was sent).
  private var lastAnswer: Date?
  /// Who is told of the waiting, and the source's name for it.
  private var notice: (@Sendable (String) -> Void)?
  private var source = ""
  /// Whether the waiting, and the end of it, were told.
  private var toldWaiting = false
  private var toldGivingUp = false
  /// The waiting the source may make its reads do in a row, in seconds.
  private let mostWaiting: TimeInterval

  /// Creates a transport whose reads wait for a rate limit at most `mostWaiting` seconds in a
  /// row without an answer.
  init(mostWaiting: TimeInterval = RateLimitPatience.mostWaiting) {
    self.mostWaiting = mostWaiting
  }

  /// Tells `notice`, once each, when the reads of `source` first wait for its rate limit and
  /// when they stop waiting for it: the wait may be minutes, and nothing else is said then.
  func tell(_ notice: @escaping @Sendable (String) -> Void, about source: String) {
    lock.withLock {
      self.notice = notice
      self.source = source
    }
  }

  /// Sends `request` through the default transport, at the server's pace, and notes a 2xx
  /// answer.
  func send(_ request: TransportRequest) async throws(VotingError) -> TransportResponse {
    try await send(request, noting: true)
  }

  /// Sends `request` at the server's pace; `noting` says whether a 2xx answer counts as a
  /// found counter.
  func send(_ request: TransportRequest, noting: Bool) async throws(VotingError)
    -> TransportResponse
  {
    lock.withLock {
      if lastAnswer == nil { lastAnswer = Date() }
    }
    while true {
      let response = try await base.send(request)
      guard response.status == 429 else {
        lock.withLock {
          lastAnswer = Date()
          if noting, (200..<300).contains(response.status) { found = true }
        }
        return response
      }
      // The voter's own retries give up after a few seconds: reading a few thousand counts
      // from a rate-limited API failed for the counts that were refused.
      let asked = RateLimitPatience.seconds(response.header("Retry-After"))
      let seconds = min(Double(max(asked ?? 1, 1)), RateLimitPatience.longestWait)
      let (left, tell) = lock.withLock {
        () -> (TimeInterval, (@Sendable (String) -> Void, String)?) in
        let left = mostWaiting - Date().timeIntervalSince(lastAnswer ?? Date())
        let limit = "ROADMAPCTL_RATE_LIMIT_WAIT=\(Int(mostWaiting))"
        if left > 0, !toldWaiting, let notice {
          toldWaiting = true
          return (
            left,
            (
              notice,
              "\(source) answers 429 (rate limited): its reads wait as it asks, for at most "
                + "\(Int(mostWaiting)) s in a row without an answer (\(limit))"
            )
          )
        }
        if left <= 0, !toldGivingUp, let notice {
          toldGivingUp = true
          return (
            left,
            (
              notice,
              "\(source) has answered nothing but 429 for \(Int(mostWaiting)) s (\(limit)): "
                + "the reads it refuses now fail"
            )
          )
        }
        return (left, nil)
      }
      if let (notice, line) = tell { notice(line) }
      guard left > 0, !Task.isCancelled else { return response }
      do {
        try await Task.sleep(nanoseconds: UInt64(min(seconds, left) * 1_000_000_000))
      } catch {
        return response
      }
    }
  }

  /// Whether any answer so far was a found counter.
  var anyFound: Bool { lock.withLock { found } }
}
