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
/// returns (``BoardStore/addWriteObserver(_:)``). The view then forgets the project's model, so
/// a read after an acknowledged write never sees the state before it: the next read loads
/// the committed state again. The write does not wait for that load: a run of writes with no
/// read between them (a migration creating its stages, a script editing features one by
/// one) costs no load at all, where loading after every write made each write cost the
/// whole project (2,000 stages created one by one: 28 s in a release build). Every write
/// bumps an epoch; a load installs its model only when no write to the project was
/// published since it began (the snapshot race: a reader that loaded before a write
/// committed must not put the older state back over it). Concurrent misses of one project
/// share one load, and a load reuses the decoded features of the model it replaces. A
/// project that does not exist is never remembered.
///
/// Memory: the models hold at most ``featureBudget`` features together, counting the model a
/// written project keeps until its next load. Installing a model past it drops the models of
/// the projects read least recently (never the one installed), which load again at their
/// next read; only their few bookkeeping words stay.
final class BoardView: Sendable {
  /// The default ``featureBudget``: 50,000 features (a few tens of MB of models).
  static let defaultFeatureBudget = 50_000

  private struct Slot {
    /// The model to answer from; nil until loaded, and again after each write.
    var model: BoardModel?
    /// The last model, kept after a write only so its decoded features can be reused.
    var previous: BoardModel?
    /// The epoch of the last write published for the project; 0 for none.
    var lastWrite: UInt64 = 0
    /// The load under way: the epoch it began at, and its task.
    var loading: (epoch: UInt64, task: Task<BoardModel?, any Error>)?
    /// When the model was last read or installed (``State/clock``), for the budget.
    var used: UInt64 = 0

    /// The features this slot's models hold (the budget counts the kept one too).
    var held: Int { (model?.facts.count ?? 0) + (previous?.facts.count ?? 0) }
  }

  private struct State {
    var epoch: UInt64 = 0
    var slots: [String: Slot] = [:]
    /// Counts reads and installs; orders the slots by last use.
    var clock: UInt64 = 0
    /// The features of every model held now.
    var resident = 0
  }

  private let state = Locked(State())
  private let boards: any BoardStore
  /// The most features the models hold together before the least recently read are dropped.
  let featureBudget: Int

  /// A view over `boards`; it observes the store's writes from now on.
  init(boards: any BoardStore, featureBudget: Int = BoardView.defaultFeatureBudget) {
    self.boards = boards
    self.featureBudget = max(1, featureBudget)
    boards.addWriteObserver { [weak self] notice in await self?.published(notice) }
  }

  /// The project's committed board, or nil when the project does not exist.
  func model(_ project: String) async throws -> BoardModel? {
    let (model, task) = state.withLock { state -> (BoardModel?, Task<BoardModel?, any Error>?) in
      if let model = state.slots[project]?.model {
        state.clock += 1
        state.slots[project]?.used = state.clock
        return (model, nil)
      }
      return (nil, loadTask(project, &state))
    }
    if let model { return model }
    return try await task?.value ?? nil
  }

  /// The model if it is in memory now (for tests: nothing is loaded).
  func cached(_ project: String) -> BoardModel? {
    state.withLock { $0.slots[project]?.model }
  }

  /// The features the models hold now (for tests).
  var residentFeatures: Int { state.withLock { $0.resident } }

  /// A write's notice: forgets the model of each project it touched (committed or not: an
  /// outcome the store could not confirm is read again too). The next read loads it.
  func published(_ notice: BoardWriteNotice) async {
    state.withLock { state in
      state.epoch += 1
      for project in notice.projects {
        var slot = state.slots[project] ?? Slot()
        let held = slot.held
        slot.previous = slot.model ?? slot.previous
        slot.model = nil
        state.resident += slot.held - held
        slot.lastWrite = state.epoch
        slot.loading = nil
        state.slots[project] = slot
      }
    }
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
      var installed = false
      if slot.lastWrite <= epoch, let model {
        let held = slot.held
        slot.model = model
        slot.previous = nil
        state.resident += slot.held - held
        state.clock += 1
        slot.used = state.clock
        installed = true
      }
      if slot.model == nil, slot.previous == nil, slot.loading == nil, slot.lastWrite == 0 {
        state.slots[project] = nil  // a project that does not exist is not remembered
      } else {
        state.slots[project] = slot
      }
      if installed { Self.keepWithinBudget(&state, budget: featureBudget, sparing: project) }
    }
  }

  /// Drops the models (and the models kept for reuse) of the least recently used projects
  /// until the features held fit `budget`, sparing `project` (just installed). A dropped
  /// slot keeps its write epoch, so a load that began before a later write still cannot
  /// install an older state.
  private static func keepWithinBudget(_ state: inout State, budget: Int, sparing project: String) {
    while state.resident > budget {
      var oldest: (name: String, used: UInt64)?
      for (name, slot) in state.slots where name != project && slot.held > 0 {
        if oldest == nil || slot.used < oldest!.used { oldest = (name, slot.used) }
      }
      guard let oldest, var slot = state.slots[oldest.name] else { return }
      state.resident -= slot.held
      slot.model = nil
      slot.previous = nil
      state.slots[oldest.name] = slot
    }
  }
}
