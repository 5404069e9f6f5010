import Foundation

/// What the writes of one ``BoardTables`` touched: filled on the database thread while the
/// body runs, read by the store after the write finished (never both at once; the lock
/// only keeps that honest for a body run again after a rolled-back group).
final class BoardWriteLog: @unchecked Sendable {
  private let lock = NSLock()
  private var projects: Set<String> = []
  private var counters: [BoardWriteNotice.CounterKey] = []
  private var seen: Set<BoardWriteNotice.CounterKey> = []

  /// Notes a change to the project's board tables.
  func touched(_ project: String) {
    lock.withLock { _ = projects.insert(project) }
  }

  /// Notes a change to a counter, made in the counters' own tables.
  func touched(namespace: String, key: String) {
    let name = BoardWriteNotice.CounterKey(namespace: namespace, key: key)
    lock.withLock {
      if seen.insert(name).inserted { counters.append(name) }
    }
  }

  /// The notice for observers, or nil when nothing was touched.
  func notice(committed: Bool) -> BoardWriteNotice? {
    lock.withLock {
      projects.isEmpty && counters.isEmpty
        ? nil : BoardWriteNotice(projects: projects, counters: counters, committed: committed)
    }
  }
}
