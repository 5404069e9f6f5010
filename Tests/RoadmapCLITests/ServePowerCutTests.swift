import Foundation
import Testing
import VoteFirstAPI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every vote `roadmapctl serve` acknowledged survives a power cut, not only a `kill -9`.
///
/// The real binary runs under the power-cut shim (``PowerCut``): connections vote as fast as
/// they are answered, the server is killed in mid-stream, and its files are put back as they
/// were at their last sync, as if the machine had lost power. A server started on what is
/// left must count every vote that was answered. The control runs the same with the syncs of
/// the WAL ignored and must lose votes, so the test can tell a missing sync.
@Suite struct ServePowerCutTests {
  static let connections = 12
  static let keys = 3
  /// Acknowledged votes after which the power goes.
  static let votesBeforeTheCut = 400

  /// `roadmapctl serve` with `arguments` under the shim, on a fresh `data` directory inside
  /// `directory`.
  static func startUnderTheShim(
    in directory: URL, _ arguments: [String] = []
  ) async throws -> (server: ServeProcess, data: URL) {
    let shim = try await PowerCut.build(in: directory)
    let data = directory.appendingPathComponent("data")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    let server = try await ServeProcess.start(
      dataDirectory: data, arguments,
      environment: PowerCut.environment(library: shim, directory: data))
    return (server, data)
  }

  @Test func everyAcknowledgedVoteSurvivesAPowerCut() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let shim = try await PowerCut.build(in: directory.url)
    let run = try await Self.voteAndCut(in: directory.url, shim: shim, ignoreWALSyncs: false)
    #expect(run.kept.contains("votes.sqlite3"), "kept after the cut: \(run.kept)")
    #expect(run.kept.contains("votes.sqlite3-wal"), "kept after the cut: \(run.kept)")
    #expect(run.acknowledged.values.reduce(0, +) >= Self.votesBeforeTheCut / 2)
    for key in run.acknowledged.keys.sorted() {
      let acknowledged = try #require(run.acknowledged[key])
      let restored = try #require(run.restored[key])
      #expect(restored >= acknowledged, "\(key): acknowledged \(acknowledged), \(restored) left")
      #expect(restored <= run.sent[key] ?? 0, "\(key): more counted than sent")
    }
  }

  @Test func theControlWithoutTheWALSyncsLosesAcknowledgedVotes() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let shim = try await PowerCut.build(in: directory.url)
    // A checkpoint copies the WAL into the database and syncs that; one that lands just before
    // the cut can cover every vote, so the control gets three tries to show a loss.
    var runs: [String] = []
    for _ in 1...3 {
      let run = try await Self.voteAndCut(in: directory.url, shim: shim, ignoreWALSyncs: true)
      if run.acknowledged.contains(where: { key, value in (run.restored[key] ?? 0) < value }) {
        return
      }
      runs.append("acknowledged \(run.acknowledged), restored \(run.restored)")
    }
    Issue.record("no vote was lost without the WAL's syncs: \(runs)")
  }

  @Test func aFailedWALSyncAnswersAnUnknownOutcomeAndStopsTheWrites() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (server, data) = try await Self.startUnderTheShim(in: directory.url)
    defer { server.process.kill() }
    #expect(try await server.get("/hit/app.example/disk").body == #"{"value":1}"#)

    // The disk fails the next sync: the vote's frames are in the WAL, maybe not on the disk.
    try PowerCut.startFailing(data)
    let unknown = try await server.get("/hit/app.example/disk")
    #expect(unknown.status == 503)
    #expect(
      unknown.body
        == #"{"error":"the vote store could not make the change durable; it may or may not have been made"}"#
    )
    #expect(unknown.header("Retry-After") == "1")
    // Even with the disk back, the store takes no more votes: the pages the failed sync lost
    // may be gone, so no later sync can vouch for them.
    try PowerCut.stopFailing(data)
    let refused = try await server.get("/v1/app.example/disk/up")
    #expect(refused.status == 503)
    #expect(refused.body.contains("the vote store is unavailable; nothing was changed"))
    let health = try await server.get("/healthz")
    #expect(health.status == 503)
    #expect(health.body.contains("no more writes until it is reopened"), "\(health.body)")
    #expect(try await server.get("/get/app.example/disk").body == #"{"value":1}"#)
    #expect(try await server.stop() == 0)

    // Restarted, it counts again. Whether the vote whose sync failed counts is what nobody
    // could know: its frames were written.
    let restarted = try await ServeProcess.start(dataDirectory: data)
    defer { restarted.process.kill() }
    let next = try await restarted.get("/hit/app.example/disk")
    #expect(next.status == 200)
    let value = next.object["value"] as? Int ?? 0
    #expect(value == 2 || value == 3, "\(next.body)")
    #expect(try await restarted.stop() == 0)
  }

  @Test func aBoardWriteWhoseSyncFailedIsAnUnknownOutcomeInTheContractsShape() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (server, data) = try await Self.startUnderTheShim(
      in: directory.url, ["--admin-token", VoteFirstServer.token])
    defer { server.process.kill() }
    let admin = VoteFirstHTTPClient(
      configuration: VoteFirstClientConfiguration(
        baseURL: URL(string: "http://127.0.0.1:\(server.port)")!, project: "demo-app",
        adminToken: VoteFirstServer.token),
      voterID: "admin")
    _ = try await admin.upsertFeature(
      ref: "one", FeatureUpsert(content: FeatureContent(title: "One")))

    try PowerCut.startFailing(data)
    do {
      _ = try await admin.upsertFeature(
        ref: "two", FeatureUpsert(content: FeatureContent(title: "Two")))
      Issue.record("a write whose sync failed was acknowledged")
    } catch {
      #expect(error.kind == .serverFailure)
      #expect(error.code == VoteFirstContract.ErrorCode.storeUnavailable)
      #expect(
        error.reason?.message
          == "the vote store could not make the change durable; the outcome is unknown",
        "\(error)")
    }
    do {
      _ = try await admin.upsertFeature(
        ref: "three", FeatureUpsert(content: FeatureContent(title: "Three")))
      Issue.record("a write after a failed sync was accepted")
    } catch {
      #expect(error.reason?.message.contains("nothing was changed") == true, "\(error)")
    }
    try PowerCut.stopFailing(data)
    #expect(try await server.stop() == 0)
  }

  /// What one run saw.
  struct Run {
    /// The highest count each key was answered with.
    var acknowledged: [String: Int] = [:]
    /// How many votes were sent on each key (answered or not).
    var sent: [String: Int] = [:]
    /// Each key's count read back after the cut.
    var restored: [String: Int] = [:]
    /// The files left after the cut.
    var kept: [String] = []
  }

  static func voteAndCut(in directory: URL, shim: URL, ignoreWALSyncs: Bool) async throws -> Run {
    let data = directory.appendingPathComponent("data-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
    let server = try await ServeProcess.start(
      dataDirectory: data, ["--write-limit", "0", "--read-limit", "0"],
      environment: PowerCut.environment(
        library: shim, directory: data, ignoreWALSyncs: ignoreWALSyncs))
    defer { server.process.kill() }
    let names = (0..<keys).map { "cut-\($0)" }
    for name in names {
      #expect(try await server.get("/hit/app.example/\(name)").body == #"{"value":1}"#)
    }

    let tally = Tally(keys: names)
    let port = server.port
    let clients = Task {
      try await WireClient.concurrently(connections) { client in
        let name = names[client % names.count]
        guard let connection = try? WireConnection(port: port) else { return }
        while true {
          tally.sending(name)
          guard let answer = try? connection.request("/hit/app.example/\(name)"),
            answer.status == 200, let value = answer.object["value"] as? Int
          else { return }
          tally.answered(name, value)
        }
      }
    }
    for _ in 0..<1200 where tally.total < votesBeforeTheCut {
      try await Task.sleep(nanoseconds: 25_000_000)
    }
    server.process.signal(SIGKILL)
    #expect(try await server.process.waitForExit() == 128 + SIGKILL)
    _ = try await clients.value

    var run = Run()
    (run.acknowledged, run.sent) = tally.figures
    run.kept = try PowerCut.cut(data)
    let restarted = try await ServeProcess.start(dataDirectory: data)
    defer { restarted.process.kill() }
    for name in names {
      let answer = try await restarted.get("/get/app.example/\(name)")
      run.restored[name] = answer.object["value"] as? Int ?? 0
    }
    #expect(try await restarted.stop() == 0)
    return run
  }
}

/// The votes sent and answered, per key, from many client threads.
private final class Tally: @unchecked Sendable {
  private let lock = NSLock()
  private var highest: [String: Int]
  private var sentCount: [String: Int]
  private var answers = 0

  init(keys: [String]) {
    // Each key was made by one vote before the clients began.
    highest = Dictionary(uniqueKeysWithValues: keys.map { ($0, 1) })
    sentCount = highest
  }

  var total: Int { lock.withLock { answers } }

  var figures: ([String: Int], [String: Int]) { lock.withLock { (highest, sentCount) } }

  func sending(_ key: String) { lock.withLock { sentCount[key, default: 0] += 1 } }

  func answered(_ key: String, _ value: Int) {
    lock.withLock {
      highest[key] = max(highest[key] ?? 0, value)
      answers += 1
    }
  }
}

/// Every board write `roadmapctl serve` acknowledged survives a power cut too: features are
/// upserted from several connections as fast as they are answered, the power goes in
/// mid-stream, and a server started on what is left holds every feature that was answered.
@Suite struct ServeBoardPowerCutTests {
  @Test func everyAcknowledgedBoardWriteSurvivesAPowerCut() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (server, data) = try await ServePowerCutTests.startUnderTheShim(
      in: directory.url,
      ["--admin-token", VoteFirstServer.token, "--write-limit", "0", "--read-limit", "0"])
    defer { server.process.kill() }
    let port = server.port
    let fields = [
      (name: "Authorization", value: "Bearer \(VoteFirstServer.token)"),
      (name: "Content-Type", value: "application/json"),
    ]
    let acknowledged = RefSet()
    let sent = RefSet()
    let writers = Task {
      try await WireClient.concurrently(4) { client in
        guard let connection = try? WireConnection(port: port) else { return }
        for index in 0... {
          let ref = "w\(client)-\(index)"
          sent.insert(ref)
          let body = #"{"title":"Feature \#(ref)","importedVotes":\#(index)}"#
          guard
            let answer = try? connection.exchange(
              "PUT", "/api/v1/demo-app/features/ref/\(ref)", fields: fields,
              body: Array(body.utf8)),
            answer.status == 201
          else { return }
          acknowledged.insert(ref)
        }
      }
    }
    for _ in 0..<1200 where acknowledged.count < 120 {
      try await Task.sleep(nanoseconds: 25_000_000)
    }
    server.process.signal(SIGKILL)
    #expect(try await server.process.waitForExit() == 128 + SIGKILL)
    _ = try await writers.value

    let kept = try PowerCut.cut(data)
    #expect(kept.contains("votes.sqlite3-wal"), "kept after the cut: \(kept)")
    let restarted = try await ServeProcess.start(
      dataDirectory: data, ["--admin-token", VoteFirstServer.token])
    defer { restarted.process.kill() }
    let export = try await restarted.get(
      "/api/v1/demo-app/export", headers: ["Authorization": "Bearer \(VoteFirstServer.token)"])
    #expect(export.status == 200)
    let features = export.object["features"] as? [[String: Any]] ?? []
    let restored = Set(features.compactMap { $0["ref"] as? String })
    let answered = acknowledged.refs
    #expect(answered.count >= 60)
    #expect(
      answered.subtracting(restored).isEmpty, "lost: \(answered.subtracting(restored).sorted())")
    #expect(restored.subtracting(sent.refs).isEmpty)
    // Each kept feature's imported votes came with it, in the same transaction.
    for feature in features {
      guard let ref = feature["ref"] as? String, let index = Int(ref.split(separator: "-")[1])
      else { continue }
      #expect(feature["importedVotes"] as? Int == index, "\(ref)")
      let count = try await restarted.get("/get/demo-app/feature\(ref)")
      #expect(count.object["value"] as? Int == index, "\(ref): \(count.body)")
    }
    #expect(try await restarted.stop() == 0)
  }
}

/// Refs noted from many client threads.
private final class RefSet: @unchecked Sendable {
  private let lock = NSLock()
  private var set: Set<String> = []

  func insert(_ ref: String) { lock.withLock { _ = set.insert(ref) } }
  var refs: Set<String> { lock.withLock { set } }
  var count: Int { lock.withLock { set.count } }
}
