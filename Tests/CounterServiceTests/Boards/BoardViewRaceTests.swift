import Foundation
import HTTPServer
import Testing
import VoteStore

@testable import CounterService

/// The board view under concurrent reads and writes: a load that began before a write never
/// puts the older state back over it, and no read ever goes back behind a write that was
/// acknowledged before the read was sent.
@Suite struct BoardViewRaceTests {
  /// Holds the first read after ``arm()`` once its snapshot was read, until ``open()``.
  actor Gate {
    private var armed = false
    private var held: CheckedContinuation<Void, Never>?
    private var watcher: CheckedContinuation<Void, Never>?

    func arm() { armed = true }

    /// Called by a read after its snapshot: waits while the gate is armed for it.
    func pass() async {
      guard armed else { return }
      armed = false
      await withCheckedContinuation { continuation in
        held = continuation
        watcher?.resume()
        watcher = nil
      }
    }

    /// Returns once a read waits at the gate.
    func reached() async {
      if held != nil { return }
      await withCheckedContinuation { watcher = $0 }
    }

    func open() {
      held?.resume()
      held = nil
    }
  }

  /// The real SQLite board store, with a gate after the snapshot of a read and a count of
  /// the reads (a test instrument: every call is the real store's).
  final class GatedBoardStore: BoardStore, Sendable {
    let inner: SQLiteBoardStore
    let gate = Gate()
    let reads = Locked(0)

    init(_ inner: SQLiteBoardStore) { self.inner = inner }

    func read<T>(_ body: @escaping (BoardTables) throws -> T) async throws -> T {
      reads.withLock { $0 += 1 }
      let value = try await inner.read(body)
      await gate.pass()
      return value
    }

    func write<T>(_ body: @escaping (BoardTables) throws -> T) async throws -> T {
      try await inner.write(body)
    }

    func close() async { await inner.close() }

    var seesEveryWrite: Bool { inner.seesEveryWrite }

    func addWriteObserver(_ observer: @escaping @Sendable (BoardWriteNotice) async -> Void) {
      inner.addWriteObserver(observer)
    }
  }

  @Test func aLoadThatBeganBeforeAWriteDoesNotReplaceTheNewerState() async throws {
    try await BoardHarness.with { h in
      await h.seed()
      let gated = GatedBoardStore(h.boards)
      let view = BoardView(boards: gated)
      await gated.gate.arm()
      // A reader misses and reads the project's rows before the write…
      let early = Task { try await view.model(BoardHarness.project) }
      await gated.gate.reached()
      // …the write commits and is acknowledged while that reader is still on its way…
      await h.admin(.put, "/settings", #"{"name":"After"}"#)
      #expect(view.cached(BoardHarness.project) == nil, "the write dropped the model")
      // …and the reader's older model, handed to that reader only, is not installed.
      await gated.gate.open()
      let old = try await early.value
      #expect(old?.project.settings.name == "Demo")
      #expect(view.cached(BoardHarness.project) == nil)
      #expect(try await view.model(BoardHarness.project)?.project.settings.name == "After")
      #expect(view.cached(BoardHarness.project)?.project.settings.name == "After")
    }
  }

  @Test func readsNeverGoBehindAcknowledgedWrites() async throws {
    try await BoardHarness.with { h in
      await h.seed()
      await h.admin(.put, "/settings", #"{"name":"v0"}"#)
      await h.admin(.put, "/features/ref/one", #"{"title":"t0"}"#)
      let writes = 60
      let settingsAcked = Locked(0)
      let titleAcked = Locked(0)
      let done = Locked(false)
      let problems = Locked<[String]>([])
      func number(_ text: String?, _ prefix: String) -> Int {
        guard let text, text.hasPrefix(prefix) else { return -1 }
        return Int(text.dropFirst(prefix.count)) ?? -1
      }
      await withTaskGroup(of: Void.self) { group in
        group.addTask {
          for i in 1...writes {
            await h.admin(.put, "/settings", "{\"name\":\"v\(i)\"}")
            settingsAcked.withLock { $0 = i }
          }
        }
        group.addTask {
          for i in 1...writes {
            await h.admin(.put, "/features/ref/one", "{\"title\":\"t\(i)\"}")
            titleAcked.withLock { $0 = i }
          }
        }
        for reader in 0..<4 {
          group.addTask {
            var lastName = 0
            var lastTitle = 0
            var rounds = 0
            while !done.withLock({ $0 }) || rounds < 3 {
              rounds += 1
              // Reads from memory may never suspend: let the writers run on the shared pool.
              await Task.yield()
              let nameFloor = settingsAcked.withLock { $0 }
              let board = await h.get("/board")
              let name = number(
                (board.object["settings"] as? [String: Any])?["name"] as? String, "v")
              if name < nameFloor || name < lastName {
                problems.withLock {
                  $0.append("reader \(reader): name v\(name) after v\(nameFloor) was acknowledged")
                }
              }
              lastName = max(lastName, name)
              let titleFloor = titleAcked.withLock { $0 }
              let path = reader % 2 == 0 ? "/features/1" : "/features?order=newest&limit=100"
              let answer = await h.get(path)
              let titles =
                reader % 2 == 0 ? [answer.object["title"] as? String] : answer.titles.map { $0 }
              let title = titles.map { number($0, "t") }.max() ?? -1
              if title < titleFloor || title < lastTitle {
                problems.withLock {
                  $0.append(
                    "reader \(reader): title t\(title) after t\(titleFloor) was acknowledged")
                }
              }
              lastTitle = max(lastTitle, title)
              if settingsAcked.withLock({ $0 }) == writes, titleAcked.withLock({ $0 }) == writes {
                done.withLock { $0 = true }
              }
            }
          }
        }
      }
      #expect(problems.withLock { $0 } == [])
      let board = await h.get("/board")
      #expect((board.object["settings"] as? [String: Any])?["name"] as? String == "v\(writes)")
      #expect((await h.get("/features/1")).object["title"] as? String == "t\(writes)")
    }
  }
}
