import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Votes the I/O thread gathers per round and hands to the writer together
/// (`VoteBatcher`): many pipelined votes on many connections, in both dialects and mixed
/// with requests refused on the spot, are each answered in order with their own count, and
/// every acknowledged one survives a `kill -9` of the real binary.
@Suite struct ServeBatchedVoteTests {
  static let connections = 16
  static let requestsEach = 30

  @Test func pipelinedVotesOnManyConnectionsAreAnsweredInOrderAndDurable() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let data = directory.url.appendingPathComponent("data")
    let server = try await ServeProcess.start(
      dataDirectory: data, ["--write-limit", "0", "--read-limit", "0"])
    defer { server.process.kill() }
    // The counter exists and memory knows it: votes on it take the I/O thread's path.
    let first = try await server.get("/hit/app.example/batched")
    #expect(first.body == #"{"value":1}"#)
    #expect(try await server.get("/get/app.example/batched").body == #"{"value":1}"#)

    let port = server.port
    // Per connection: countapi /hit or counterapi /up on the same counter, and every
    // tenth request a bad name, refused at once between the votes.
    let perConnection = try await WireClient.concurrently(Self.connections) {
      conn -> [(target: String, answer: WireAnswer)] in
      let connection = try WireConnection(port: port)
      let targets = (0..<Self.requestsEach).map { n -> String in
        if n % 10 == 5 { return "/hit/app.example/no" }
        return conn % 2 == 0 ? "/hit/app.example/batched" : "/v1/app.example/batched/up"
      }
      return Array(zip(targets, try connection.pipeline(targets)))
    }

    var values: [Int] = []
    for answers in perConnection {
      #expect(answers.count == Self.requestsEach)
      var last = 1
      for (target, answer) in answers {
        if target.hasSuffix("/no") {
          #expect(answer.status == 400)
          continue
        }
        #expect(answer.status == 200)
        let value = try #require(
          (answer.object["value"] ?? answer.object["count"]) as? Int, "\(answer.body)")
        // In order on its connection: each vote sees every one before it.
        #expect(value > last)
        last = value
        values.append(value)
      }
    }
    // Each vote counted once and answered with its own count.
    let votes = Self.connections * (Self.requestsEach - Self.requestsEach / 10)
    #expect(values.count == votes)
    #expect(values.sorted() == Array(2...(votes + 1)))

    // Every acknowledged vote is on disk: kill -9, start again, read it back.
    server.process.signal(SIGKILL)
    #expect(try await server.process.waitForExit() == 128 + SIGKILL)
    let restarted = try await ServeProcess.start(dataDirectory: data)
    defer { restarted.process.kill() }
    #expect(try await restarted.get("/get/app.example/batched").body == "{\"value\":\(votes + 1)}")
    #expect(try await restarted.stop() == 0)
  }
}
