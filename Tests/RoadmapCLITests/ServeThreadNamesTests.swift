import Foundation
import Testing

/// `roadmapctl serve`'s threads carry their names to the system, so `top -H`, `ps -L` and
/// `perf` tell the I/O thread from the SQLite writer (Foundation on Linux hands a name to the
/// system only when a thread names itself, and only one of at most 15 bytes).
@Suite struct ServeThreadNamesTests {
  #if os(Linux)
    @Test func theServersThreadsAreNamedForTheSystem() async throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let server = try await ServeProcess.start(dataDirectory: directory.url)
      defer { server.process.kill() }
      #expect(try await server.get("/hit/names.example/feature").status == 200)
      let expected = [
        "http io", "http handler 1", "votes writer", "votes checkpt", "votes reader 1",
        "board writer", "board reader 1", "signals",
      ]
      // A thread names itself as it starts: on a loaded machine give it a moment.
      var names: [String] = []
      for _ in 0..<100 {
        names = Self.threadNames(of: server.process.pid)
        if expected.allSatisfy(names.contains) { break }
        try await Task.sleep(nanoseconds: 100_000_000)
      }
      for name in expected {
        #expect(names.contains(name), "no thread named \(name) in \(names.sorted())")
      }
      #expect(try await server.stop() == 0)
    }

    /// The system's names of process `pid`'s threads.
    static func threadNames(of pid: pid_t) -> [String] {
      let tasks = "/proc/\(pid)/task"
      let ids = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
      return ids.compactMap {
        try? String(contentsOfFile: "\(tasks)/\($0)/comm", encoding: .utf8)
          .trimmingCharacters(in: .newlines)
      }
    }
  #endif
}
