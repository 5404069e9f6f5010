import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Durability: SIGKILL under load loses no acknowledged vote and invents none.
@Suite struct ServeCrashTests {
  /// What one connection did before the server died.
  struct Tally: Sendable {
    var sent = 0
    var acknowledged = 0
  }

  @Test func killedUnderLoadKeepsEveryAcknowledgedHit() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let data = directory.url.appendingPathComponent("data")
    let server = try await ServeProcess.start(
      dataDirectory: data, ["--write-limit", "0", "--read-limit", "0"])
    defer { server.process.kill() }
    let port = server.port
    // Eight connections hit as fast as they can until the server dies under them. Each one's
    // bound starts when it does: on a loaded machine the group can start late (a bound taken
    // before it once ran out first, and the wait below then waited for ever).
    async let tallies = WireClient.concurrently(8) { _ -> Tally in
      var tally = Tally()
      guard let connection = try? WireConnection(port: port) else { return tally }
      let stopAfter = ContinuousClock.now + .seconds(300)
      while ContinuousClock.now < stopAfter {
        tally.sent += 1
        guard let answer = try? connection.request("/hit/app.example/crash") else { break }
        if answer.status == 200 { tally.acknowledged += 1 }
      }
      return tally
    }
    // On a throw below, the server dies before the hitters are waited for, so they end at once.
    defer { server.process.kill() }
    // Kill it once a few hundred hits are in, or after a bound: the test must end either way.
    let giveUp = ContinuousClock.now + .seconds(240)
    var seen = 0
    while seen < 300 && ContinuousClock.now < giveUp {
      try await Task.sleep(for: .milliseconds(50))
      let answer = try await server.get("/get/app.example/crash")
      if answer.status == 200 { seen = answer.object["value"] as? Int ?? 0 }
    }
    #expect(seen >= 300, "only \(seen) hits were counted in 240 s before the kill")
    server.process.signal(SIGKILL)
    #expect(try await server.process.waitForExit() == 128 + SIGKILL)
    let results = try await tallies
    let sent = results.reduce(0) { $0 + $1.sent }
    let acknowledged = results.reduce(0) { $0 + $1.acknowledged }

    let restarted = try await ServeProcess.start(dataDirectory: data)
    defer { restarted.process.kill() }
    let answer = try await restarted.get("/get/app.example/crash")
    let counted = try #require(answer.object["value"] as? Int)
    #expect(counted >= acknowledged)
    #expect(counted <= sent)
    #expect(acknowledged > 0)
    #expect(try await restarted.stop() == 0)
  }
}
