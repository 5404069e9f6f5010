import Foundation
import Testing

@testable import HTTPServer

#if canImport(Glibc)
  import Glibc
#endif

/// A small deterministic generator (SplitMix64), so every run sends the same bytes.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Mutated requests sent over real sockets in random splits: whatever arrives, the server
/// answers with a well-formed response or closes, and keeps serving everyone else.
@Suite struct HTTPServerMutationTests {
  static let templates = [
    "GET /get/ns/key?x=1 HTTP/1.1\r\nHost: a\r\nAccept: */*\r\n\r\n",
    "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
    "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
    "GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /hello HTTP/1.1\r\nHost: a\r\n\r\n",
  ]

  static func mutate(_ bytes: [UInt8], _ rng: inout SeededGenerator) -> [UInt8] {
    var out = bytes
    let alphabet = Array(" \r\n\0\t:;,-+0123456789aZ%/\u{7F}".utf8) + [0xFF, 0xC3]
    for _ in 0..<Int.random(in: 1...4, using: &rng) {
      let i = Int.random(in: 0..<max(out.count, 1), using: &rng)
      switch Int.random(in: 0..<4, using: &rng) {
      case 0 where !out.isEmpty: out[i] = alphabet.randomElement(using: &rng)!
      case 1: out.insert(alphabet.randomElement(using: &rng)!, at: min(i, out.count))
      case 2 where !out.isEmpty: out.remove(at: i)
      default:
        let j = Int.random(in: 0..<bytes.count, using: &rng)
        out.insert(contentsOf: bytes[j...].prefix(12), at: min(i, out.count))
      }
    }
    return out
  }

  @Test func mutatedRequestsGetWellFormedAnswersOrAClose() async throws {
    let server = try startTestServer {
      $0.headerReadTimeout = .seconds(2)
      $0.bodyReadTimeout = .seconds(2)
    }
    let port = server.port
    let allowed: Set<Int> = [200, 400, 404, 405, 413, 414, 417, 431, 501, 505]
    let seen = LockedArray<Int>()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for worker in 0..<8 {
        group.addTask {
          try await offPool {
            var rng = SeededGenerator(state: UInt64(worker) &* 7919 &+ 1)
            for round in 0..<100 {
              let template = Array(Self.templates[(worker + round) % Self.templates.count].utf8)
              let bytes = Self.mutate(template, &rng)
              let client = try RawClient(port: port)
              // Send in random pieces, then close our side so the server never waits for more.
              var offset = 0
              while offset < bytes.count {
                let n = Int.random(in: 1...max(1, bytes.count - offset), using: &rng)
                try? client.send(Array(bytes[offset..<(offset + n)]))
                offset += n
              }
              shutdown(client.fd, Int32(SHUT_WR))
              while let response = try client.readResponse() {
                seen.append(response.status)
                if response.status >= 300 || response.header("Connection") == "close" { break }
              }
            }
          }
        }
      }
      try await group.waitForAll()
    }
    let statuses = Set(seen.values)
    #expect(statuses.isSubset(of: allowed), "unexpected statuses \(statuses.subtracting(allowed))")
    #expect(statuses.contains(200))
    #expect(statuses.contains(400))
    // Still serving.
    let after = try await offPool { () -> Int in
      let client = try RawClient(port: port)
      try client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
      return try client.readResponse()?.status ?? 0
    }
    #expect(after == 200)
    await server.shutdown(gracePeriod: .seconds(2))
  }
}
