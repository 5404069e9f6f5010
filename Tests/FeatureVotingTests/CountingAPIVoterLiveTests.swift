import FeatureVoting
import Foundation
import RoadmapFormat
import Testing

/// `CountingAPIVoter` against the real counter service (CounterService over SQLite on a real
/// socket) in each dialect it serves.
@Suite("CountingAPIVoter against the real counter service")
struct CountingAPIVoterLiveTests {
  static let servedDialects: [CountingDialect] = [.countapi, .counterAPIV1, .roadmapBridge]

  @Test("vote, repeat, second voter, read, unvote, unknown key", arguments: servedDialects)
  func roundTrip(dialect: CountingDialect) async throws {
    let service = try LiveCounter()
    let alice = try VoterIdentity(appUserID: "alice")
    let bob = try VoterIdentity(appUserID: "bob")
    let voter = { (identity: VoterIdentity?) in
      CountingAPIVoter(
        server: service.url, namespace: "com.example.app", dialect: dialect, identity: identity,
        readRetry: quickRetry)
    }
    let feature = RoadmapFeature(id: "1")
    #expect(try await voter(alice).count(for: feature) == 0)
    #expect(try await voter(alice).castVote(for: feature) == 1)
    #expect(try await voter(alice).castVote(for: feature) == 1)
    #expect(try await voter(bob).castVote(for: feature) == 2)
    #expect(await voter(nil).fetch(for: feature) == 2)
    #expect(try await voter(alice).withdrawVote(for: feature) == 1)
    #expect(try await voter(alice).withdrawVote(for: feature) == 1)
    #expect(try await voter(alice).withdrawVote(for: RoadmapFeature(id: "never")) == 0)
    #expect(try await voter(nil).count(for: RoadmapFeature(id: "never")) == 0)
    // The counter is the Roadmap package's key, feature + id.
    let values = try await service.store.values(namespace: "com.example.app", keys: ["feature1"])
    #expect(values == ["feature1": 1])
    // Alice's five writes carry her id.
    #expect(service.requests.filter { $0.headers["X-Voter-ID"] == "alice" }.count == 5)
    await service.stop()
  }

  @Test("anonymous votes count every time, as the originals did")
  func anonymous() async throws {
    let service = try LiveCounter()
    let voter = CountingAPIVoter(server: service.url, namespace: "ns1", dialect: .countapi)
    let feature = RoadmapFeature(id: "7")
    #expect(await voter.vote(for: feature) == 1)
    #expect(await voter.vote(for: feature) == 2)
    #expect(await voter.unvote(for: feature) == 1)
    #expect(
      service.targets == [
        "/hit/ns1/feature7", "/hit/ns1/feature7", "/update/ns1/feature7?amount=-1",
      ])
    await service.stop()
  }

  @Test("the key template decides the counter", arguments: [KeyTemplate.featureDash, .plainID])
  func keyTemplate(template: KeyTemplate) async throws {
    let service = try LiveCounter()
    let voter = CountingAPIVoter(
      server: service.url, namespace: "ns1", keys: template,
      identity: try VoterIdentity(appUserID: "v"))
    #expect(try await voter.castVote(for: RoadmapFeature(id: "abc")) == 1)
    let key = template.key(for: "abc")
    #expect(try await service.store.values(namespace: "ns1", keys: [key]) == [key: 1])
    await service.stop()
  }

  @Test("a server path prefix is kept, and ids are percent-encoded")
  func encoding() async throws {
    let service = try LiveCounter()
    let voter = CountingAPIVoter(
      server: service.url.appendingPathComponent("/"), namespace: "ns1", readRetry: quickRetry)
    // The service only allows [A-Za-z0-9_-.] names: an id with a space reaches it encoded and
    // is refused with its reason, instead of breaking the URL as in the Roadmap package.
    let error = await votingError { try await voter.count(for: RoadmapFeature(id: "a b/c")) }
    #expect(error?.kind == .refused)
    #expect(error?.status == 400)
    #expect(error?.reason?.contains("must match") == true)
    #expect(service.targets == ["/get/ns1/featurea%20b%2Fc"])
    await service.stop()
  }

  @Test("a server that refuses anonymous votes says so")
  func requireVoter() async throws {
    let service = try LiveCounter { $0.requireVoter = true }
    for dialect in CountingAPIVoterLiveTests.servedDialects {
      let voter = CountingAPIVoter(server: service.url, namespace: "ns1", dialect: dialect)
      let error = await votingError { try await voter.castVote(for: RoadmapFeature(id: "1")) }
      #expect(error?.kind == .refused, "\(dialect)")
      #expect(error?.status == 403)
      #expect(
        error?.reason?.contains("refuses anonymous votes") == true, "\(String(describing: error))")
      #expect(await voter.vote(for: RoadmapFeature(id: "1")) == nil)
    }
    await service.stop()
  }

  @Test("a 200-feature board is one batch request; finished features make none")
  func batch() async throws {
    let service = try LiveCounter()
    let writer = CountingAPIVoter(server: service.url, namespace: "board", dialect: .countapi)
    for id in ["3", "50", "199"] { _ = try await writer.castVote(for: RoadmapFeature(id: id)) }
    _ = try await writer.castVote(for: RoadmapFeature(id: "50"))
    let before = service.requests.count
    var board = (0..<200).map { RoadmapFeature(id: "\($0)") }
    board[10].isFinished = true
    board.append(RoadmapFeature(id: "50"))
    let voter = CountingAPIVoter(server: service.url, namespace: "board")
    let counts = try await voter.counts(for: board)
    #expect(counts.count == 200)
    #expect(counts["3"] == 1 && counts["50"] == 2 && counts["199"] == 1 && counts["0"] == 0)
    #expect(counts["10"] == 0)
    #expect(await voter.fetch(for: board) == counts)
    let batchTargets = service.targets[before...]
    #expect(batchTargets.count == 2)
    #expect(batchTargets.allSatisfy { $0.hasPrefix("/counts/board?keys=feature0,feature1,") })
    #expect(!batchTargets.first!.contains("feature10,"))
    await service.stop()
  }

  @Test("a board larger than one batch is read in chunks")
  func batchChunks() async throws {
    let service = try LiveCounter()
    let board = (0..<1_200).map { RoadmapFeature(id: "\($0)") }
    let voter = CountingAPIVoter(server: service.url, namespace: "big")
    let counts = try await voter.counts(for: board)
    #expect(counts.count == 1_200 && counts.values.allSatisfy { $0 == 0 })
    #expect(service.targets.count >= 3)
    #expect(service.targets.allSatisfy { $0.utf8.count <= 6_100 })
    await service.stop()
  }

  @Test(
    "without a batch route a board is one read per feature",
    arguments: [
      CountingDialect.countapi, .counterAPIV1,
    ])
  func perFeatureBoard(dialect: CountingDialect) async throws {
    let service = try LiveCounter()
    let writer = CountingAPIVoter(server: service.url, namespace: "board", dialect: dialect)
    _ = try await writer.castVote(for: RoadmapFeature(id: "2"))
    let voter = CountingAPIVoter(
      server: service.url, namespace: "board", dialect: dialect, maxConcurrentReads: 3)
    let counts = try await voter.counts(for: (0..<20).map { RoadmapFeature(id: "\($0)") })
    #expect(counts.count == 20 && counts["2"] == 1 && counts["0"] == 0)
    #expect(service.requests.count == 21)
    await service.stop()
  }
}

/// The board read's fallback: one refused key does not blank the board; no server does not
/// cost one failing request per row.
@Suite("CountingAPIVoter board fallback")
struct BoardFallbackTests {
  @Test("a batch refused for one bad id falls back to one read per feature")
  func refusedBatchFallsBack() async throws {
    let service = try LiveCounter()
    let writer = CountingAPIVoter(server: service.url, namespace: "ns1", dialect: .countapi)
    _ = try await writer.castVote(for: RoadmapFeature(id: "2"))
    let voter = CountingAPIVoter(server: service.url, namespace: "ns1", readRetry: .none)
    let board = features("1", "2", "bad id")
    let refused = await votingError { try await voter.counts(for: board) }
    #expect(refused?.kind == .refused && refused?.status == 400)
    #expect(await voter.fetch(for: board) == ["1": 0, "2": 1, "bad id": 0])
    await service.stop()
  }

  @Test("with no server, a board read is one failed batch, not one failure per row")
  func offlineBoardIsOneRequest() async throws {
    let failing = RequestLog()
    let server = try LocalServer { router in
      router.get("/counts/:ns") { request in
        failing.append(request)
        return json(#"{"error":"down"}"#, status: 503)
      }
    }
    let voter = CountingAPIVoter(server: server.url, namespace: "ns1", readRetry: quickRetry)
    let board = (0..<50).map { RoadmapFeature(id: "\($0)") }
    let counts = await voter.fetch(for: board)
    #expect(counts.count == 50 && counts.values.allSatisfy { $0 == 0 })
    // The batch and its two retries; no per-row reads.
    #expect(server.targets.count == 3)
    #expect(failing.requests.count == 3)
    await server.stop()
  }

  @Test("keys the batch route cannot take are read on their own; the rest stay one batch")
  func unbatchableKeysAreReadAlone() async throws {
    let service = try LiveCounter()
    let writer = CountingAPIVoter(server: service.url, namespace: "ns1", dialect: .countapi)
    _ = try await writer.castVote(for: RoadmapFeature(id: "2"))
    let voter = CountingAPIVoter(server: service.url, namespace: "ns1", readRetry: .none)
    let long = String(repeating: "y", count: 60)
    let board = features("1", "2", "dark mode", "é", long)
    let before = service.targets.count
    #expect(await voter.fetch(for: board) == ["1": 0, "2": 1, "dark mode": 0, "é": 0, long: 0])
    let sent = Array(service.targets[before...])
    // One batch of the good keys, and one read per key it could not take; no re-reads.
    #expect(
      sent.filter { $0.hasPrefix("/counts/ns1?keys=") } == ["/counts/ns1?keys=feature1,feature2"])
    #expect(sent.count == 4, "\(sent)")
    // The throwing batch read names the feature that failed.
    let error = await votingError { try await voter.counts(for: features("1", "dark mode")) }
    #expect(error?.kind == .refused && error?.message.contains("featuredark%20mode") == true)
    await service.stop()
  }

  @Test("a refused chunk falls back alone; the other chunks keep their batch")
  func refusedChunkFallsBackAlone() async throws {
    let server = try LocalServer { router in
      router.get("/counts/:ns") { request in
        let keys = request.query("keys") ?? ""
        if keys.contains("feature0") { return json(#"{"error":"refused"}"#, status: 400) }
        let counts = keys.split(separator: ",").map { "\"\($0)\":5" }.joined(separator: ",")
        return json("{\"counts\":{\(counts)}}")
      }
      router.get("/get/:ns/:key") { _ in json(#"{"value":7}"#) }
    }
    let voter = CountingAPIVoter(
      server: server.url, namespace: "ns1", readRetry: .none, maxBatchKeys: 2)
    let counts = try await voter.counts(for: features("0", "1", "2", "3"))
    #expect(counts == ["0": 7, "1": 7, "2": 5, "3": 5])
    #expect(server.targets.filter { $0.hasPrefix("/get/") }.count == 2)
    await server.stop()
  }
}
