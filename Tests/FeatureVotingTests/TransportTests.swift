import Foundation
import HTTPServer
import Testing

@testable import FeatureVoting

@Suite("URLSessionTransport")
struct TransportTests {
  @Test("any status is an answer, with headers and body")
  func statusIsAnAnswer() async throws {
    let server = try LocalServer { router in
      router.get("/fail") { _ in json(#"{"error":"boom"}"#, status: 500, headers: ["X-A": "b"]) }
    }
    defer { Task { await server.stop() } }
    let response = try await URLSessionTransport().send(
      TransportRequest(
        url: server.url.appendingPathComponent("fail"), headers: ["X-Voter-ID": "v1"]))
    #expect(response.status == 500)
    #expect(response.header("x-a") == "b")
    #expect(String(decoding: response.body, as: UTF8.self) == #"{"error":"boom"}"#)
    #expect(server.requests.first?.headers["X-Voter-ID"] == "v1")
  }

  @Test("a closed port is offline")
  func closedPortIsOffline() async throws {
    let closed = try ClosedPort()
    do {
      _ = try await URLSessionTransport().send(TransportRequest(url: closed.url, timeout: 10))
      Issue.record("expected a failure")
    } catch {
      #expect(error.kind == .offline, "\(error)")
    }
  }

  @Test("a server slower than the timeout is timed out")
  func slowServerTimesOut() async throws {
    let server = try LocalServer { router in
      router.get("/slow") { _ in
        try? await Task.sleep(for: .seconds(5))
        return json(#"{"value":1}"#)
      }
    }
    defer { Task { await server.stop() } }
    do {
      _ = try await URLSessionTransport().send(
        TransportRequest(url: server.url.appendingPathComponent("slow"), timeout: 0.5))
      Issue.record("expected a timeout")
    } catch {
      #expect(error.kind == .timedOut, "\(error)")
      #expect(error.message.contains("0.5 s"))
    }
  }

  @Test("Retry-After in seconds or as an HTTP date")
  func retryAfter() {
    #expect(TransportResponse(status: 429, headers: ["Retry-After": "7"]).retryAfter == 7)
    #expect(TransportResponse(status: 429, headers: ["retry-after": " 0 "]).retryAfter == 0)
    #expect(TransportResponse(status: 429, headers: ["Retry-After": "soon"]).retryAfter == nil)
    #expect(TransportResponse(status: 429).retryAfter == nil)
    let past = "Wed, 21 Oct 2015 07:28:00 GMT"
    #expect(TransportResponse(status: 429, headers: ["Retry-After": past]).retryAfter == 0)
  }
}
