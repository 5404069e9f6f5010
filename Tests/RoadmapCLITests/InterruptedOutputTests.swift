import Foundation
import TestProcess
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `backup -o FILE` and `votes export -o FILE` ended by a signal while they write: the old
/// FILE stays as it was and the temporary `FILE.partial-PID` is removed (every interrupted
/// run, a cron or CI timeout, left one behind, up to the whole backup's size), and the process
/// ends by that signal (exit status 128 + the signal).
@Suite struct InterruptedOutputTests {
  static let old = "yesterday's backup\n"

  /// An export of `counters` counters of 100,000 voters each: about 7.6 MB per counter
  /// written, so a write takes a while (about 1 s for 3 in a debug build).
  static func export(counters: Int) -> String {
    let voters = 100_000
    let records = (1...counters).map { counter in
      let ids = (0..<voters).map { "\"v\(counter)-\($0)\"" }.joined(separator: ",")
      return
        #"{"record":{"id":\#(counter),"namespace":"app.example","key":"feature\#(counter)","value":\#(voters),"enableReset":false,"updateLowerBound":-1,"updateUpperBound":1,"createdAt":1700000000000,"updatedAt":1700000000000},"voters":[\#(ids)]}"#
    }
    return #"{"version":1,"counters":["# + records.joined(separator: ",") + "]}"
  }

  /// The temporary files in `directory`.
  static func partials(in directory: TemporaryDirectory) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
      .filter { $0.contains(".partial-") }
  }

  @Test func aSignalDuringTheWriteRemovesTheTemporaryFileAndKeepsTheOldOne() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("votes.json", Self.export(counters: 3))
    let imported = try await Roadmapctl.run(
      ["votes", "import", "votes.json", "--data-dir", "data"], workingDirectory: directory.url,
      timeout: .seconds(120))
    try #require(imported.exitCode == 0, "\(imported.stderrText)")

    let commands = [
      ["backup", "--data-dir", "data", "-o", "out.json"],
      ["votes", "export", "--data-dir", "data", "-o", "out.json"],
    ]
    for command in commands {
      for signal in [SIGINT, SIGTERM, SIGHUP] {
        // The signal must come while the write is under way; on a loaded machine the test
        // may look too late (the write done, the target replaced), so it tries again.
        var caught = false
        for _ in 0..<8 where !caught {
          let out = try directory.write("out.json", Self.old)
          let child = try Roadmapctl.start(command, workingDirectory: directory.url)
          defer { child.kill() }
          // Once the temporary file exists, the write is under way: watched and signalled from
          // a thread of its own, not from the cooperative pool a full run keeps busy.
          caught = try await onOwnThread {
            let end = Date().addingTimeInterval(60)
            while Self.partials(in: directory).isEmpty, child.isRunning, Date() < end {
              usleep(500)
            }
            guard !Self.partials(in: directory).isEmpty else { return false }
            child.signal(signal)
            return true
          }
          let status = try await child.waitForExit(timeout: .seconds(60))
          guard caught else { continue }
          // Signalled while the temporary file was there: the write may still have finished
          // first (renamed into place just before), which then counts as a miss too.
          if status == 0 {
            caught = false
            continue
          }
          #expect(status == 128 + signal, "\(command) \(signal): \(child.stderrText)")
          #expect(
            Self.partials(in: directory).isEmpty,
            "\(command) \(signal): \(Self.partials(in: directory))")
          #expect(
            try String(contentsOf: out, encoding: .utf8) == Self.old, "\(command) \(signal)")
        }
        #expect(caught, "\(command) \(signal): never signalled while the write was under way")
      }
    }
  }
}
