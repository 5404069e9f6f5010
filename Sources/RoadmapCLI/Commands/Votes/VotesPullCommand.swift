import FeatureVoting
import Foundation
import RoadmapFormat
import RoadmapSync
import VoteFirstAPI

/// `roadmapctl votes pull`: copies a roadmap's counts out of a counting API that is going away
/// into the counters of our own service.
struct VotesPullCommand: Command {
  static let configuration = CommandConfiguration(
    name: "pull",
    abstract: "Copy the counts of a roadmap's features from a counting API into roadmapctl serve.",
    discussion: """
      Reads every feature's count from --from (feature by feature, finished features too), \
      then raises each counter of --server that holds fewer through its admin /set route. A \
      feature already migrated onto the project's board takes the count as an import instead: \
      its anonymous part is raised to it (identified votes stay), and the count is recorded, so \
      a later 'migrate --votes-from' moves only by what the source gains after the pull. A \
      counter that holds more (votes cast on the server since an earlier pull) is never \
      lowered: it is kept and named. A count that cannot be read is named with its reason and \
      stops the pull before anything is written, unless --allow-missing-votes. Running it \
      again sets nothing that is already equal.
      """)

  /// How to print the outcome.
  enum OutputFormat: String, CaseIterable, ExpressibleByArgument { case human, json }

  @Argument(help: "The roadmap: a file, an http(s) URL, or - for standard input.")
  var roadmap: String

  @Option(
    valueName: "url", help: "The counting API to read from.",
    validate: { ServerURL.problem($0, option: "--from") })
  var from: String

  @Option(help: "Its protocol.")
  var dialect: SyncDialect

  @Option(
    valueName: "ns", help: "Its namespace (the Roadmap package uses the app's bundle identifier).",
    validate: { $0.isEmpty ? "--namespace needs a namespace." : nil })
  var namespace: String

  @Option(
    valueName: "template", help: "How a feature id becomes its key there; {id} is the id.",
    validate: { (try? KeyTemplate($0)) == nil ? "--key-template must contain {id} once." : nil })
  var keyTemplate: String = "feature{id}"

  @Option(
    valueName: "url", help: "The roadmapctl serve to copy into.",
    validate: { ServerURL.problem($0, option: "--server") })
  var server: String

  @Option(
    valueName: "ns", help: "The namespace there; default: --namespace.",
    validate: { NameCheck.namespaceProblem($0) })
  var project: String?

  @Option(
    valueName: "token", environment: "ROADMAPCTL_ADMIN_TOKEN",
    help: "The server's admin token.")
  var key: String

  @Flag(help: "Go on when some counts cannot be read (those features are left as they are).")
  var allowMissingVotes: Bool

  @Flag(help: "Print what would be set, set nothing.")
  var dryRun: Bool

  @Option(help: "How to print the outcome.")
  var format: OutputFormat = .human

  @OptionGroup var serverTimeout: ServerTimeoutOptions

  func run(_ context: CommandContext) async throws -> Int32 {
    let features = try await SyncFiles.roadmap(roadmap, context: context)
    let target = project ?? namespace
    if let problem = NameCheck.namespaceProblem(target) {
      throw CommandError.validation("--project: \(problem)")
    }
    let counting = try VoteSources.source(
      server: from, namespace: namespace, dialect: dialect, keyTemplate: keyTemplate,
      timeout: serverTimeout.countingReadSeconds)
    let progress = ProgressReporter(
      "reading votes from \(from)", total: features.count, output: context.stderr)
    let read = await counting.read(features, progress: progress.update, notice: progress.note)
    if !read.failures.isEmpty {
      for failure in read.failures {
        context.stderr.writeLine(
          "cannot read the count of feature \(failure.id): \(failure.error.message)")
      }
      if !allowMissingVotes {
        throw CommandError.failure(
          "\(read.failures.count) of \(pluralized(features.count, "count")) could not be read (above); "
            + "nothing was written. Run again, or pass --allow-missing-votes to leave them.")
      }
    }
    // Zeros raise nothing, but a wrong namespace should not pass for "already equal".
    let warning = await counting.noneExists(features, read: read)
    if let warning { context.stderr.writeLine("warning: \(warning)") }
    // Features a migration put on a VoteFirst board of the project: their counters take the
    // source's count as a raise-only import, which records it as imported (a `/set` left the
    // migration's record behind, and the next `migrate --votes-from` counted the gain again).
    let board = BoardClient(
      server: server, project: target, key: key, timeout: serverTimeout.seconds)
    let export = try await board.exportWithoutCreating()
    // The project's counters are named by its `voteKeyTemplate` (`feature{id}` unless its
    // settings say otherwise): read and set with `feature{id}` always, a project counting in
    // `feature-{id}` took the pulled counts into counters none of its features counts in.
    let template = export.settings.voteKeyTemplate
    let destination = try VoteSources.reader(
      server: server, namespace: target, dialect: .ours, keyTemplate: template,
      timeout: serverTimeout.countingReadSeconds)
    let current = await destination.read(features)
    if let failure = current.failures.first {
      throw CommandError.failure(
        "cannot read the counts of \(server) (feature \(failure.id)): \(failure.error.message)")
    }
    // By the Roadmap id `publish` writes for each: a feature without a ref (or with one that
    // cannot be a Roadmap id) under its stand-in, `vf-ID`, whose count is the feature's own.
    // Looked up by ref alone, a publication's `vf-2` was `/set` into the counter `featurevf-2`,
    // which no board feature counts in: the board, `publish` and `reconcile --counts` went on
    // without the votes, and a rerun called them already equal.
    var onBoard: [String: (id: Int, imported: Int, votes: Int?)] = [:]
    let state = BoardState(export: export)
    for (id, feature) in state.featuresByRefOrStandIn {
      onBoard[id] = (
        feature.id, feature.importedVotes ?? 0, feature.content.ref == id ? nil : feature.votes
      )
    }
    var changes: [(id: String, from: Int, to: Int, source: Int)] = []
    // Counters the server counts more on than the source: the votes cast there since an
    // earlier pull (old app versions pointed at it). Setting them to the source's count would
    // delete those votes, so they stay.
    var kept: [(id: String, server: Int, source: Int)] = []
    var seen = Set<String>()
    for feature in features where seen.insert(feature.id).inserted {
      guard let count = read.counts[feature.id] else { continue }
      let now = onBoard[feature.id]?.votes ?? current.counts[feature.id] ?? 0
      if let taken = onBoard[feature.id]?.imported {
        // At or below what was taken in: nothing the source gained (what it lost, the next
        // `migrate --votes-from` moves). Above: the server raises the anonymous part to it
        // where that holds less, so its identified votes stay.
        if count > taken {
          changes.append((feature.id, now, max(now, count), count))
        } else if now > count {
          kept.append((feature.id, now, count))
        }
      } else if now < count {
        changes.append((feature.id, now, count, count))
      } else if now > count {
        kept.append((feature.id, now, count))
      }
    }
    let human = format == .human
    if !dryRun {
      let setting = ProgressReporter(
        "setting counts on \(server)", total: changes.count, output: context.stderr)
      var done: [(id: String, from: Int, to: Int, source: Int)] = []
      for change in changes {
        do throws(CommandError) {
          if let id = onBoard[change.id]?.id {
            var change = change
            change.to = try await board.raiseImportedVotes(featureID: id, to: change.source)
            if change.to > change.from {
              done.append(change)
            } else {
              kept.append((change.id, change.to, change.source))
            }
          } else {
            let final = try await raise(
              change.id, to: change.to, project: target, template: template)
            if final > change.to {
              kept.append((change.id, final, change.source))
            } else {
              done.append(change)
            }
          }
        } catch {
          // What was set stays set; say so, since the summary below is never reached.
          if human {
            for change in done { context.stdout.writeLine(Self.setLine(change, verb: "set")) }
          } else {
            // Standard output stays the one JSON document: it was empty.
            context.stdout.writeLine(
              Self.json(
                dryRun: false, set: done, unchanged: nil, kept: kept, missing: read.failures,
                error: error.message, warning: warning))
          }
          context.stderr.writeLine(
            "\(pluralized(done.count, "count")) of \(changes.count) set before this failure; "
              + "running the pull again sets only what is still lower.")
          throw error
        }
        setting.update(done.count + kept.count)
      }
      changes = done
    }
    let unchanged = read.counts.count - changes.count - kept.count
    if format == .json {
      context.stdout.writeLine(
        Self.json(
          dryRun: dryRun, set: changes, unchanged: unchanged, kept: kept, missing: read.failures,
          warning: warning))
    } else {
      let verb = dryRun ? "would set" : "set"
      for change in changes { context.stdout.writeLine(Self.setLine(change, verb: verb)) }
      for counter in kept {
        context.stdout.writeLine(
          "kept feature \(counter.id): \(counter.server) on the server, \(counter.source) at the "
            + "source (votes cast on the server since; a pull never lowers a count)")
      }
      context.stdout.writeLine(
        "\(dryRun ? "Dry run: " : "")\(pluralized(changes.count, "count")) \(verb), "
          + "\(unchanged) already equal"
          + (kept.isEmpty ? "" : ", \(kept.count) kept higher")
          + (read.failures.isEmpty ? "" : ", \(read.failures.count) not read") + ".")
    }
    return 0
  }

  /// The outcome as one JSON object: `{"dryRun","set":[{"id","from","to"}],"unchanged",
  /// "kept":[{"id","server","source"}],"missing":[{"id","error"}]}`, `"error"` (the
  /// message) when setting failed part way (`"unchanged"` is then null), and `"warnings"`
  /// when there is one (none of the counters of `--from` exists in its namespace).
  static func json(
    dryRun: Bool, set: [(id: String, from: Int, to: Int, source: Int)], unchanged: Int?,
    kept: [(id: String, server: Int, source: Int)], missing: [(id: String, error: VotingError)],
    error: String? = nil, warning: String? = nil
  ) -> String {
    let set = set.map {
      "{\"id\":\(JSONText.quote($0.id)),\"from\":\($0.from),\"to\":\($0.to)}"
    }
    let higher = kept.map {
      "{\"id\":\(JSONText.quote($0.id)),\"server\":\($0.server),\"source\":\($0.source)}"
    }
    let missing = missing.map {
      "{\"id\":\(JSONText.quote($0.id)),\"error\":\(JSONText.quote($0.error.message))}"
    }
    return "{\"dryRun\":\(dryRun),\"set\":[\(set.joined(separator: ","))],"
      + "\"unchanged\":\(unchanged.map(String.init) ?? "null"),"
      + "\"kept\":[\(higher.joined(separator: ","))],"
      + "\"missing\":[\(missing.joined(separator: ","))]"
      + (error.map { ",\"error\":\(JSONText.quote($0))" } ?? "")
      + (warning.map { ",\"warnings\":[\(JSONText.quote($0))]" } ?? "") + "}"
  }

  /// The line that says a count was (or would be) set.
  static func setLine(_ change: (id: String, from: Int, to: Int, source: Int), verb: String)
    -> String
  {
    "\(verb) feature \(change.id): \(change.from) → \(change.to)"
  }

  /// Raises the counter of feature `id` to `count` and returns what it holds after: `count`,
  /// or more when votes were cast on the server after its count was read. `/set` answers the
  /// value it replaced; where that was more than `count`, the set took those votes away, and
  /// they are put back (with any cast between the two sets) until a set replaces exactly what
  /// the one before it wrote.
  private func raise(
    _ id: String, to count: Int, project: String, template: String
  ) async throws(CommandError)
    -> Int
  {
    var written = count
    let replaced = try await set(count, of: id, project: project, template: template)
    guard replaced > count else { return count }
    var target = replaced
    for _ in 0..<20 {
      let overwritten = try await set(target, of: id, project: project, template: template)
      if overwritten == written { return target }
      // Votes cast between the two sets: the last set took them away too.
      let cast = overwritten - written
      written = target
      target += cast
    }
    return target
  }

  /// Sets the counter of feature `id` in `project` (`template` with `{id}` → `id`, as the
  /// project names it) to `count` through `/set`; returns the value the set replaced.
  private func set(
    _ count: Int, of id: String, project: String, template: String
  ) async throws(CommandError) -> Int {
    let key = (try? KeyTemplate(template))?.key(for: id) ?? "feature" + id
    let path =
      "/set/\(VoteFirstContract.encodeSegment(project))/\(VoteFirstContract.encodeSegment(key))"
      + "?value=\(count)"
    guard let url = ServerURL.join(server, path) else {
      throw .failure("cannot build the URL of \(path) on \(server)")
    }
    let answer = try await SyncHTTP.send(
      "GET", url, token: self.key, timeout: serverTimeout.seconds)
    guard answer.status == 200 else {
      let body = String(decoding: answer.body.prefix(300), as: UTF8.self)
      let hint = [401, 403, 404].contains(answer.status) ? " (is --key its admin token?)" : ""
      throw .failure(
        "\(server) refused to set feature \(id) to \(count): HTTP \(answer.status) \(body)\(hint)")
    }
    guard
      let object = try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any],
      let old = (object["old_value"] as? NSNumber)?.intValue
    else {
      let body = String(decoding: answer.body.prefix(300), as: UTF8.self)
      throw .failure("\(server) answered setting feature \(id) with no old_value: \(body)")
    }
    return old
  }
}
