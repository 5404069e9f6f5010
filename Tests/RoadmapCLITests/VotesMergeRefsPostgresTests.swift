import Foundation
import Testing

/// `votes merge-refs --postgres` ran beside running `serve` instances (on SQLite it refuses;
/// its help says to stop every instance), where a vote a server took on a feature being merged
/// away could be lost. Each serve instance on PostgreSQL now holds an advisory lock shared
/// while it runs, and merge-refs takes it exclusively without waiting and refuses, naming the
/// cause.
@Suite(.timeLimit(.minutes(5))) struct VotesMergeRefsPostgresTests {
  @Test func refusesWhileAServerRunsAndRunsOnceItStopped() async throws {
    let url = try await ServePostgres.shared.newDatabase()
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(dataDirectory: directory.url, ["--postgres", url])
    defer { server.process.kill() }
    #expect(try await server.get("/healthz").status == 200)

    // Where the server connects from: "a local socket" here, an address over TCP.
    let refusal =
      "refusing to merge refs: a 'roadmapctl serve' is running on this PostgreSQL database "
      + "(connected from "
    let refused = try await Roadmapctl.run(["votes", "merge-refs", "--postgres", url])
    #expect(refused.exitCode != 0)
    #expect(refused.stderrText.contains(refusal), "\(refused.stderrText)")
    #expect(
      refused.stderrText.contains("); stop every one first; nothing was changed."),
      "\(refused.stderrText)")

    // The lock's connection lost (as in a database restart): the server takes it again.
    let held =
      "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
      + "WHERE l.locktype = 'advisory' AND l.mode = 'ShareLock' AND l.granted "
      + "AND a.application_name = 'roadmapctl serve lock' AND a.datname = current_database()"
    let killed = try await ServePostgres.shared.query(
      url,
      "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
        + "WHERE application_name = 'roadmapctl serve lock' AND datname = current_database()")
    #expect(killed == "1")
    var again = false
    for _ in 0..<600 where !again {
      again = try await ServePostgres.shared.query(url, held) == "1"
      if !again { try await Task.sleep(nanoseconds: 100_000_000) }
    }
    #expect(again, "the server never took its lock again")
    let stillRefused = try await Roadmapctl.run(["votes", "merge-refs", "--postgres", url])
    #expect(stillRefused.exitCode != 0)
    #expect(stillRefused.stderrText.contains(refusal), "\(stillRefused.stderrText)")

    #expect(try await server.stop() == 0)
    let merged = try await Roadmapctl.run(["votes", "merge-refs", "--postgres", url])
    #expect(merged.exitCode == 0, "\(merged.stderrText)")
    #expect(merged.stderrText.contains("No features have refs in different Unicode forms."))
  }
}
