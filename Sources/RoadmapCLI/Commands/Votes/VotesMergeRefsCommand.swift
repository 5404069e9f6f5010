import CounterService
import Foundation
import VoteStore

/// `roadmapctl votes merge-refs`: merges the features whose refs are one ref in different
/// Unicode forms, which `serve` warns of at start.
struct VotesMergeRefsCommand: Command {
  static let configuration = CommandConfiguration(
    name: "merge-refs",
    abstract: "Merge board features whose refs are one ref in different Unicode forms.",
    discussion: """
      A store made before such refs were refused may hold two features whose refs are one \
      ref written in two Unicode forms (an accent as one code point or two, K or the Kelvin \
      sign); apps and the board API see one of them and the other's votes are hidden ('serve' \
      names them at start). In each group the feature with the lowest id stays; the others' \
      votes move into its counter (a voter who voted on both counts once) and they are \
      deleted. One transaction. Stop every 'roadmapctl serve' on the store first: a vote a \
      running server took on a feature being merged away could be lost, so the command \
      refuses to run beside one (on SQLite by the store file's lock; on PostgreSQL by the \
      advisory lock every serve instance holds while it runs). Back up the store before.
      """)

  @OptionGroup var store: VotesStoreOptions

  func run(_ context: CommandContext) async throws -> Int32 {
    // Held until the command ends: no serve instance can start meanwhile.
    let exclusion = try self.store.excludeServers(refusing: "merge refs")
    defer { exclusion?.release() }
    let store = try self.store.open(context, mustExist: true)
    let merged: [RefTwinMerge.Merged]
    do {
      let boards = try self.store.openBoards(beside: store)
      do {
        merged = try await RefTwinMerge.mergeAll(
          boards, now: Int64(Date().timeIntervalSince1970 * 1000))
      } catch {
        await boards.close()
        throw error
      }
      await boards.close()
    } catch let error as CommandError {
      await store.close()
      throw error
    } catch {
      await store.close()
      throw CommandError.failure("nothing was merged: \(error)")
    }
    await store.close()
    if merged.isEmpty {
      context.stderr.writeLine("No features have refs in different Unicode forms.")
    }
    for group in merged {
      let removed = group.removed.map {
        "feature \($0.id) (ref \"\(RefTwins.spelled($0.ref ?? ""))\")"
      }
      context.stderr.writeLine(
        "Merged " + removed.joined(separator: ", ") + " into feature \(group.kept.id) (ref \""
          + RefTwins.spelled(group.kept.ref ?? "") + "\") of project \(group.project): "
          + pluralized(Int(group.votes), "vote") + ".")
    }
    return 0
  }
}
