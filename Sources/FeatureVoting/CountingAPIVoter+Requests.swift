import Foundation
import RoadmapFormat

extension CountingAPIVoter {
  /// One call on one counter.
  enum Operation: Sendable {
    case read, vote, unvote
  }

  /// The longest request target a batch request is built to (our server allows 8 KiB for the
  /// whole request line).
  static let maxBatchTargetBytes = 6_000

  /// Sends `operation` for the feature `id` and returns the count the server answered.
  func perform(_ operation: Operation, id: String) async throws(VotingError) -> Int {
    let key = keys.key(for: id)
    let url = try self.url(for: operation, key: key)
    var headers = ["Accept": "application/json"]
    var retry = readRetry
    if operation != .read {
      let voterID = try identity?.id()
      if let voterID { headers["X-Voter-ID"] = voterID }
      if !(dialect.writesAreIdempotentWithVoterID && voterID != nil) { retry = .none }
    }
    let request = TransportRequest(url: url, headers: headers, timeout: timeout)
    return try await send(request, retry: retry) { response throws(VotingError) in
      try self.interpret(response, of: operation, url: url.absoluteString)
    }
  }

  /// The counts of `features` through the batch route, in chunks, each feature with its own
  /// result.
  ///
  /// Keys the batch route cannot take (``isBatchable(_:)``) are read one by one; a chunk the
  /// server refuses or answers oddly (``VotingError/Kind/refused``,
  /// ``VotingError/Kind/badAnswer``) is read again one feature at a time. Any other failure of
  /// a chunk (offline, timed out, 429, 5xx, a URL that cannot be built) is every unread
  /// feature's failure, without further requests.
  func batchReadEach(_ features: [RoadmapFeature]) async -> [String: Result<Int, VotingError>] {
    var result: [String: Result<Int, VotingError>] = [:]
    var featuresByKey: [String: [RoadmapFeature]] = [:]
    var keyOrder: [String] = []
    var single: [RoadmapFeature] = []
    for feature in features {
      if feature.isFinished == true {
        result[feature.id] = .success(0)
        continue
      }
      let key = keys.key(for: feature.id)
      guard Self.isBatchable(key) else {
        single.append(feature)
        continue
      }
      if featuresByKey[key] == nil { keyOrder.append(key) }
      featuresByKey[key, default: []].append(feature)
    }
    var stop: VotingError?
    for chunk in batchChunks(keyOrder) {
      let chunkFeatures = chunk.flatMap { featuresByKey[$0] ?? [] }
      if let stop {
        for feature in chunkFeatures { result[feature.id] = .failure(stop) }
        continue
      }
      do throws(VotingError) {
        let counts = try await batchRequest(chunk)
        for key in chunk {
          for feature in featuresByKey[key] ?? [] {
            result[feature.id] = .success(counts[key] ?? 0)
          }
        }
      } catch  where Self.fallsBackToSingleReads(error) {
        result.merge(await readSingly(chunkFeatures)) { _, new in new }
      } catch {
        stop = error
        for feature in chunkFeatures { result[feature.id] = .failure(error) }
      }
    }
    if let stop {
      for feature in single { result[feature.id] = .failure(stop) }
    } else {
      result.merge(await readSingly(single)) { _, new in new }
    }
    return result
  }

  /// One batch request for `keys`: their counts by key.
  func batchRequest(_ keys: [String]) async throws(VotingError) -> [String: Int] {
    let url = try batchURL(keys)
    let request = TransportRequest(
      url: url, headers: ["Accept": "application/json"], timeout: timeout)
    return try await send(request, retry: readRetry) { response throws(VotingError) in
      try self.interpretBatch(response, url: url.absoluteString)
    }
  }

  /// Whether a failed batch is worth reading again one feature at a time: the server answered,
  /// but not with counts (one key it does not take refuses the whole batch).
  static func fallsBackToSingleReads(_ error: VotingError) -> Bool {
    error.kind == .refused || error.kind == .badAnswer
  }

  /// Whether the batch route takes `key`: `roadmapctl serve`'s name rule,
  /// `^[A-Za-z0-9_\-.]{3,64}$` (which also keeps `,`, the list separator, out).
  static func isBatchable(_ key: String) -> Bool {
    let bytes = key.utf8
    guard (3...64).contains(bytes.count) else { return false }
    return bytes.allSatisfy(CounterKeyBytes.isAllowed)
  }

  /// Splits keys into chunks of at most ``maxBatchKeys`` whose encoded list stays under
  /// ``maxBatchTargetBytes``.
  func batchChunks(_ keys: [String]) -> [[String]] {
    var chunks: [[String]] = []
    var current: [String] = []
    var bytes = 0
    for key in keys {
      let size = PercentEncoding.segment(key).utf8.count + 1
      if !current.isEmpty
        && (current.count >= maxBatchKeys || bytes + size > Self.maxBatchTargetBytes)
      {
        chunks.append(current)
        current = []
        bytes = 0
      }
      current.append(key)
      bytes += size
    }
    if !current.isEmpty { chunks.append(current) }
    return chunks
  }

  /// Sends `request` and interprets the answer, retrying retryable failures per `retry`.
  func send<Value>(
    _ request: TransportRequest, retry: RetryPolicy,
    _ interpret: (TransportResponse) throws(VotingError) -> Value
  ) async throws(VotingError) -> Value {
    var attempt = 1
    while true {
      do throws(VotingError) {
        let response = try await transport.send(request)
        return try interpret(response)
      } catch {
        guard retry.isRetryable(error) else { throw error }
        guard attempt < retry.attempts else { throw error.afterAttempts(attempt) }
        let wait = retry.delay(after: attempt, retryAfter: error.retryAfter)
        do {
          try await Task.sleep(nanoseconds: SleepTime.nanoseconds(wait))
        } catch {
          throw .invalidRequest("cancelled while waiting to retry \(request.url.absoluteString)")
        }
        attempt += 1
      }
    }
  }

  /// The URL of `operation` on `key` in this voter's dialect.
  func url(for operation: Operation, key: String) throws(VotingError) -> URL {
    let ns = namespace
    switch (dialect.code, operation) {
    case (.countapi, .read), (.roadmapBridge, .read), (.tally, .read):
      return try build(["get", ns, key])
    case (.countapi, .vote), (.roadmapBridge, .vote):
      return try build(["hit", ns, key])
    case (.countapi, .unvote), (.roadmapBridge, .unvote):
      return try build(["update", ns, key], query: "amount=-1")
    case (.counterAPIV1, .read):
      return try build(["v1", ns, key])
    case (.counterAPIV1, .vote):
      return try build(["v1", ns, key, "up"])
    case (.counterAPIV1, .unvote):
      return try build(["v1", ns, key, "down"])
    case (.tally, .vote):
      return try build(["add", ns, key], query: "delta=1")
    case (.tally, .unvote):
      return try build(["add", ns, key], query: "delta=-1")
    }
  }

  /// `/counts/NS?keys=a,b,c`.
  func batchURL(_ keys: [String]) throws(VotingError) -> URL {
    try build(
      ["counts", namespace],
      query: "keys=" + keys.map(PercentEncoding.segment).joined(separator: ","))
  }

  /// The server URL with `segments` (each percent-encoded) appended to its path.
  func build(_ segments: [String], query: String? = nil) throws(VotingError) -> URL {
    var base = server.absoluteString
    if let cut = base.firstIndex(where: { $0 == "?" || $0 == "#" }) { base = String(base[..<cut]) }
    while base.hasSuffix("/") { base.removeLast() }
    var text = base + "/" + segments.map(PercentEncoding.segment).joined(separator: "/")
    if let query { text += "?" + query }
    guard let url = URL(string: text), url.scheme != nil, url.host != nil else {
      throw .invalidRequest("cannot build a URL from the server \(server.absoluteString)")
    }
    return url
  }
}

extension CountingAPIVoter {
  /// Every counter of the namespace by key, following the pages of `GET /counts/NS`
  /// (``CountingDialect/roadmapBridge`` only: the other dialects cannot list counters).
  public func allCounts() async throws(VotingError) -> [String: Int] {
    guard dialect.hasBatchRoute else {
      throw .invalidRequest("\(dialect.name) servers cannot list a namespace's counters")
    }
    var counts: [String: Int] = [:]
    var after: String?
    // The cursors handed out so far: a server that hands one out again would loop forever.
    var cursors: Set<String> = []
    repeat {
      let query = after.map { "after=" + PercentEncoding.segment($0) }
      let url = try build(["counts", namespace], query: query)
      let request = TransportRequest(
        url: url, headers: ["Accept": "application/json"], timeout: timeout)
      let page = try await send(request, retry: readRetry) {
        response throws(VotingError) -> ([String: Int], String?) in
        let body = AnswerBody(response.body)
        let counts = try self.interpretBatch(response, url: url.absoluteString)
        return (counts, body.string("next"))
      }
      counts.merge(page.0) { _, new in new }
      if let next = page.1 {
        guard cursors.insert(next).inserted else {
          throw .badAnswer(
            next == after
              ? "the page after '\(next)' points to itself"
              : "the page after '\(after ?? "")' points back to '\(next)'",
            url: url.absoluteString)
        }
      }
      after = page.1
    } while after != nil
    return counts
  }
}

/// Seconds as a `Task.sleep(nanoseconds:)` argument, without trapping on a number too large to
/// convert.
enum SleepTime {
  /// The longest sleep: `Int64.max` nanoseconds (about 292 years), which the dispatch timers
  /// under `Task.sleep` still read as a wait (a larger `UInt64` would read as negative).
  static let longest = UInt64(Int64.max)

  /// `seconds` in nanoseconds: NaN and negatives are 0, anything past ``longest`` is
  /// ``longest``, `.infinity` included.
  static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
    guard seconds > 0 else { return 0 }  // NaN compares false too.
    let nanoseconds = seconds * 1_000_000_000
    guard nanoseconds < Double(longest) else { return longest }
    return UInt64(nanoseconds)
  }
}
