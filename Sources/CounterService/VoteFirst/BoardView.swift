import Foundation
import VoteStore

/// The committed board of every project read so far, in memory, kept current by the store's
/// writes: the board readers' calls are answered from it without a database read.
///
/// Only over a store that sees every write to its boards (``BoardStore/seesEveryWrite``:
/// SQLite beside a vote store with its memory cache, which holds the file exclusively, as
/// `serve` opens it); over PostgreSQL, where other instances write too, the service keeps no
/// view and reads the database every time.
///
/// Freshness: the store tells the view of each write after its commit and before the write
/// returns (``BoardStore/addWriteObserver(_:)``). The view then forgets the project's model
/// and loads the committed state again before the write's caller goes on, so a read after
/// an acknowledged write never sees the state before it. Every write bumps an epoch; a load
/// installs its model only when no write to the project was published since it began (the
/// snapshot race: a reader that loaded before a write committed must not put the older state
/// back over it). Concurrent misses of one project share one load. A project that does not
/// exist is never remembered.
final class BoardView: Sendable {
  private struct Slot {
    /// The model to answer from; nil until loaded, and again after each write.
    var model: BoardModel?
    /// The last model, kept after a write only so its decoded features can be reused.
    var previous: BoardModel?
    /// The epoch of the last write published for the project; 0 for none.
    var lastWrite: UInt64 = 0
    /// The load under way: the epoch it began at, and its task.
    var loading: (epoch: UInt64, task: Task<BoardModel?, any Error>)?
  }

  private struct State {
    var epoch: UInt64 = 0
    var slots: [String: Slot] = [:]
  }

  private let state = Locked(State())
  private let boards: any BoardStore

  /// A view over `boards`; it observes the store's writes from now on.
  init(boards: any BoardStore) {
    self.boards = boards
    boards.addWriteObserver { [weak self] notice in await self?.published(notice) }
  }

  /// The project's committed board, or nil when the project does not exist.
  func model(_ project: String) async throws -> BoardModel? {
    let (model, task) = state.withLock { state -> (BoardModel?, Task<BoardModel?, any Error>?) in
      if let model = state.slots[project]?.model { return (model, nil) }
      return (nil, loadTask(project, &state))
    }
    if let model { return model }
    return try await task?.value ?? nil
  }

  /// The model if it is in memory now (for tests: nothing is loaded).
  func cached(_ project: String) -> BoardModel? {
    state.withLock { $0.slots[project]?.model }
  }

  /// A write's notice: forgets the model of each project it touched and, when the write
  /// committed, loads the project again before returning.
  func published(_ notice: BoardWriteNotice) async {
    let tasks = state.withLock { state -> [Task<BoardModel?, any Error>] in
      state.epoch += 1
      var tasks: [Task<BoardModel?, any Error>] = []
      for project in notice.projects {
        var slot = state.slots[project] ?? Slot()
        slot.previous = slot.model ?? slot.previous
        slot.model = nil
        slot.lastWrite = state.epoch
        slot.loading = nil
        state.slots[project] = slot
        if notice.committed { tasks.append(loadTask(project, &state)) }
      }
      return tasks
    }
    // A failed load leaves the model out: the next reader loads it.
    for task in tasks { _ = try? await task.value }
  }

  /// The load of `project` every reader arriving now may share: the one under way when it
  /// began after the last write, else a new one. Called under the lock.
  private func loadTask(_ project: String, _ state: inout State) -> Task<BoardModel?, any Error> {
    var slot = state.slots[project] ?? Slot()
    if let loading = slot.loading, loading.epoch >= slot.lastWrite { return loading.task }
    let epoch = state.epoch
    let previous = slot.previous
    let boards = self.boards
    let task = Task<BoardModel?, any Error> { [weak self] in
      do {
        let rows = try await boards.read { try BoardModel.Rows.read($0, project) }
        let model = try rows.map { try BoardModel($0, previous: previous) }
        self?.finish(project, epoch: epoch, model)
        return model
      } catch {
        self?.finish(project, epoch: epoch, nil)
        throw error
      }
    }
    slot.loading = (epoch, task)
    state.slots[project] = slot
    return task
  }

  /// Installs what a load that began at `epoch` found, unless a write was published since.
  private func finish(_ project: String, epoch: UInt64, _ model: BoardModel?) {
    state.withLock { state in
      guard var slot = state.slots[project] else { return }
      if let loading = slot.loading, loading.epoch == epoch { slot.loading = nil }
      if slot.lastWrite <= epoch, let model {
        slot.model = model
        slot.previous = nil
      }
      if slot.model == nil, slot.previous == nil, slot.loading == nil, slot.lastWrite == 0 {
        state.slots[project] = nil  // a project that does not exist is not remembered
      } else {
        state.slots[project] = slot
      }
    }
  }
}
