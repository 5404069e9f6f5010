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
      let tasks = "/proc/\(server.process.pid)/task"
      let names = try FileManager.default.contentsOfDirectory(atPath: tasks).compactMap {
        try? String(contentsOfFile: "\(tasks)/\($0)/comm", encoding: .utf8)
          .trimmingCharacters(in: .newlines)
      }
      for expected in [
        "http io", "http handler 1", "votes writer", "votes checkpt", "votes reader 1",
        "signals",
      ] {
        #expect(names.contains(expected), "no thread named \(expected) in \(names.sorted())")
      }
      #expect(try await server.stop() == 0)
    }
  #endif
}
