import FeatureVoting
import Foundation
import RoadmapFormat
import RoadmapSync

/// `roadmapctl migrate`: a Roadmap JSON and its votes onto a VoteFirst project.
struct MigrateCommand: Command {
  static let configuration = CommandConfiguration(
    name: "migrate",
    abstract: "Move a Roadmap JSON and its votes onto a VoteFirst project.",
    discussion: """
      One VoteFirst feature per Roadmap feature, found again by its Roadmap id (its ref), so a \
      second run changes nothing and a run cut off halfway finishes on the next. Statuses become \
      stages in first-seen order (or as --status-map says), finished features land in a \
      finished stage, and every field and key travels. Votes come from --votes-from (read \
      feature by feature; a key it does not know holds 0, a count it cannot give stops the \
      migration unless --allow-missing-votes) or else from the JSON's own votes, and are set as \
      imported votes. The plan is printed before anything is written; --dry-run stops there. \
      The features go in one batch call. A broken roadmap stops it before anything is written.
      """)

  @Argument(help: "The roadmap: a file, an http(s) URL, or - for standard input.")
  var roadmap: String

  @Option(
    valueName: "url", help: "The VoteFirst server (roadmapctl serve).",
    validate: { ServerURL.problem($0, option: "--server") })
  var server: String

  @Option(
    valueName: "ns", help: "The project (a counter namespace).",
    validate: { NameCheck.namespaceProblem($0) })
  var project: String

  @Option(
    valueName: "token", environment: "ROADMAPCTL_ADMIN_TOKEN",
    help: "The server's admin token.")
  var key: String

  @Option(
    valueName: "url", help: "The old counting API to read the votes from.",
    validate: { ServerURL.problem($0, option: "--votes-from") })
  var votesFrom: String?

  @Option(help: "The protocol of --votes-from.")
  var dialect: SyncDialect = .countapi

  @Option(valueName: "ns", help: "The namespace of --votes-from (the app's bundle identifier).")
  var namespace: String?

  @Option(
    valueName: "template", help: "How a feature id becomes a key of --votes-from; {id} is the id.",
    validate: { (try? KeyTemplate($0)) == nil ? "--key-template must contain {id} once." : nil })
  var keyTemplate: String = "feature{id}"

  @Option(valueName: "file", help: "How statuses become stages (JSON, see docs/migrating.md).")
  var statusMap: String?

  @Flag(help: "Print the plan, write nothing.")
  var dryRun: Bool

  @Flag(help: "Go on when some counts cannot be read (those features keep the JSON's votes).")
  var allowMissingVotes: Bool

  @Flag(
    help:
      "Go on when none of the counters exists in --namespace (every count 0: no votes there yet).")
  var allowEmptyNamespace: Bool

  @Option(help: "How to print the plan and the outcome.")
  var format: Migration.OutputFormat = .human

  @OptionGroup var serverTimeout: ServerTimeoutOptions

  func validate() throws {
    if votesFrom != nil, namespace == nil {
      throw CommandError.validation("--votes-from needs --namespace.")
    }
    if votesFrom == nil, namespace != nil {
      throw CommandError.validation("--namespace goes with --votes-from.")
    }
    if votesFrom == nil, allowEmptyNamespace {
      throw CommandError.validation("--allow-empty-namespace goes with --votes-from.")
    }
    // The board counts a feature in its project's counter `feature{ref}`: reading those back
    // as the source would import the board's own votes into themselves.
    if let votesFrom, namespace == project, dialect != .tally, keyTemplate == "feature{id}",
      Self.sameServer(votesFrom, server)
    {
      throw CommandError.validation(
        "--votes-from \(votesFrom) --namespace \(project) are the board's own counters, which "
          + "already hold these votes: leave out --votes-from.")
    }
  }

  /// Whether two server URLs name the same server and path (scheme and host in any case, a
  /// trailing slash or not, the scheme's default port or none, and `localhost`, `127.0.0.1`
  /// and `[::1]` as one loopback host).
  static func sameServer(_ a: String, _ b: String) -> Bool {
    func normal(_ url: String) -> String {
      var text = url
      while text.hasSuffix("/") { text.removeLast() }
      guard let split = text.range(of: "://") else { return text }
      let scheme = text[..<split.lowerBound].lowercased()
      let rest = text[split.upperBound...]
      let authority = rest.prefix { $0 != "/" }
      var host = authority.lowercased()
      var port = ""
      // The port follows the last ':' after an IPv6 literal's ']', if any.
      let portStart = host.hasPrefix("[") ? host.range(of: "]:")?.upperBound : nil
      if let portStart {
        port = String(host[portStart...])
        host = String(host[..<host.index(before: portStart)])
      } else if !host.hasPrefix("["), let colon = host.lastIndex(of: ":") {
        port = String(host[host.index(after: colon)...])
        host = String(host[..<colon])
      }
      if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") { port = "" }
      if ["localhost", "127.0.0.1", "[::1]"].contains(host) { host = "localhost" }
      return scheme + "://" + host + (port.isEmpty ? "" : ":" + port)
        + rest.dropFirst(authority.count)
    }
    return normal(a) == normal(b)
  }

  func run(_ context: CommandContext) async throws -> Int32 {
    let statusMap = try SyncFiles.statusMap(self.statusMap, context: context)
    let features = try await SyncFiles.roadmap(roadmap, context: context)
    var votes = MigrationPlan.Votes.roadmapJSON
    var missing: [LossReport.Entry] = []
    var warnings: [String] = []
    if let votesFrom, let namespace {
      let source = try VoteSources.source(
        server: votesFrom, namespace: namespace, dialect: dialect, keyTemplate: keyTemplate,
        timeout: serverTimeout.countingReadSeconds)
      let progress = ProgressReporter(
        "reading votes from \(votesFrom)", total: Set(features.map(\.id)).count,
        output: context.stderr)
      let read = await source.read(features, progress: progress.update, notice: progress.note)
      if !read.failures.isEmpty, !allowMissingVotes {
        for failure in read.failures {
          context.stderr.writeLine(
            "cannot read the count of feature \(failure.id): \(failure.error.message)")
        }
        throw CommandError.failure(
          "\(read.failures.count) of \(pluralized(features.count, "count")) could not be read (above); "
            + "nothing was written. Run again, or pass --allow-missing-votes to migrate them "
            + "with the JSON's own votes.")
      }
      // A wrong namespace (or key template) reads every count as 0, and a migration would
      // import those zeros (on a rerun, taking the imported votes off the board): refused
      // unless the flag says no feature has votes there yet.
      if let warning = await source.noneExists(features, read: read) {
        guard allowEmptyNamespace else {
          throw CommandError.failure(
            "\(warning); nothing was written. If no feature has votes there yet, pass "
              + "--allow-empty-namespace.")
        }
        context.stderr.writeLine("warning: \(warning) (--allow-empty-namespace: migrating 0s)")
        warnings.append(warning)
      }
      // Allowed: each is a loss of the migration, in its report (and in --format json's).
      let own = Dictionary(features.map { ($0.id, $0.votes) }, uniquingKeysWith: { a, _ in a })
      missing = read.failures.map { failure in
        let kept = (own[failure.id] ?? nil).map { "its \($0) votes" } ?? "no votes (it has none)"
        return LossReport.Entry(
          feature: failure.id, field: "votes", kind: .altered,
          reason: "its count could not be read from \(votesFrom) (\(failure.error.message)); "
            + "the JSON's own were migrated: \(kept)")
      }
      votes = .counted(read.counts)
    }
    let migration = Migration(
      server: server, project: project, key: key, dryRun: dryRun, format: format,
      timeout: serverTimeout.seconds)
    return try await migration.run(
      features: features, mapping: RoadmapMapping(statusMap: statusMap), votes: votes,
      losses: missing, warnings: warnings, context: context)
  }
}
