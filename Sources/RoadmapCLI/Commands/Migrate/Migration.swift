import Foundation
import RoadmapFormat
import RoadmapSync
import VoteFirstAPI

/// Carries a migration out against a server: reads the project, plans, reports the plan, then
/// (unless a dry run) creates the missing stages and upserts every feature to create or change
/// in one batch call (of at most ``batchSize`` features and ``batchBytes`` bytes: several for a
/// larger roadmap). Shared by `migrate` and `reconcile --apply to-votefirst`.
struct Migration {
  /// How to print the plan and the outcome.
  enum OutputFormat: String, CaseIterable, ExpressibleByArgument { case human, json }

  var server: String
  var project: String
  var key: String?
  var dryRun: Bool
  var format: OutputFormat
  /// The most one call to the server may take, in seconds (``ServerTimeoutOptions``).
  var timeout: TimeInterval

  /// Runs it; exit status 0 when the plan was carried out (or only shown). `losses` are
  /// reported with the plan's own (counts that could not be read); `warnings` (already on
  /// standard error) go into the JSON document as `"warnings"`.
  func run(
    features: [RoadmapFeature], mapping: RoadmapMapping, votes: MigrationPlan.Votes,
    losses: [LossReport.Entry] = [], warnings: [String] = [], context: CommandContext
  ) async throws(CommandError) -> Int32 {
    guard let key, !key.isEmpty else {
      throw .validation(
        "Writing to \(server) needs its admin token: --key or ROADMAPCTL_ADMIN_TOKEN.")
    }
    let client = BoardClient(server: server, project: project, key: key, timeout: timeout)
    let board = BoardState(
      export: dryRun ? try await client.exportWithoutCreating() : try await client.export())
    var plan = MigrationPlan.make(features: features, mapping: mapping, board: board, votes: votes)
    plan.losses.entries.append(contentsOf: losses)
    if format == .human {
      context.stdout.write(MigrationReport.human(plan, dryRun: dryRun))
    }
    for line in SyncFiles.lossLines(plan.losses) { context.stderr.writeLine(line) }
    guard !dryRun else {
      if format == .json {
        context.stdout.writeLine(
          MigrationReport.json(plan, result: nil, dryRun: true, warnings: warnings))
      }
      return 0
    }
    let made: Int
    let result: BatchResult?
    do {
      (_, made, result) = try await write(plan, board: board, client: client, context: context)
    } catch {
      // Standard output stays the one JSON document scripts read, with the failure in it: it
      // was empty, though stages may have been created before the call that failed.
      if format == .json {
        context.stdout.writeLine(
          MigrationReport.json(
            plan, result: nil, dryRun: false, error: error.message, warnings: warnings))
      }
      throw error
    }
    if format == .json {
      context.stdout.writeLine(
        MigrationReport.json(plan, result: result, dryRun: false, warnings: warnings))
    } else {
      let stored =
        result.map {
          "\($0.created) created, \($0.updated) updated, \($0.unchanged) unchanged"
        } ?? "nothing to write"
      context.stdout.writeLine(
        "Migrated \(pluralized(plan.items.count, "feature")) to \(project) on \(server): \(stored); "
          + "\(pluralized(made, "stage")) created.")
    }
    return 0
  }

  /// The most features one batch call sends: the server's limit.
  static let batchSize = VoteFirstLimits.maxBatch

  /// The most bytes of encoded features one batch call sends: half the 32 MiB body a
  /// `roadmapctl serve` takes for a batch, so 20,000 features with long descriptions and
  /// translations (refused whole, `413 too_large`) go in several calls.
  static let batchBytes = 16 << 20

  /// `items` in consecutive parts of at most `size` items and at most `bytes` of `weight`
  /// (an item heavier than that alone in its part; none when `items` is empty).
  static func parts<Item>(
    of items: [Item], size: Int, bytes: Int = .max, weight: (Item) -> Int = { _ in 0 }
  ) -> [[Item]] {
    var parts: [[Item]] = []
    var part: [Item] = []
    var total = 0
    for item in items {
      let heavy = weight(item)
      if !part.isEmpty && (part.count >= max(size, 1) || total > bytes - heavy) {
        parts.append(part)
        part = []
        total = 0
      }
      part.append(item)
      total += heavy
    }
    if !part.isEmpty { parts.append(part) }
    return parts
  }

  /// Creates the plan's stages, gives ref-less features their refs and upserts the batch;
  /// returns the ids of the plan's stages, by name, how many of them this run created (the
  /// others another run made meanwhile), and the batch's outcome (nil: no batch).
  private func write(
    _ plan: MigrationPlan, board: BoardState, client: BoardClient, context: CommandContext
  ) async throws(CommandError) -> (created: [String: Int], made: Int, result: BatchResult?) {
    var created: [String: Int] = [:]
    var made = 0
    if !plan.stagesToCreate.isEmpty {
      let progress = ProgressReporter(
        "creating stages", total: plan.stagesToCreate.count, output: context.stderr)
      for (index, stage) in plan.stagesToCreate.enumerated() {
        // Another migration at the same time may have made it since the plan: reused then,
        // and not counted as created by this one.
        let answer = try await client.createOrReuse(stage)
        created[stage.name] = answer.stage.id
        if answer.created { made += 1 }
        progress.update(index + 1)
      }
    }
    // Features without a ref that the roadmap names by their stand-in id (`vf-ID`, as
    // `publish` wrote them) get that ref first, so the batch changes them instead of creating
    // a second feature with it (their votes move into the ref's counter with them).
    for item in plan.items where item.action != .unchanged {
      guard let id = item.adopting,
        let current = board.features.first(where: { $0.id == id })
      else { continue }
      var content = current.content
      content.ref = item.ref
      context.stderr.writeLine("giving feature \(id) the ref \(JSONText.quote(item.ref))")
      try await client.giveRef(featureID: id, content)
    }
    let batch = plan.batch(createdStages: created)
    var result: BatchResult?
    if !batch.features.isEmpty {
      // The server takes at most `maxBatch` features a call (a larger one was refused whole,
      // 413, and a roadmap that large could not be migrated): one call, one transaction, per
      // part; a run cut off between parts is finished by a rerun, which plans what is left.
      // And at most `batchBytes` a call: a part of 20,000 long features was larger than the
      // body the server takes (`413 too_large`, nothing stored).
      let parts = Self.parts(of: batch.features, size: Self.batchSize, bytes: Self.batchBytes) {
        (try? VoteFirstCoding.encode($0).count) ?? 0
      }
      context.stderr.writeLine(
        "upserting \(pluralized(batch.features.count, "feature")) in "
          + (parts.count == 1 ? "one batch" : "\(parts.count) batches"))
      for part in parts {
        let answer: BatchResult
        do {
          answer = try await client.upsert(FeatureBatch(features: part))
        } catch {
          // The parts before are stored (each is its own transaction): say so, and that a
          // rerun plans only what is left, in the error itself, so that `--format json`'s
          // `"error"` says it too (its `"result"` is null).
          guard let stored = result?.features.count else { throw error }
          var error = error
          error.message +=
            (error.message.hasSuffix(".") ? " " : ". ")
            + "\(stored) of \(batch.features.count) features stored before this failure; "
            + "running the migration again writes only the rest."
          throw error
        }
        result = BatchResult(
          created: (result?.created ?? 0) + answer.created,
          updated: (result?.updated ?? 0) + answer.updated,
          unchanged: (result?.unchanged ?? 0) + answer.unchanged,
          features: (result?.features ?? []) + answer.features)
      }
    }
    // The batch holds only the features to create or change, and the unchanged ones that get
    // the record of their stage (which the server counts as updated, but whose record is
    // bookkeeping): the others the plan left unchanged were not sent, and are unchanged all
    // the same.
    if var counted = result {
      // A feature whose only change is the ref it was given before the batch (`PUT
      // /features/{id}`) is unchanged by the batch, which said so: it was counted unchanged
      // while the plan said `update feature vf-2: ref` (`0 updated` after `1 to change`).
      let refOnly = plan.items.count {
        if case .update(let fields) = $0.action {
          $0.adopting != nil && fields == ["ref"]
        } else {
          false
        }
      }
      let given = min(refOnly, counted.unchanged)
      counted.unchanged -= given
      counted.updated += given
      let records = min(plan.stageRecords, counted.updated - given)
      counted.updated -= records
      counted.unchanged += plan.unchanged - plan.stageRecords + records
      result = counted
    }
    return (created, made, result)
  }
}
