import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A server that reads each request, writes `answer` and closes the connection: a TCP socket
/// on 127.0.0.1, port 0.
final class CannedAnswerListener: @unchecked Sendable {
  /// The port it listens on.
  let port: Int
  private let listener: Int32

  init(answer: String) throws {
    let (listener, port) = try loopbackSocket(listening: true)
    self.listener = listener
    self.port = port
    let bytes = Array(answer.utf8)
    Thread.detachNewThread {
      while true {
        let connection = accept(listener, nil, nil)
        if connection < 0 {
          if errno == EINTR { continue }
          return  // stopped
        }
        // The request's head: read until its blank line (or the client gives up).
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.ends(with: Array("\r\n\r\n".utf8)) {
          let count = read(connection, &buffer, buffer.count)
          if count <= 0 { break }
          request += buffer[0..<count]
        }
        _ = bytes.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
        close(connection)
      }
    }
  }

  /// `http://127.0.0.1:PORT`.
  var url: String { "http://127.0.0.1:\(port)" }

  /// Stops accepting.
  func stop() {
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
  }
}

extension Array where Element == UInt8 {
  fileprivate func ends(with suffix: [UInt8]) -> Bool {
    count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
  }
}

/// A server that closes the connection inside its answer's head. libcurl 7.x (Debian 12's
/// 7.88) reports such a transfer as a success, and swift-corelibs-foundation then stopped
/// `roadmapctl` with SIGILL and a backtrace ("Transfer completed, but there's no response").
/// CLazyCurl's guard turns it into an error the command reports like any other failed call.
@Suite struct CutHeadEndToEndTests {
  static let old = "the published roadmap of yesterday\n"

  @Test(arguments: ["HTTP/1.1 200 OK\r\nContent-", "HTTP/1.1 200 OK\r\n", "HTTP/1.1 200 OK"])
  func publishReportsAHeadCutOffAndLeavesItsOutAsItWas(answer: String) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("out.json", Self.old)
    let server = try CannedAnswerListener(answer: answer)
    defer { server.stop() }
    let result = try await Roadmapctl.run(
      ["publish", "--server", server.url, "--project", "cut.app", "-o", "out.json"],
      workingDirectory: directory.url, timeout: .seconds(240))
    #expect(result.exitCode == 1, "\(result.stderrText)")
    #expect(result.stdoutText.isEmpty)
    #expect(
      result.stderrText.hasPrefix(
        "Error: GET the board 'roadmap' of project cut.app on \(server.url) failed: "),
      "\(result.stderrText)")
    #expect(!result.stderrText.contains("Fatal error"), "\(result.stderrText)")
    let out = directory.url.appendingPathComponent("out.json")
    #expect(try String(contentsOf: out, encoding: .utf8) == Self.old)
  }

  @Test func theGuardNamesWhatTheServerDid() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", #"[{"id":"1","title":"Maps","status":"planned"}]"#)
    let server = try CannedAnswerListener(answer: "HTTP/1.1 200 OK\r\nContent-")
    defer { server.stop() }
    let result = try await Roadmapctl.run(
      [
        "migrate", "roadmap.json", "--server", server.url, "--project", "cut.app", "--key", "k",
      ],
      workingDirectory: directory.url, timeout: .seconds(240))
    #expect(result.exitCode == 1, "\(result.stderrText)")
    #expect(
      result.stderrText.contains(
        "the server closed the connection before the end of its answer's head"),
      "\(result.stderrText)")
  }
}
