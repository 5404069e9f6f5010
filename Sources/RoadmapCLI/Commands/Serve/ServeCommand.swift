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
      Opens the store (SQLite in --data-dir, created if needed, unless --postgres is given), \
      checks it, says on standard error where the votes are, and prints \
      'Serving on http://HOST:PORT' once it is listening. Every vote is durable before it is \
      answered. SIGTERM, SIGINT or SIGHUP stops it gracefully (exit 0); while it is still \
      starting (connecting to PostgreSQL, say), at once (exit 0). SIGUSR1 and SIGUSR2 are \
      ignored. A damaged database is refused \
      (exit 1). Routes and bodies: docs/counter-protocol.md and, for the VoteFirst board API \
      under /api/v1/, docs/votefirst-api.md; deployment: docs/serving.md.
      """)

  @Option(
    valueName: "address",
    help: "The address to listen on (an IPv6 address with or without brackets: ::1, [::1]).",
    validate: { $0.isEmpty || $0 == "[]" ? Self.emptyHostProblem : nil })
  var host: String = "127.0.0.1"

  /// An empty `--host` (a variable never set), which was looked up as a host name and failed
  /// with "cannot listen on :8080: cannot resolve : Name or service not known" (exit 1).
  static let emptyHostProblem =
    "--host is empty: give an address to listen on (127.0.0.1, 0.0.0.0 for every interface, "
    + "::1), or leave it out for 127.0.0.1."

  @Option(
    short: "p", help: "The TCP port; 0 picks a free one.",
    validate: { (0...65535).contains($0) ? nil : "The port must be between 0 and 65535." })
  var port: Int = 8080

  @OptionGroup var store: VotesStoreOptions

  @Option(
    valueName: "token", environment: "ROADMAPCTL_ADMIN_TOKEN",
    help:
      "The admin token: the key to the board API's admin calls (/api/v1/…: stages, features, suggestions, import; what migrate, votes pull and reconcile --apply send as --key) and to /set. Sent as 'Authorization: Bearer T' (/set: or token=T). Without one the board cannot be administered. Prefer the environment variable, which other users cannot see.",
    validate: Self.adminTokenProblem)
  var adminToken: String?

  /// Why `token` cannot be the admin token, a usage error: empty on the command line
  /// (`--admin-token "$TOKEN"` with the variable unset), which ran the server without any
  /// token and without a word; or with a space or control character at either end (a
  /// carriage return from a file edited on Windows), which no client can send, since HTTP
  /// takes the spaces around a header value away. Never repeats the token.
  @Sendable static func adminTokenProblem(_ token: String) -> String? {
    if token.isEmpty {
      return "--admin-token is empty: give the token, or leave it out (and "
        + "ROADMAPCTL_ADMIN_TOKEN unset or empty) to run without one, when the board cannot "
        + "be administered."
    }
    let edges = [token.unicodeScalars.first, token.unicodeScalars.last].compactMap { $0 }
    if edges.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F })
    {
      return "--admin-token (or ROADMAPCTL_ADMIN_TOKEN) starts or ends with a space, line break "
        + "or other control character, which no client can send in an Authorization header: "
        + "remove it (a file edited on Windows leaves a carriage return at the end of the line)."
    }
    return nil
  }

  @Flag(help: "Give keys made by /hit countapi's bounds [0, 1] (no unvote).")
  var strictCountapi: Bool

  @Flag(help: "Refuse votes without a voter id (X-Voter-ID or voter=) with 403.")
  var requireVoter: Bool

  @Flag(
    help:
      "Rate-limit by the last X-Forwarded-For address, no per-address connection limit (behind a proxy only)."
  )
  var trustProxy: Bool

  @Option(
    valueName: "per-minute",
    help: "Reads allowed per client address a minute (bursts of half); 0 turns it off.",
    validate: Self.checkRateLimit)
  var readLimit: Int = 1200

  @Option(
    valueName: "per-minute",
    help: "Votes and other writes allowed per client address a minute; 0 turns it off.",
    validate: Self.checkRateLimit)
  var writeLimit: Int = 60

  @Option(
    valueName: "per-day",
    help:
      "New counters (/hit, /create, /up, /down of a key that does not exist) allowed per client address a day, all at once after a quiet day, apart from the write limit; the admin token is exempt. 0 turns it off.",
    validate: { $0 >= 0 ? nil : "--create-limit must be 0 or more counters a day." })
  var createLimit: Int = 1000

  @Option(
    valueName: "count",
    help:
      "The most counters the store may hold for such a request to make another (507 beyond; votes on existing counters, the admin token, the board API, votes import and restore are not limited). 0: no ceiling.",
    validate: { $0 >= 0 ? nil : "--max-counters must be 0 or more." })
  var maxCounters: Int = 1_000_000

  @Option(
    valueName: "origin",
    help:
      "The Access-Control-Allow-Origin value of every answer: *, null, or one origin as browsers send it (https://example.com: lowercase, no default port).",
    validate: Self.originProblem)
  var corsOrigin: String = "*"

  @Flag(help: "Log one line per request to standard error.")
  var accessLog: Bool

  @Option(
    valueName: "count",
    help:
      "Most connections one client address may hold open, 503 beyond (default 1000; 0: no limit).",
    validate: { $0 >= 0 ? nil : "The connection limit must be 0 or more." })
  var maxConnectionsPerAddress: Int?

  @Option(
    valueName: "microseconds",
    help:
      "How long the I/O thread polls instead of sleeping while answers are being made (a vote's fsync), after its last event; 0 turns it off.",
    validate: {
      (0...1_000_000).contains($0) ? nil : "--busy-poll must be 0 to 1000000 microseconds."
    })
  var busyPoll: Int = ServeCommand.defaultBusyPollMicroseconds

  /// `--busy-poll`'s default: 2 ms, longer than a vote's group commit takes on most disks, so
  /// under load the I/O thread sees each group's results at once instead of being woken for
  /// them, and an idle server never polls.
  static let defaultBusyPollMicroseconds = 2000

  /// The per-address connection limit for the options: `--max-connections-per-address`, else
  /// the server's default; none with `--trust-proxy`, where every connection comes from the
  /// proxy and a per-address limit would lock it out (clients are limited at the proxy).
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  static func connectionLimit(_ option: Int?, trustProxy: Bool) throws(CommandError) -> Int? {
    switch option {
    case nil: return trustProxy ? nil : HTTPServerConfiguration.defaultMaxConnectionsPerAddress
    case 0?: return nil
    case let limit?:
      if trustProxy {
        throw CommandError.validation(
          "--max-connections-per-address cannot be used with --trust-proxy: every connection "
            + "comes from the proxy, so limit connections per client at the proxy.")
      }
      return limit
    }
  }

  /// Why `origin` cannot be an `Access-Control-Allow-Origin` value, or nil: it must be `*`,
  /// `null` or one origin (`scheme://host[:port]`, no path), written as browsers send it
  /// (lowercase, no user name, no default port). Browsers refuse a list, compare an origin
  /// byte for byte, and a value with a line break or another control character would not
  /// even be sent, so any of those would fail every cross-origin call without a word.
  @Sendable static func originProblem(_ origin: String) -> String? {
    if origin == "*" || origin == "null" { return nil }
    let usage = "--cors-origin takes one origin, such as https://example.com, or *"
    guard let separator = origin.range(of: "://") else {
      return "\(usage); '\(origin.debugDescription.dropFirst().dropLast())' is not one."
    }
    let scheme = origin[..<separator.lowerBound]
    let authority = origin[separator.upperBound...]
    let isSchemeByte = { (byte: UInt8) in
      (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
        || (byte >= 0x30 && byte <= 0x39) || byte == 0x2B || byte == 0x2D || byte == 0x2E
    }
    let isAuthorityByte = { (byte: UInt8) in
      byte > 0x20 && byte < 0x7F && !",/\\?#\"'<>;".utf8.contains(byte)
    }
    guard !scheme.isEmpty, scheme.utf8.allSatisfy(isSchemeByte), !authority.isEmpty,
      authority.utf8.allSatisfy(isAuthorityByte)
    else {
      let shown = origin.debugDescription.dropFirst().dropLast()
      return origin.contains(",") || origin.contains(" ")
        ? "\(usage): browsers refuse a list ('\(shown)'); answer several origins at a proxy."
        : "\(usage) (no path, spaces or control characters); '\(shown)' is not one."
    }
    // A browser compares the value with the origin it sends, byte for byte, and sends it
    // serialized: scheme (and a web host) in lowercase, no user name, no default port.
    guard let browsers = serializedOrigin(scheme: scheme, authority: authority) else {
      return
        "\(usage): '\(origin)' is not one (a host, and a port from 0 to 65535 if any; an IPv6 "
        + "address in brackets)."
    }
    if browsers != origin {
      return
        "\(usage): browsers send it as \(browsers) and would refuse every answer to "
        + "'\(origin)'; write it as \(browsers)."
    }
    return nil
  }

  /// The schemes whose hosts browsers lowercase, with their default ports.
  static let defaultPorts = ["http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21]

  /// The origin `scheme://authority` as a browser sends it in `Origin`: the scheme lowercased,
  /// a user name dropped, a web scheme's host lowercased, its default port and a port's
  /// leading zeros dropped; nil when the authority has no host, or a port that is not one.
  static func serializedOrigin(scheme: Substring, authority: Substring) -> String? {
    let scheme = scheme.lowercased()
    var rest = authority
    if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
    let host: Substring
    if rest.hasPrefix("[") {
      guard let close = rest.firstIndex(of: "]") else { return nil }
      host = rest[...close]
      rest = rest[rest.index(after: close)...]
    } else {
      let colon = rest.firstIndex(of: ":") ?? rest.endIndex
      host = rest[..<colon]
      rest = rest[colon...]
    }
    guard !host.isEmpty, host != "[]" else { return nil }
    let defaultPort = defaultPorts[scheme]
    var serialized = scheme + "://" + (defaultPort == nil ? String(host) : host.lowercased())
    if !rest.isEmpty {
      // ":PORT"; ":" alone is no port.
      let port = rest.dropFirst()
      guard rest.first == ":", port.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
        return nil
      }
      if !port.isEmpty {
        let digits = port.drop(while: { $0 == "0" })
        guard digits.count <= 5, let number = digits.isEmpty ? 0 : Int(digits), number <= 65535
        else { return nil }
        if number != defaultPort { serialized += ":\(number)" }
      }
    }
    return serialized
  }

  @Sendable private static func checkRateLimit(_ perMinute: Int) -> String? {
    perMinute >= 0 ? nil : "Rate limits must be 0 or more requests a minute."
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    // HTTPServer needs `Duration` (macOS 13); the package's other commands run on macOS 12.
    guard #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) else {
      throw CommandError.failure("serve needs macOS 13 or later.")
    }
    let host = Self.listenAddress(self.host)
    var serverConfiguration = HTTPServerConfiguration(host: host, port: port)
    serverConfiguration.maxConnectionsPerAddress = try Self.connectionLimit(
      maxConnectionsPerAddress, trustProxy: trustProxy)
    serverConfiguration.busyPoll = .microseconds(busyPoll)
    // A signal while the store is still opening (connecting to PostgreSQL may take up to its
    // connect bound) stops at once: nothing is served yet, and the open would not look.
    let stderrForSignals = context.stderr
    let signals = try ServeSignalWaiter { signal in
      stderrForSignals.writeLine(
        "Received signal \(signal) while starting; stopped before serving.")
      exit(0)
    }
    // A server that cannot start leaves no store it made behind (a new --data-dir on a port
    // already in use left an empty store there).
    // On PostgreSQL each instance holds the serve lock while it runs, so that 'votes
    // merge-refs' refuses to run beside it (and this one refuses to start beside merge-refs).
    let serveLock = try self.store.holdServeLock(context)
    let (store, footprint) = try self.store.openTracked(
      context, mustExist: false, memoryCache: true)
    let boards: any BoardStore
    do {
      boards = try self.store.openBoards(beside: store)
    } catch {
      await store.close()
      footprint.removeWhatWasCreated()
      throw error
    }
    let stderr = context.stderr
    var serviceConfiguration = CounterServiceConfiguration(
      adminToken: adminToken,
      strictCountapi: strictCountapi,
      requireVoter: requireVoter,
      trustProxy: trustProxy,
      readLimit: .perMinute(readLimit), writeLimit: .perMinute(writeLimit),
      corsOrigin: corsOrigin,
      accessLog: accessLog,
      version: RoadmapCLI.version,
      log: { stderr.writeLine($0) })
    serviceConfiguration.createLimit = .perDay(createLimit)
    serviceConfiguration.maxCounters = maxCounters
    let service = CounterService(
      store: store, boards: boards, configuration: serviceConfiguration)
    // Bodies stay at 1 MiB, except the VoteFirst batch and import calls with the admin
    // token: up to 32 MiB, so a roadmap of 10,000 features is one request.
    serverConfiguration.bodyLimit = service.bodyLimit
    serverConfiguration.bodyLimitCeiling = CounterService.adminImportBodyBytes
    // A body over its limit is refused in its route's error shape (VoteFirst, counterapi).
    serverConfiguration.refusal = service.refusal
    // The server's own refusals (400, 408, 413, 414, 431, 501, 505, 503) reach the access log
    // and /metrics like every other answer.
    serverConfiguration.refusalLog = service.refusalLog
    let server = HTTPServer(
      configuration: serverConfiguration, immediate: service.immediateHandler,
      handler: service.handler)
    let boundPort: Int
    do {
      boundPort = try server.start()
    } catch {
      await boards.close()
      await store.close()
      serveLock?.release()
      footprint.removeWhatWasCreated()
      throw CommandError.failure(Self.describeListenFailure(error, host: host, port: port))
    }
    signals.serving()
    let limits = server.connectionLimits
    if let descriptors = limits.loweredForDescriptorLimit {
      stderr.writeLine(
        Self.descriptorLimitWarning(
          limits, configured: serverConfiguration.maxConnections, descriptors: descriptors))
    }
    if let warning = adminToken.flatMap(Self.shortAdminTokenWarning) {
      stderr.writeLine(warning)
    }
    stderr.writeLine(self.store.whereTheVotesAre(context))
    for warning in await Self.refTwinsWarnings(boards: boards) {
      stderr.writeLine(warning)
    }
    let shownHost = host.contains(":") ? "[\(host)]" : host
    context.stdout.writeLine("Serving on http://\(shownHost):\(boundPort)")

    let signal = await signals.wait()
    stderr.writeLine("Received signal \(signal); finishing requests in flight…")
    await server.shutdown(gracePeriod: .seconds(10))
    let cut = server.connectionsClosedAtGraceEnd
    if cut > 0 {
      // Why the stop took its whole grace period, and that some clients got no answer.
      stderr.writeLine(
        "Closed \(cut) connection\(cut == 1 ? "" : "s") still open after 10 s: a request not "
          + "yet received whole, a vote not yet answered, or an answer not yet read by its "
          + "client.")
    }
    await boards.close()
    await store.close()
    serveLock?.release()
    stderr.writeLine("Stopped.")
    return 0
  }

  /// The fewest characters an admin token should have; a shorter one is warned about.
  static let shortestAdminToken = 12

  /// One warning per group of features whose refs are one ref in different Unicode forms
  /// (``RefTwins``), naming each feature, its ref spelled out and its votes: reads show one
  /// of them, and the other's votes are hidden. A store failure here is not one to stop for.
  static func refTwinsWarnings(boards: any BoardStore) async -> [String] {
    // The votes straight from the table: the store's memory of counts is keyed by Swift
    // strings, to which the two forms are one key.
    let read = try? await boards.read { tables in
      try tables.refTwins().map { group in
        (group, try group.features.map { try tables.votes(group.project, key: $0.counterKey) })
      }
    }
    var warnings: [String] = []
    for (group, votes) in read ?? [] {
      let named = zip(group.features, votes).map { feature, votes in
        "feature \(feature.id) (ref \"\(RefTwins.spelled(feature.ref ?? ""))\", "
          + pluralized(Int(votes), "vote") + ")"
      }
      warnings.append(
        "warning: project \(group.project) has features whose refs are one ref in different "
          + "Unicode forms: " + named.joined(separator: ", ")
          + ". Apps and the board API see one of them, and the others' votes are hidden; "
          + "'roadmapctl votes merge-refs' (with serve stopped) merges them into the first. "
          + "See docs/serving.md, 'Refs in two Unicode forms'.")
    }
    return warnings
  }

  /// The warning for an admin token shorter than ``shortestAdminToken`` (`--admin-token a`
  /// started without a word), or nil. A wrong token costs a guesser only a request within its
  /// rate limit, so the token's length is what keeps it. Never repeats the token.
  static func shortAdminTokenWarning(_ token: String) -> String? {
    guard token.count < shortestAdminToken else { return nil }
    return "warning: the admin token has only \(token.count) character"
      + "\(token.count == 1 ? "" : "s"): anyone who can reach this server may guess it by "
      + "trying. Use a long random one (openssl rand -hex 24)."
  }

  /// The warning for connection limits lowered from `configured` connections to fit the
  /// descriptor limit `descriptors`.
  @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
  static func descriptorLimitWarning(
    _ limits: HTTPConnectionLimits, configured: Int, descriptors: Int
  ) -> String {
    let perAddress = limits.maxConnectionsPerAddress.map { ", \($0) from one address" } ?? ""
    return "warning: this process may open only \(descriptors) files (ulimit -n), too few for "
      + "\(configured) connections: serving at most "
      + "\(limits.maxConnections) connections\(perAddress); each beyond is answered 503. Raise "
      + "the limit to serve more (systemd: LimitNOFILE=65536; a shell: ulimit -n 65536)."
  }

  /// The address to listen on for `--host`: an IPv6 literal given in brackets, as in a URL
  /// (`[::1]`), without them; anything else as it is.
  static func listenAddress(_ host: String) -> String {
    guard host.count > 2, host.hasPrefix("["), host.hasSuffix("]") else { return host }
    return String(host.dropFirst().dropLast())
  }

  /// One sentence for a server that cannot listen: what happened, once, and what to do.
  static func describeListenFailure(_ error: any Error, host: String, port: Int) -> String {
    let bare = listenAddress(host)
    let place = "cannot listen on \(bare.contains(":") ? "[\(bare)]" : bare):\(port)"
    guard let error = error as? HTTPServerError else { return "\(place): \(error)" }
    switch error.errno {
    case POSIXErrorCode.EADDRINUSE.rawValue?:
      return "\(place): the port is already in use (is another 'roadmapctl serve' running?). "
        + "Stop it, or choose another port with --port (0 picks a free one)."
    case POSIXErrorCode.EACCES.rawValue?:
      return "\(place): permission denied (ports below 1024 need privileges). "
        + "Choose a port of 1024 or more with --port."
    case POSIXErrorCode.EADDRNOTAVAIL.rawValue?:
      return "\(place): this machine has no such address. Choose one of its own with --host "
        + "(127.0.0.1, or 0.0.0.0 for every interface)."
    case let code?:
      return "\(place): \(String(cString: strerror(code)))."
    case nil:
      return error.kind == .addressResolution
        ? "\(place): \(error.message). Check --host." : "\(place): \(error.message)."
    }
  }
}
