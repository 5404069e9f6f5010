import FeatureVoting
import Foundation
import HTTPServer
import RoadmapFormat
import Testing

/// `CountingAPIVoter` against a local server of our own that misbehaves on purpose: slow
/// answers, 429, 500, HTML pages, bodies of another dialect, and no server at all.
@Suite("CountingAPIVoter failures")
struct CountingAPIVoterFailureTests {
  let feature = RoadmapFeature(id: "1")

  func voter(
    _ server: URL, _ dialect: CountingDialect = .countapi, identity: VoterIdentity? = nil,
    timeout: TimeInterval = 10
  ) -> CountingAPIVoter {
    CountingAPIVoter(
      server: server, namespace: "ns1", dialect: dialect, identity: identity, timeout: timeout,
      readRetry: quickRetry)
  }

  @Test("a slow server times out; the read is retried, an anonymous write is not")
  func timeout() async throws {
    let server = try LocalServer { router in
      // Far past any wait a loaded machine imposes on the 0.3 s deadlines (once over 60 s):
      // the deadlines always come first.
      let slow: HTTPHandler = { _ in
        try? await Task.sleep(for: .seconds(300))
        return json(#"{"value":1}"#)
      }
      router.get("/get/:ns/:key", handler: slow)
      router.get("/hit/:ns/:key", handler: slow)
    }
    let read = await votingError { try await voter(server.url, timeout: 0.3).count(for: feature) }
    #expect(read?.kind == .timedOut)
    #expect(server.targets.filter { $0.hasPrefix("/get/") }.count == 3)
    let write = await votingError {
      try await voter(server.url, timeout: 0.3).castVote(for: feature)
    }
    #expect(write?.kind == .timedOut)
    #expect(server.targets.filter { $0.hasPrefix("/hit/") }.count == 1)
    #expect(await voter(server.url, timeout: 0.3).fetch(for: feature) == 0)
    await server.stop()
  }

  /// countapi.xyz and some clones let `/update?amount=-1` take a counter below zero. The
  /// voter passed such a count on to the app (a row showing -3), where `DurableVoter` showed
  /// 0 for the same answer.
  @Test("a negative count from the server reads as 0, in every call and dialect")
  func negativeCountReadsAsZero() async throws {
    let server = try LocalServer { router in
      router.get("/get/:ns/:key") { _ in json(#"{"value":-3}"#) }
      router.get("/hit/:ns/:key") { _ in json(#"{"value":-2}"#) }
      router.get("/update/:ns/:key") { _ in json(#"{"value":-4}"#) }
      router.get("/counts/:ns") { _ in
        json(#"{"counts":{"feature1":-5,"feature2":7},"next":null}"#)
      }
      router.get("/v1/:ns/:key") { _ in json(#"{"count":-1}"#) }
      router.get("/v1/:ns/:key/up") { _ in json(#"{"count":-1}"#) }
      router.get("/v1/:ns/:key/down") { _ in json(#"{"count":-2}"#) }
    }
    defer { Task { await server.stop() } }
    for dialect in [CountingDialect.countapi, .counterAPIV1, .roadmapBridge] {
      let counting = voter(server.url, dialect)
      #expect(try await counting.count(for: feature) == 0, "\(dialect.name)")
      #expect(await counting.fetch(for: feature) == 0, "\(dialect.name)")
      #expect(try await counting.castVote(for: feature) == 0, "\(dialect.name)")
      #expect(await counting.vote(for: feature) == 0, "\(dialect.name)")
      #expect(try await counting.withdrawVote(for: feature) == 0, "\(dialect.name)")
      #expect(await counting.unvote(for: feature) == 0, "\(dialect.name)")
    }
    let batch = voter(server.url, .roadmapBridge)
    let board = [RoadmapFeature(id: "1"), RoadmapFeature(id: "2")]
    #expect(try await batch.counts(for: board) == ["1": 0, "2": 7])
    #expect(await batch.fetch(for: board) == ["1": 0, "2": 7])
    #expect(try await batch.allCounts() == ["feature1": 0, "feature2": 7])
    let results = await batch.countResults(for: board)
    #expect(try results["1"]?.get() == 0 && results["2"]?.get() == 7)
    // The same answers through DurableVoter: the write's answer agrees with the read's.
    let durable = DurableVoter(base: batch, directory: try temporaryDirectory())
    #expect(try await durable.castVote(for: feature) == 0)
    #expect(try await durable.count(for: feature) == 0)
  }

  @Test("a write with a voter id on our server is retried; without one it is sent once")
  func idempotentWriteRetry() async throws {
    let server = try LocalServer { router in
      router.get("/hit/:ns/:key") { _ in
        json(#"{"error":"the vote store is unavailable"}"#, status: 503)
      }
    }
    let identified = voter(server.url, .roadmapBridge, identity: try VoterIdentity(appUserID: "v1"))
    let error = await votingError { try await identified.castVote(for: feature) }
    #expect(error?.kind == .serverError && error?.status == 503)
    #expect(error?.message.contains("the vote store is unavailable") == true)
    #expect(server.targets.count == 3)
    _ = await votingError { try await voter(server.url, .roadmapBridge).castVote(for: feature) }
    #expect(server.targets.count == 4)
    await server.stop()
  }

  @Test("429 carries Retry-After; a short one is waited out, a long one ends the retries")
  func rateLimited() async throws {
    let calls = RequestLog()
    let server = try LocalServer { router in
      router.get("/get/:ns/:key") { request in
        calls.append(request)
        if calls.requests.count == 1 {
          return json(
            #"{"error":"too many requests: retry in 0 s"}"#, status: 429,
            headers: ["Retry-After": "0"])
        }
        return json(#"{"value":4}"#)
      }
      router.get("/hit/:ns/:key") { _ in
        json(
          #"{"error":"too many requests: retry in 30 s"}"#, status: 429,
          headers: ["Retry-After": "30"])
      }
    }
    #expect(try await voter(server.url).count(for: feature) == 4)
    let error = await votingError {
      try await voter(server.url, .roadmapBridge, identity: try VoterIdentity(appUserID: "v"))
        .castVote(for: feature)
    }
    #expect(error?.kind == .rateLimited)
    #expect(error?.retryAfter == 30)
    #expect(server.targets.filter { $0.hasPrefix("/hit/") }.count == 1)
    await server.stop()
  }

  @Test(
    "429 with Retry-After as an HTTP date: a past one is retried now, a far one ends the retries")
  func rateLimitedUntilADate() async throws {
    let calls = RequestLog()
    let server = try LocalServer { router in
      router.get("/get/:ns/:key") { request in
        calls.append(request)
        if calls.requests.count == 1 {
          return json(
            #"{"error":"too many requests"}"#, status: 429,
            headers: ["Retry-After": "Sun Nov  6 08:49:37 1994"])
        }
        return json(#"{"value":4}"#)
      }
      router.get("/hit/:ns/:key") { _ in
        json(
          #"{"error":"too many requests"}"#, status: 429,
          headers: [
            "Retry-After": httpDate(
              Date().addingTimeInterval(600), format: "EEE MMM d HH:mm:ss yyyy")
          ])
      }
    }
    #expect(try await voter(server.url).count(for: feature) == 4)
    let error = await votingError {
      try await voter(server.url, .roadmapBridge, identity: try VoterIdentity(appUserID: "v"))
        .castVote(for: feature)
    }
    #expect(error?.kind == .rateLimited)
    #expect(
      error?.retryAfter.map { (60...601).contains($0) } == true, "\(String(describing: error))")
    #expect(server.targets.filter { $0.hasPrefix("/hit/") }.count == 1)
    await server.stop()
  }

  @Test("a 403 outside the update bounds names the count the app reads: 0, never a negative one")
  func refusalNamesTheCountTheAppReads() async throws {
    let server = try LocalServer { router in
      router.get("/get/:ns/:key") { _ in json(#"{"value":-3}"#) }
      router.get("/update/:ns/:key") { _ in json(#"{"value":-3}"#, status: 403) }
    }
    #expect(try await voter(server.url).count(for: feature) == 0)
    let error = await votingError { try await voter(server.url).withdrawVote(for: feature) }
    #expect(error?.kind == .refused && error?.status == 403, "\(String(describing: error))")
    #expect(error?.message.contains("the count stays 0") == true, "\(String(describing: error))")
    #expect(error?.message.contains("-3") == false, "\(String(describing: error))")
    await server.stop()
  }

  @Test("500 with a JSON error, 502 with an HTML page, 404 of an unknown route")
  func serverErrors() async throws {
    let server = try LocalServer { router in
      router.get("/get/:ns/feature1") { _ in json(#"{"error":"database is on fire"}"#, status: 500)
      }
      router.get("/get/:ns/feature2") { _ in
        HTTPResponse(
          status: 502, contentType: "text/html",
          text: "<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>")
      }
    }
    let fire = await votingError { try await voter(server.url).count(for: RoadmapFeature(id: "1")) }
    #expect(fire?.kind == .serverError && fire?.status == 500)
    #expect(fire?.message.contains("database is on fire") == true)
    #expect(server.targets.count == 3)
    let gateway = await votingError {
      try await voter(server.url).count(for: RoadmapFeature(id: "2"))
    }
    #expect(gateway?.kind == .serverError && gateway?.status == 502)
    #expect(gateway?.message.contains("an HTML page (502 Bad Gateway)") == true)
    // The router's own 404 is not "no such counter": only countapi's {"value":null} is 0.
    let unknown = await votingError {
      try await voter(server.url).count(for: RoadmapFeature(id: "3"))
    }
    #expect(unknown?.kind == .refused && unknown?.status == 404)
    await server.stop()
  }

  @Test("a 200 that is not the dialect's answer is a bad answer, never a count")
  func badAnswers() async throws {
    let server = try LocalServer { router in
      router.get("/get/:ns/feature1") { _ in
        HTTPResponse(
          status: 200, contentType: "text/html",
          text: "<!DOCTYPE html><html><title>Parked domain</title></html>")
      }
      router.get("/get/:ns/feature2") { _ in json(#"{"id":1,"name":"feature2","count":5}"#) }
      router.get("/get/:ns/feature3") { _ in json(#"{"value":true}"#) }
      router.get("/get/:ns/feature4") { _ in json(#"{"value":"5"}"#) }
      router.get("/v1/:ns/feature5") { _ in json(#"{"value":5}"#) }
      router.get("/counts/:ns") { _ in json(#"{"feature1":3}"#) }
    }
    for (id, dialect) in [
      ("1", CountingDialect.countapi), ("2", .countapi), ("3", .tally), ("4", .countapi),
      ("5", .counterAPIV1),
    ] {
      let error = await votingError {
        try await voter(server.url, dialect).count(for: RoadmapFeature(id: id))
      }
      #expect(error?.kind == .badAnswer, "feature \(id): \(String(describing: error))")
    }
    let parked = await votingError {
      try await voter(server.url).count(for: RoadmapFeature(id: "1"))
    }
    #expect(parked?.message.contains("an HTML page (Parked domain)") == true)
    let other = await votingError {
      try await voter(server.url).count(for: RoadmapFeature(id: "2"))
    }
    #expect(other?.message.contains(#"expected countapi's {"value": N}"#) == true)
    let batch = await votingError {
      try await voter(server.url, .roadmapBridge).counts(for: features("1", "2"))
    }
    #expect(batch?.kind == .badAnswer)
    // No retries for a bad answer: one request per call, and the badly answered batch read
    // again one feature at a time (its two features), whose own answers are bad too.
    #expect(server.targets.count == 10)
    #expect(server.targets.suffix(3).first?.hasPrefix("/counts/") == true)
    await server.stop()
  }

  @Test("no server at all is offline, for reads, writes and boards")
  func offline() async throws {
    let closed = try ClosedPort()
    let read = await votingError { try await voter(closed.url).count(for: feature) }
    #expect(read?.kind == .offline)
    let write = await votingError { try await voter(closed.url).castVote(for: feature) }
    #expect(write?.kind == .offline)
    let board = await votingError {
      try await voter(closed.url, .roadmapBridge).counts(for: features("1", "2"))
    }
    #expect(board?.kind == .offline)
    #expect(
      await voter(closed.url, .roadmapBridge).fetch(for: features("1", "2")) == ["1": 0, "2": 0])
    #expect(await voter(closed.url).vote(for: feature) == nil)
    // The read was retried: its message says it was the last attempt of several, since the
    // call took them all (it named one attempt's failure only); the anonymous write was not.
    #expect(read?.message.hasSuffix("(the last of \(quickRetry.attempts) attempts)") == true)
    #expect(write?.message.contains("attempts") == false)
  }

  @Test("tally-style: /get and /add?delta=±1, ids percent-encoded on the wire")
  func tally() async throws {
    let counts = CountTable()
    let server = try LocalServer { router in
      router.get("/get/:ns/:key") { request in
        guard let value = counts.value(request.parameter("key")!) else {
          return json(#"{"value":null}"#, status: 404)
        }
        return json(#"{"value":\#(value)}"#)
      }
      router.get("/add/:ns/:key") { request in
        let delta = Int(request.query("delta") ?? "") ?? 0
        return json(#"{"value":\#(counts.add(request.parameter("key")!, delta))}"#)
      }
    }
    let tally = CountingAPIVoter(
      server: server.url, namespace: "my app", dialect: .tally, keys: .featureDash)
    let odd = RoadmapFeature(id: "dark mode/ü")
    #expect(try await tally.count(for: odd) == 0)
    #expect(try await tally.castVote(for: odd) == 1)
    #expect(try await tally.castVote(for: odd) == 2)
    #expect(try await tally.withdrawVote(for: odd) == 1)
    #expect(counts.value("feature-dark mode/ü") == 1)
    #expect(server.targets[1] == "/add/my%20app/feature-dark%20mode%2F%C3%BC?delta=1")
    #expect(server.targets[3].hasSuffix("?delta=-1"))
    #expect(
      try await tally.counts(for: [odd, RoadmapFeature(id: "x")]) == ["dark mode/ü": 1, "x": 0])
    await server.stop()
  }

  @Test("a board without a batch route is read with bounded concurrency")
  func boundedBoard() async throws {
    let flight = InFlight()
    let server = try LocalServer { router in
      router.get("/get/:ns/:key") { _ in
        flight.enter()
        defer { flight.leave() }
        try? await Task.sleep(for: .milliseconds(20))
        return json(#"{"value":2}"#)
      }
    }
    let board = (0..<40).map { RoadmapFeature(id: "\($0)") }
    let limited = CountingAPIVoter(
      server: server.url, namespace: "ns1", dialect: .countapi, maxConcurrentReads: 3)
    let counts = try await limited.counts(for: board)
    #expect(counts.count == 40 && counts.values.allSatisfy { $0 == 2 })
    #expect(flight.highest <= 3)
    #expect(server.targets.count == 40)
    await server.stop()
  }

  @Test("a finished feature makes no request and takes no vote")
  func finished() async throws {
    let closed = try ClosedPort()
    let done = RoadmapFeature(id: "1", isFinished: true)
    #expect(try await voter(closed.url).count(for: done) == 0)
    let error = await votingError { try await voter(closed.url).castVote(for: done) }
    #expect(error?.kind == .invalidRequest)
  }

  @Test("key templates without exactly one {id} are refused")
  func badTemplate() throws {
    #expect(throws: VotingError.self) { try KeyTemplate("feature") }
    #expect(throws: VotingError.self) { try KeyTemplate("{id}-{id}") }
    #expect(try KeyTemplate("vote_{id}_x").key(for: "3") == "vote_3_x")
    #expect(CountingDialect(name: "ours") == .roadmapBridge)
    #expect(CountingDialect(name: "CounterAPI") == .counterAPIV1)
    #expect(CountingDialect(name: "sidetrack") == nil)
  }
}

/// Counts kept in memory by the tally-style test server.
final class CountTable: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [String: Int] = [:]

  func value(_ key: String) -> Int? { lock.withLock { values[key] } }

  func add(_ key: String, _ delta: Int) -> Int {
    lock.withLock {
      values[key] = max(0, (values[key] ?? 0) + delta)
      return values[key]!
    }
  }
}
