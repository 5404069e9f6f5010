import CounterService
import Foundation
import HTTPServer
import VoteStore

/// `roadmapctl serve`: the self-hosted vote counter.
struct ServeCommand: Command {
  static let configuration = CommandConfiguration(
    name: "serve",
    abstract: "Serve vote counts over HTTP (countapi.xyz and counterapi.dev v1 compatible).",
    discussion: """
      Opens the store (SQLite in --data-dir unless --postgres is given), checks it, and prints \
      'Serving on http://HOST:PORT' once it is listening. Every vote is durable before it is \
      answered. SIGTERM or SIGINT stops it gracefully (exit 0). A damaged database is refused \
      (exit 1). Routes and bodies: docs/counter-protocol.md; deployment: docs/serving.md.
      """,
    parameters: [
      .option(
        "host", valueName: "address", default: "127.0.0.1", help: "The address to listen on."),
      .option(
        "port", short: "p", valueName: "port", default: "8080",
        help: "The TCP port; 0 picks a free one."),
    ] + VotesStoreLocation.parameters + [
      .option(
        "admin-token", valueName: "token", environment: "ROADMAPCTL_ADMIN_TOKEN",
        help: "The token for admin routes (/set), sent as 'Authorization: Bearer T' or token=T."),
      .flag(
        "strict-countapi", help: "Give keys made by /hit countapi's bounds [0, 1] (no unvote)."),
      .flag(
        "require-voter", help: "Refuse votes without a voter id (X-Voter-ID or voter=) with 403."),
      .flag(
        "trust-proxy", help: "Rate-limit by the last X-Forwarded-For address (behind a proxy only)."
      ),
      .option(
        "read-limit", valueName: "per-minute", default: "1200",
        help: "Reads allowed per client address a minute (bursts of half); 0 turns it off."),
      .option(
        "write-limit", valueName: "per-minute", default: "60",
        help: "Votes and other writes allowed per client address a minute; 0 turns it off."),
      .option(
        "cors-origin", valueName: "origin", default: "*",
        help: "The Access-Control-Allow-Origin value of every answer."),
      .flag("access-log", help: "Log one line per request to standard error."),
    ])

  func run(_ context: CommandContext) async throws -> Int32 {
    // HTTPServer needs `Duration` (macOS 13); the package's other commands run on macOS 12.
    guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else {
      throw CommandError.failure("serve needs macOS 13 or later.")
    }
    let values = context.values
    let host = values.string("host") ?? "127.0.0.1"
    guard let port = try values.int("port"), (0...65535).contains(port) else {
      throw CommandError.validation("The port must be between 0 and 65535.")
    }
    guard let readLimit = try values.int("read-limit"), readLimit >= 0,
      let writeLimit = try values.int("write-limit"), writeLimit >= 0
    else { throw CommandError.validation("Rate limits must be 0 or more requests a minute.") }

    let signals = try ServeSignalWaiter()
    let store = try VotesStoreLocation.open(context, mustExist: false)
    let stderr = context.stderr
    let service = CounterService(
      store: store,
      configuration: CounterServiceConfiguration(
        adminToken: values.string("admin-token"),
        strictCountapi: values.flag("strict-countapi"),
        requireVoter: values.flag("require-voter"),
        trustProxy: values.flag("trust-proxy"),
        readLimit: .perMinute(readLimit), writeLimit: .perMinute(writeLimit),
        corsOrigin: values.string("cors-origin") ?? "*",
        accessLog: values.flag("access-log"),
        version: RoadmapCLI.version,
        log: { stderr.writeLine($0) }))
    let server = HTTPServer(
      configuration: HTTPServerConfiguration(host: host, port: port), handler: service.handler)
    let boundPort: Int
    do {
      boundPort = try server.start()
    } catch {
      await store.close()
      throw CommandError.failure("cannot listen on \(host):\(port): \(error)")
    }
    let shownHost = host.contains(":") ? "[\(host)]" : host
    context.stdout.writeLine("Serving on http://\(shownHost):\(boundPort)")

    let signal = await signals.wait()
    stderr.writeLine("Received signal \(signal); finishing requests in flight…")
    await server.shutdown(gracePeriod: .seconds(10))
    await store.close()
    stderr.writeLine("Stopped.")
    return 0
  }
}
