import Foundation
import HTTPServer
import Testing

@testable import FeatureVoting

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

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
      // Far past any wait a loaded machine imposes on the 0.5 s deadline (once over 60 s):
      // the deadline always comes first.
      router.get("/slow") { _ in
        try? await Task.sleep(for: .seconds(300))
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

  @Test("an answer slower than URLSession's default 60 s comes within a longer timeout")
  func longerThanTheSessionDefault() async throws {
    let server = try LocalServer { router in
      router.get("/minute") { _ in
        try? await Task.sleep(for: .seconds(65))
        return json(#"{"value":1}"#)
      }
    }
    defer { Task { await server.stop() } }
    // swift-corelibs-foundation timed this out after 60 s, saying "within 180.0 s".
    let response = try await URLSessionTransport().send(
      TransportRequest(url: server.url.appendingPathComponent("minute"), timeout: 180))
    #expect(response.status == 200)
  }

  @Test("a session of the caller's own times out by its own limit, and says so")
  func ownSessionLimit() async throws {
    let server = try LocalServer { router in
      router.get("/slow") { _ in
        try? await Task.sleep(for: .seconds(90))
        return json(#"{"value":1}"#)
      }
    }
    defer { Task { await server.stop() } }
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 1
    let transport = URLSessionTransport(session: URLSession(configuration: configuration))
    do {
      _ = try await transport.send(
        TransportRequest(url: server.url.appendingPathComponent("slow"), timeout: 120))
      Issue.record("expected a timeout")
    } catch {
      #expect(error.kind == .timedOut, "\(error)")
      #expect(error.message.contains("the URL session timed out"), "\(error)")
      #expect(error.message.contains("120.0 s timeout"), "\(error)")
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

  static let offlineCodes: [URLError.Code] = [
    .notConnectedToInternet, .networkConnectionLost, .cannotFindHost, .cannotConnectToHost,
    .dnsLookupFailed, .dataNotAllowed, .internationalRoamingOff, .callIsActive,
  ]

  static let notOfflineCodes: [URLError.Code] = [
    .appTransportSecurityRequiresSecureConnection, .secureConnectionFailed,
    .serverCertificateHasBadDate, .serverCertificateUntrusted, .serverCertificateHasUnknownRoot,
    .serverCertificateNotYetValid, .clientCertificateRejected, .clientCertificateRequired,
    .httpTooManyRedirects, .redirectToNonExistentLocation, .userCancelledAuthentication,
    .dataLengthExceedsMaximum, .unknown,
  ]

  @Test("only no network, an unknown host, a refused or lost connection are offline")
  func offlineMeansUnreachable() throws {
    let request = TransportRequest(url: try #require(URL(string: "http://votes.example")))
    for code in Self.offlineCodes {
      let error = URLSessionTransport.map(URLError(code), request: request)
      #expect(error.kind == .offline, "\(code.rawValue): \(error)")
    }
    for code in Self.notOfflineCodes {
      let error = URLSessionTransport.map(URLError(code), request: request)
      #expect(error.kind == .invalidRequest, "\(code.rawValue): \(error)")
      #expect(error.message.contains("(URLError \(code.rawValue))"), "\(error)")
    }
    let ats = URLSessionTransport.map(
      URLError(.appTransportSecurityRequiresSecureConnection), request: request)
    #expect(ats.message.contains("appTransportSecurityRequiresSecureConnection (URLError -1022)"))
    #expect(URLSessionTransport.map(URLError(.timedOut), request: request).kind == .timedOut)
    let cancelled = URLSessionTransport.map(URLError(.cancelled), request: request)
    #expect(cancelled.kind == .invalidRequest && cancelled.message.contains("cancelled"))
    // An NSError of the URL loading domain is read by its code, like the URLError it is.
    let bridged = NSError(domain: NSURLErrorDomain, code: URLError.Code.cannotFindHost.rawValue)
    #expect(URLSessionTransport.map(bridged as any Error, request: request).kind == .offline)
    let other = URLSessionTransport.map(CocoaError(.fileNoSuchFile) as any Error, request: request)
    #expect(other.kind == .invalidRequest)
  }

  @Test("an unknown host is offline")
  func unknownHostIsOffline() async throws {
    // .invalid never resolves (RFC 6761).
    let url = try #require(URL(string: "http://no-such-host.invalid/get/ns1/feature1"))
    do {
      _ = try await URLSessionTransport().send(TransportRequest(url: url, timeout: 20))
      Issue.record("expected a failure")
    } catch {
      #expect(error.kind == .offline, "\(error)")
    }
  }

  @Test("a TLS failure and a redirect loop are not offline, and name the URLError")
  func securityAndRedirectFailuresAreNotOffline() async throws {
    let server = try LocalServer { router in
      router.get("/loop") { _ in
        HTTPResponse(
          status: 302, headers: HTTPHeaders([("Location", "/loop")]), body: Array("x".utf8))
      }
    }
    defer { Task { await server.stop() } }
    // TLS spoken to a plain HTTP server: the handshake fails.
    let https = try #require(URL(string: "https://127.0.0.1:\(server.port)/loop"))
    for url in [https, server.url.appendingPathComponent("loop")] {
      do {
        let answer = try await URLSessionTransport().send(TransportRequest(url: url, timeout: 10))
        Issue.record("expected a failure for \(url), got \(answer.status)")
      } catch {
        #expect(error.kind == .invalidRequest, "\(url): \(error)")
        #expect(error.message.contains("URLError -"), "\(error)")
      }
    }
  }

  @Test("a timeout of .infinity, NaN or a huge number neither traps nor hangs")
  func timeoutsTooLargeToConvert() async throws {
    let server = try LocalServer { router in
      router.get("/value") { _ in json(#"{"value":1}"#) }
    }
    defer { Task { await server.stop() } }
    let url = server.url.appendingPathComponent("value")
    for timeout in [TimeInterval.infinity, 1e300, .greatestFiniteMagnitude] {
      let answer = try await URLSessionTransport().send(
        TransportRequest(url: url, timeout: timeout))
      #expect(answer.status == 200)
    }
    #expect(URLSessionTransport.effectiveTimeout(.infinity) == URLSessionTransport.longestTimeout)
    #expect(URLSessionTransport.effectiveTimeout(.nan) == 0)
    #expect(URLSessionTransport.effectiveTimeout(-1) == 0)
    do {
      _ = try await URLSessionTransport().send(TransportRequest(url: url, timeout: .nan))
      Issue.record("a NaN timeout expires at once")
    } catch {
      #expect(error.kind == .timedOut, "\(error)")
      // The message gives the timeout applied, not "nan s".
      #expect(error.message.hasSuffix("within 0.0 s"), "\(error)")
    }
  }

  @Test("a task cancelled before the request starts sends nothing")
  func cancelledBeforeSendingSendsNothing() async throws {
    let server = try LocalServer { router in
      router.get("/hit") { _ in json(#"{"value":1}"#) }
    }
    defer { Task { await server.stop() } }
    let url = server.url.appendingPathComponent("hit")
    let task = Task { () -> VotingError? in
      withUnsafeCurrentTask { $0?.cancel() }
      do throws(VotingError) {
        _ = try await URLSessionTransport().send(TransportRequest(url: url, timeout: 30))
        return nil
      } catch {
        return error
      }
    }
    let error = await task.value
    #expect(error?.kind == .invalidRequest)
    #expect(error?.message.contains("cancelled") == true)
    // A request that had left would be here long before this (it was, without the check).
    try await Task.sleep(for: .milliseconds(500))
    #expect(server.targets.isEmpty)
  }

  @Test("a cancelled request is not offline")
  func cancelledIsNotOffline() async throws {
    let server = try LocalServer { router in
      // Far longer than the wait below may take on a loaded machine: the cancel comes first.
      router.get("/slow") { _ in
        try? await Task.sleep(for: .seconds(90))
        return json(#"{"value":1}"#)
      }
    }
    defer { Task { await server.stop() } }
    let url = server.url.appendingPathComponent("slow")
    let task = Task { () -> VotingError? in
      do throws(VotingError) {
        _ = try await URLSessionTransport().send(TransportRequest(url: url, timeout: 120))
        return nil
      } catch {
        return error
      }
    }
    for _ in 0..<3_000 where server.targets.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
    task.cancel()
    let error = await task.value
    #expect(error?.kind == .invalidRequest)
    #expect(error?.message.contains("cancelled") == true)
  }
}

/// Answers cut short by the server: a body shorter than its Content-Length, a chunked body
/// that stops, and a connection closed before any answer.
let cutAnswers: [(name: String, bytes: String)] = [
  ("a short body", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"value\":"),
  ("a chunked body that stops", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"val"),
  ("no answer at all", ""),
]

@Suite("URLSessionTransport: a connection lost mid-answer")
struct TransportCutAnswerTests {
  /// As Apple's platforms report it (`networkConnectionLost`): the server may have taken the
  /// vote, so a `DurableVoter` queues it and sends it again with its voter id. On Linux,
  /// FoundationNetworking said `unknown` (and `badServerResponse` for no answer), which was
  /// an invalid request, neither retried nor queued.
  @Test(arguments: cutAnswers.map(\.name))
  func aCutAnswerIsOffline(_ name: String) async throws {
    let bytes = try #require(cutAnswers.first { $0.name == name }).bytes
    let server = try RawServer(.cut(Array(bytes.utf8)))
    defer { server.stop() }
    do {
      _ = try await URLSessionTransport().send(TransportRequest(url: server.url, timeout: 60))
      Issue.record("expected a failure")
    } catch {
      #expect(error.kind == .offline, "\(error)")
      #expect(error.message.contains("networkConnectionLost"), "\(error)")
    }
  }
}

@Suite("URLSessionTransport answer size")
struct TransportAnswerSizeTests {
  @Test("an answer without end is cancelled once it passes the limit")
  func endlessAnswer() async throws {
    let server = try RawServer(.endless)
    let transport = URLSessionTransport(maximumAnswerBytes: 256 * 1024)
    do {
      _ = try await transport.send(TransportRequest(url: server.url, timeout: 120))
      Issue.record("expected a failure")
    } catch {
      #expect(error.kind == .badAnswer, "\(error)")
      #expect(error.message.contains("longer than 262144 bytes"), "\(error)")
    }
    // The connection is closed, not left to run to the deadline.
    #expect(await server.waitUntilTheClientHangsUp(seconds: 60))
    #expect(server.bodyBytesSent > 262_144)
  }

  @Test("an answer of exactly the limit is read, one byte more is not")
  func limitIsInclusive() async throws {
    let body = String(repeating: "7", count: 1000)
    let server = try LocalServer { router in
      router.get("/count") { _ in json(body) }
    }
    defer { Task { await server.stop() } }
    let url = server.url.appendingPathComponent("count")
    let exact = try await URLSessionTransport(maximumAnswerBytes: 1000).send(
      TransportRequest(url: url))
    #expect(exact.body.count == 1000)
    for transport in [
      URLSessionTransport(maximumAnswerBytes: 999),
      URLSessionTransport(session: URLSession(configuration: .ephemeral), maximumAnswerBytes: 999),
    ] {
      do {
        _ = try await transport.send(TransportRequest(url: url))
        Issue.record("expected a failure")
      } catch {
        #expect(error.kind == .badAnswer, "\(error)")
        #expect(error.message.contains("longer than 999 bytes"), "\(error)")
      }
    }
    #expect(URLSessionTransport().maximumAnswerBytes == 16 * 1024 * 1024)
    #expect(URLSessionTransport(maximumAnswerBytes: -5).maximumAnswerBytes == 0)
  }
}
