import Foundation
import Testing

@testable import RoadmapCLI

/// Fetching a URL input (`validate URL`, `show URL`, `migrate URL`) against a local server:
/// the size limit and the deadline, small so that the tests run in a moment, and a cancel.
@Suite struct InputLoaderFetchTests {
  @Test func aBodyWithoutEndIsCutOff() async throws {
    let server = try await TestHTTPServer.start()
    defer { server.stop() }
    let url = server.url("/endless.json")
    do {
      _ = try await InputLoader.fetch(url, maximumBytes: 1 << 20)
      Issue.record("expected a failure")
    } catch {
      #expect(
        error.message
          == "cannot fetch '\(url)': the body is longer than 1048576 bytes; is this the right URL?"
      )
    }
    let good = try await InputLoader.fetch(server.url("/good.json"), maximumBytes: 1 << 20)
    #expect(good.bytes == Array(Fixtures.good.utf8))
    #expect(InputLoader.maximumFetchBytes == 1 << 30)
  }

  @Test func aSilentServerIsCutOffByTheDeadline() async throws {
    let server = try await TestHTTPServer.start()
    defer { server.stop() }
    let url = server.url("/slow.json")
    do {
      _ = try await InputLoader.fetch(url, timeout: 0.5)
      Issue.record("expected a failure")
    } catch {
      #expect(error.message == "cannot fetch '\(url)': no whole answer within 0.5 s")
    }
    #expect(InputLoader.fetchTimeout == 120)
  }

  @Test func aCancelledFetchSaysSo() async throws {
    let server = try await TestHTTPServer.start()
    defer { server.stop() }
    let url = server.url("/slow.json")
    let fetch = Task { () async throws(CommandError) -> LoadedInput in
      try await InputLoader.fetch(url)
    }
    try await Task.sleep(nanoseconds: 200_000_000)
    fetch.cancel()
    do {
      _ = try await fetch.value
      Issue.record("expected a failure")
    } catch {
      #expect((error as? CommandError)?.message == "cannot fetch '\(url)': cancelled")
    }
  }
}
