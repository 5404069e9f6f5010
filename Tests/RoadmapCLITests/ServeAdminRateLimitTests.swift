import Foundation
import Testing

/// `votes pull` into the real `serve` at its default limits: the admin token's calls are not
/// held to the write limit, anonymous writes and wrong tokens from the same address are.
///
/// Bug: each `/set` of a pull drew on the address's write limit (60 a minute, a burst of
/// 30), so 300 counters took 270 s and 5,000 about 83 minutes; told not to wait
/// (`ROADMAPCTL_RATE_LIMIT_WAIT=0`), the pull stopped at the 31st with "HTTP 429".
@Suite struct ServeAdminRateLimitTests {
  @Test func aPullOfHundredsOfCountersAtTheDefaultLimitsMeetsNo429() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let features = 300
    let roadmap = (1...features).map { #"{"id":"\#($0)","title":"Feature \#($0)"}"# }
    try directory.write("roadmap.json", "[" + roadmap.joined(separator: ",") + "]")
    let old = try await SyncSupport.serve(in: directory, name: "old")
    // serve's own defaults: no --read-limit or --write-limit.
    let data = directory.url.appendingPathComponent("new")
    let new = try await ServeProcess.start(
      dataDirectory: data, ["--admin-token", SyncSupport.token])
    defer {
      old.process.kill()
      new.process.kill()
    }
    let admin = ["Authorization": "Bearer \(SyncSupport.token)"]
    for id in 1...features {
      let answer = try await old.get("/set/old-app/feature\(id)?value=\(id)", headers: admin)
      #expect(answer.status == 200, "\(answer.body)")
    }
    let result = try await Roadmapctl.run(
      [
        "votes", "pull", "roadmap.json", "--from", SyncSupport.url(old), "--dialect", "countapi",
        "--namespace", "old-app", "--server", SyncSupport.url(new), "--project", "new-app",
        "--key", SyncSupport.token,
      ], environment: ["ROADMAPCTL_RATE_LIMIT_WAIT": "0"], workingDirectory: directory.url,
      timeout: .seconds(600))
    #expect(result.exitCode == 0, "\(result.stderrText)")
    #expect(result.stdoutText.hasSuffix("\(features) counts set, 0 already equal.\n"))
    for id in [1, 31, features] {
      #expect(try await SyncSupport.value(new, "new-app", "feature\(id)") == id)
    }

    // Anonymous writes from the same address are held to the limit as before.
    var statuses: [Int] = []
    while statuses.last != 429 && statuses.count < 1_000 {
      statuses.append(try await new.get("/hit/new-app/anonymous").status)
    }
    #expect(statuses.last == 429)
    #expect(statuses.count > 1, "the pull used up the address's writes")

    // So are wrong tokens: they draw on the write limit as before (refused with 429 now
    // that the writes are spent) and on a budget of their own; past it, the right token from
    // that address is refused too (it is not looked at).
    var guesses: [WireAnswer] = []
    while guesses.last?.body.contains("too many wrong admin tokens") != true
      && guesses.count < 1_000
    {
      guesses.append(
        try await new.get("/set/new-app/feature1?value=0&token=wrong-\(guesses.count)"))
    }
    #expect(guesses.allSatisfy { $0.status == 429 || $0.status == 403 })
    #expect(guesses.last?.status == 429)
    let refused = try await new.get("/set/new-app/feature1?value=0", headers: admin)
    #expect(refused.status == 429, "\(refused.body)")
    #expect(refused.body.contains("too many wrong admin tokens"), "\(refused.body)")
    #expect(try await SyncSupport.value(new, "new-app", "feature1") == 1)
  }
}
