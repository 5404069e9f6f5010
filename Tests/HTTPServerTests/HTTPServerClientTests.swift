import Foundation
import Testing

@testable import HTTPServer

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Live tests with real, polite clients: URLSession, curl, Python's http.client.
@Suite struct HTTPServerClientTests {
  @Test func urlSessionGetPostAndQuery() async throws {
    let server = try startTestServer()
    let base = "http://127.0.0.1:\(server.port)"
    let session = URLSession(configuration: .ephemeral)
    let (data, response) = try await session.data(from: URL(string: base + "/get/my%2Dns/k1")!)
    let http = try #require(response as? HTTPURLResponse)
    #expect(http.statusCode == 200)
    #expect(String(decoding: data, as: UTF8.self) == #"{"ns":"my-ns","key":"k1"}"#)
    #expect(http.value(forHTTPHeaderField: "Date") != nil)

    var post = URLRequest(url: URL(string: base + "/echo")!)
    post.httpMethod = "POST"
    post.httpBody = Data("payload".utf8)
    let (echo, _) = try await session.data(for: post)
    #expect(String(decoding: echo, as: UTF8.self) == "payload")

    let (q, _) = try await session.data(from: URL(string: base + "/query?a=1&b=x+y&c=%C3%A9")!)
    #expect(String(decoding: q, as: UTF8.self) == "a=1&b=x y&c=é")

    let (_, missing) = try await session.data(from: URL(string: base + "/nope")!)
    #expect((missing as? HTTPURLResponse)?.statusCode == 404)
    session.finishTasksAndInvalidate()
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func curlReusesTheConnectionAndSendsBodies() async throws {
    let server = try startTestServer()
    let base = "http://127.0.0.1:\(server.port)"
    let (status, out, err) = try await offPool {
      try runProcess("/usr/bin/curl", ["-sv", base + "/hello", base + "/get/a/b"])
    }
    #expect(status == 0)
    #expect(out == #"{"hello":"world"}{"ns":"a","key":"b"}"#)
    #expect(err.contains("Re-using existing connection") || err.contains("Reusing existing"))

    // Chunked upload with Expect: 100-continue.
    let body = Data(String(repeating: "0123456789", count: 5000).utf8)
    let (s2, out2, err2) = try await offPool {
      try runProcess(
        "/usr/bin/curl",
        [
          "-sv", "-H", "Transfer-Encoding: chunked", "-H", "Expect: 100-continue",
          "--data-binary", "@-", base + "/echo",
        ], stdin: body)
    }
    #expect(s2 == 0)
    #expect(out2.utf8.count == body.count)
    #expect(err2.contains("100 Continue"))

    // A body over the limit is refused from its Content-Length.
    let small = try startTestServer { $0.maxBodyBytes = 1000 }
    let (s3, out3, _) = try await offPool {
      try runProcess(
        "/usr/bin/curl",
        [
          "-s", "-o", "/dev/null", "-w", "%{http_code}", "--data-binary", "@-",
          "http://127.0.0.1:\(small.port)/echo",
        ], stdin: body)
    }
    #expect(s3 == 0)
    #expect(out3 == "413")
    await small.shutdown(gracePeriod: .seconds(2))
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func pythonHTTPClientKeepAliveHeadAndHTTP10() async throws {
    let server = try startTestServer()
    let script = """
      import http.client, sys
      port = int(sys.argv[1])
      c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
      for i in range(3):
          c.request("GET", "/get/ns/k%d" % i)
          r = c.getresponse()
          print(r.status, r.read().decode(), r.getheader("Connection"))
      c.request("HEAD", "/hello")
      r = c.getresponse()
      print("HEAD", r.status, r.getheader("Content-Length"), len(r.read()))
      c.request("POST", "/echo", body=b"x" * 1000)
      r = c.getresponse()
      print("POST", r.status, len(r.read()))
      c.close()
      http.client.HTTPConnection._http_vsn = 10
      http.client.HTTPConnection._http_vsn_str = "HTTP/1.0"
      c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
      c.request("GET", "/hello")
      r = c.getresponse()
      print("1.0", r.status, r.getheader("Connection"), r.read().decode())
      """
    let port = server.port
    let (status, out, err) = try await offPool {
      try runProcess("/usr/bin/python3", ["-c", script, String(port)])
    }
    #expect(status == 0, "\(err)")
    #expect(
      out.split(separator: "\n") == [
        #"200 {"ns":"ns","key":"k0"} None"#,
        #"200 {"ns":"ns","key":"k1"} None"#,
        #"200 {"ns":"ns","key":"k2"} None"#,
        "HEAD 200 17 0",
        "POST 200 1000",
        #"1.0 200 close {"hello":"world"}"#,
      ])
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func ipv6Loopback() async throws {
    let server = try startTestServer { $0.host = "::1" }
    let port = server.port
    let response = try await offPool { () -> Int in
      let client = try RawClient(host: "::1", port: port)
      try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
      return try client.readResponse()?.status ?? 0
    }
    #expect(response == 200)
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func localhostListensOnIPv4() async throws {
    let server = try startTestServer { $0.host = "localhost" }
    let port = server.port
    let status = try await offPool { () -> Int in
      let client = try RawClient(host: "127.0.0.1", port: port)
      try client.send("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")
      return try client.readResponse()?.status ?? 0
    }
    #expect(status == 200)
    await server.shutdown(gracePeriod: .seconds(2))
  }

  @Test func accessLogGetsOneEntryPerRequest() async throws {
    let entries = LockedArray<AccessLogEntry>()
    let server = try startTestServer { $0.accessLog = { entries.append($0) } }
    let port = server.port
    _ = try await offPool { () -> Int in
      let client = try RawClient(port: port)
      try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
      _ = try client.readResponse()
      try client.send("GET /missing?x=1 HTTP/1.1\r\nHost: x\r\n\r\n")
      _ = try client.readResponse()
      try client.send("GET /bad HTTP/1.1\r\nHost: x\r\nContent-Length: +1\r\n\r\n")
      _ = try client.readResponse()
      return 0
    }
    await server.shutdown(gracePeriod: .seconds(2))
    let logged = entries.values.map { "\($0.method) \($0.target) \($0.status) \($0.peer)" }
    #expect(
      logged == [
        "GET /hello 200 127.0.0.1", "GET /missing?x=1 404 127.0.0.1", "- - 400 127.0.0.1",
      ])
    #expect(entries.values.first?.bytes == 17)
    #expect(entries.values.first?.line.hasPrefix(#"127.0.0.1 "GET /hello" 200 17 "#) == true)
  }
}

/// An array appended to from any thread.
final class LockedArray<T: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var storage: [T] = []
  func append(_ value: T) {
    lock.lock()
    storage.append(value)
    lock.unlock()
  }
  var values: [T] {
    lock.lock()
    defer { lock.unlock() }
    return storage
  }
}
