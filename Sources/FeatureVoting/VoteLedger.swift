import Foundation

/// One namespace's voting state on this device, in one JSON file written atomically: the
/// features the server accepted this voter's vote for, the offline queue, and refusals not yet
/// reported.
///
///     {"version":1,"namespace":"com.example.app","voted":["1","4"],
///      "queue":[{"featureID":"7","action":"vote","castAt":1764570000}],"refusals":[]}
///
/// One ledger per file in a process: ``shared(file:namespace:)`` hands every ``DurableVoter`` of
/// one state file the same ledger, with the same ``gate`` and ``lastKnown`` counts, so two
/// voters over one file (two views, a voter made in a SwiftUI `body`) never overwrite each
/// other's changes with a stale copy.
final class VoteLedger: @unchecked Sendable {
  /// The file's content.
  struct State: Codable, Equatable {
    var version = 1
    var namespace: String
    var voted: [String] = []
    var queue: [PendingVote] = []
    var refusals: [StoredRefusal] = []
  }

  /// A refusal as kept on disk until the app asks for it.
  struct StoredRefusal: Codable, Equatable {
    var vote: PendingVote
    var message: String
    var reason: String?
    var status: Int?
    /// The error's kind (``VotingError/Kind/description``); absent in files written before it
    /// was kept, which still load.
    var kind: String?
  }

  let file: URL
  let namespace: String
  /// Lets one write or queue send through at a time, for every voter of this file.
  let gate = SerialGate()
  /// The last count the server answered per feature, for every voter of this file.
  let lastKnown = CountCache()
  private let lock = NSLock()
  /// The state as this process knows it.
  private var loaded: State?
  /// The state as last read from or written to the file (a missing file is a fresh state);
  /// differs from `loaded` only after ``record(_:)`` could not write a change.
  private var saved: State?

  init(file: URL, namespace: String) {
    self.file = file
    self.namespace = namespace
  }

  private static let registryLock = NSLock()
  nonisolated(unsafe) private static var registry: [String: WeakLedger] = [:]

  /// The ledger of `file` in this process: the one already in use for the same standardized
  /// path, or a new one. Ledgers no voter holds any more are dropped (a later voter reads the
  /// file again).
  static func shared(file: URL, namespace: String) -> VoteLedger {
    let key = file.standardizedFileURL.path
    registryLock.lock()
    defer { registryLock.unlock() }
    if let ledger = registry[key]?.ledger { return ledger }
    registry = registry.filter { $0.value.ledger != nil }
    let ledger = VoteLedger(file: file, namespace: namespace)
    registry[key] = WeakLedger(ledger: ledger)
    return ledger
  }

  /// The file for `namespace` in `directory`: `votes-NS.json`, the namespace percent-encoded.
  static func file(for namespace: String, in directory: URL) -> URL {
    directory.appendingPathComponent("votes-\(PercentEncoding.segment(namespace)).json")
  }

  /// The current state (read from the file on first use).
  func state() throws(VotingError) -> State {
    lock.lock()
    defer { lock.unlock() }
    return try current()
  }

  /// Changes the state and writes it to the file before returning; on a write failure the
  /// state stays as it was.
  @discardableResult
  func update<T>(_ change: (inout State) -> T) throws(VotingError) -> T {
    lock.lock()
    defer { lock.unlock() }
    var state = try current()
    let result = change(&state)
    try save(state)
    return result
  }

  /// Changes the state like ``update(_:)``, but when the file cannot be written the change is
  /// kept in this process's state anyway (so this process acts on it, and the next write that
  /// succeeds saves it) and the write's error is returned. For changes that record what the
  /// server already did. Nil when the change was saved, or when the state cannot be read at
  /// all (then nothing changed).
  @discardableResult
  func record(_ change: (inout State) -> Void) -> VotingError? {
    lock.lock()
    defer { lock.unlock() }
    var state: State
    do { state = try current() } catch { return error }
    change(&state)
    do {
      try save(state)
    } catch {
      loaded = state
      return error
    }
    return nil
  }

  /// Removes the file and forgets the state.
  func remove() throws(VotingError) {
    lock.lock()
    defer { lock.unlock() }
    try StateFile.remove(file)
    loaded = State(namespace: namespace)
    saved = loaded
  }

  /// Writes `state` unless the file already holds it; the caller holds the lock.
  private func save(_ state: State) throws(VotingError) {
    if state == saved { return }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data: Data
    do { data = try encoder.encode(state) } catch {
      throw .storage(file: file.path, "cannot be encoded: \(error)")
    }
    try StateFile.write(data, to: file)
    loaded = state
    saved = state
  }

  private func current() throws(VotingError) -> State {
    if let loaded { return loaded }
    guard let data = try StateFile.read(file) else {
      let fresh = State(namespace: namespace)
      loaded = fresh
      saved = fresh
      return fresh
    }
    do {
      let state = try JSONDecoder().decode(State.self, from: data)
      guard state.version == 1 else {
        throw VotingError.storage(
          file: file.path, "has version \(state.version); this library reads version 1")
      }
      loaded = state
      saved = state
      return state
    } catch let error as VotingError {
      throw error
    } catch {
      throw .storage(
        file: file.path,
        "is not a voting state file (\(error)); move it away to start with no votes")
    }
  }
}

extension VoteLedger.State {
  /// Whether this voter's vote for `id` stands, counting queued votes.
  func hasVoted(_ id: String) -> Bool {
    let pending = queue.last { $0.featureID == id }
    if let pending { return pending.action == .vote }
    return voted.contains(id)
  }

  /// What the queue adds to the server's count of `id`: +1, −1 or 0.
  func pendingDelta(_ id: String) -> Int {
    guard let pending = queue.last(where: { $0.featureID == id }) else { return 0 }
    return pending.action == .vote ? 1 : -1
  }

  /// Queues `vote`; a queued opposite of the same feature cancels out with it instead.
  mutating func enqueue(_ vote: PendingVote) {
    if let index = queue.lastIndex(where: { $0.featureID == vote.featureID }),
      queue[index].action != vote.action
    {
      queue.remove(at: index)
    } else {
      queue.append(vote)
    }
  }

  /// Records that the server accepted `vote`.
  mutating func confirm(_ vote: PendingVote.Action, _ id: String) {
    switch vote {
    case .vote: if !voted.contains(id) { voted.append(id) }
    case .unvote: voted.removeAll { $0 == id }
    }
  }
}

extension VoteLedger.StoredRefusal {
  /// The refusal of `vote` as `error` says it.
  init(_ vote: PendingVote, _ error: VotingError) {
    self.init(
      vote: vote, message: error.message, reason: error.reason, status: error.status,
      kind: error.kind.description)
  }

  /// The error as it was met: its kind, status, reason and message. An entry without a kind
  /// (written before kinds were kept) is a refusal when its status is a 4xx, a bad answer when
  /// it is a 2xx, else ``VotingError/Kind/unexplained``; its message is kept.
  var error: VotingError {
    let label = "queued \(vote.action.rawValue) of '\(vote.featureID)'"
    let kind =
      kind
      ?? {
        switch status ?? 0 {
        case 400..<500: return VotingError.Kind.refused.description
        case 200..<300: return VotingError.Kind.badAnswer.description
        default: return nil
        }
      }()
    switch kind {
    case VotingError.Kind.refused.description:
      let status = status ?? 0
      let reason = reason ?? message
      // The message is "URL refused (STATUS): REASON"; keep its URL so the message is the same.
      let tail = " refused (\(status)): \(reason)"
      let url = message.hasSuffix(tail) ? String(message.dropLast(tail.count)) : label
      return .refused(status: status, reason: reason, url: url)
    case VotingError.Kind.badAnswer.description:
      // The message is "unexpected answer from URL: DETAIL".
      let prefix = "unexpected answer from "
      if message.hasPrefix(prefix), let colon = message.range(of: ": ") {
        let url = String(
          message[message.index(message.startIndex, offsetBy: prefix.count)..<colon.lowerBound])
        return .badAnswer(String(message[colon.upperBound...]), status: status, url: url)
      }
      return .badAnswer(message, status: status, url: label)
    case VotingError.Kind.invalidRequest.description:
      return .invalidRequest(message)
    default:
      return .unexplained(message)
    }
  }
}

/// A registry entry that does not keep its ledger alive.
private struct WeakLedger {
  weak var ledger: VoteLedger?
}
