import Foundation
import VoteFirstAPI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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
///
/// A ledger of ``DurableVoter``'s default place may carry over (``carryOver``) the state file
/// earlier versions kept in the directory every app shared: copied into ``file`` the first time
/// there is no ``file`` (and no ``forgottenMarker``), never changed or removed.
///
/// Across processes (an app and its extension in one App Group container) every change is made
/// to the file's current content: it takes ``lockFile`` (`flock`, held only while the file is
/// read, changed and replaced, never across a network call), reads the file again, applies the
/// change and writes. Reads look at the file each time and decode it again only when its bytes
/// changed, so each process sees the other's votes and queue.
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
  /// The state file earlier versions kept for this namespace in the directory every app shared,
  /// copied on first use; nil when there is none to copy (a directory the app gave).
  private var carryOver: URL?
  /// The state as this process knows it: the file's, with ``unsaved`` applied.
  private var loaded: State?
  /// The state as last read from or written to the file (a missing file is a fresh state).
  private var saved: State?
  /// The file's bytes when `saved` was read or written (nil: no file), to tell when another
  /// process has changed it.
  private var savedBytes: Data?
  /// Changes ``record(_:)`` could not write, applied again over whatever the file holds until
  /// a write succeeds (what the server already did, which this process must not forget).
  private var unsaved: [(inout State) -> Void] = []
  /// Tests only: called when the shared state is about to be copied, after ``forgottenMarker``
  /// was looked for.
  var beforeCarryOver: (() -> Void)?

  init(file: URL, namespace: String, carryOver: URL? = nil) {
    self.file = file
    self.namespace = namespace
    self.carryOver = carryOver
  }

  /// The lock file every process takes around a change of the state file: `FILE.lock`, next to
  /// it (left in place when the state is removed, so two processes never lock two files).
  var lockFile: URL { FileLock.lockFile(for: file) }

  /// The file whose presence says this state was forgotten, so the shared state of earlier
  /// versions is never copied again: `FILE.forgotten`, next to it, left by ``remove()`` when
  /// the ledger carries over.
  var forgottenMarker: URL {
    file.deletingLastPathComponent().appendingPathComponent(file.lastPathComponent + ".forgotten")
  }

  private static let registryLock = NSLock()
  nonisolated(unsafe) private static var registry: [String: WeakLedger] = [:]

  /// The ledger of `file` in this process: the one already in use for the same standardized
  /// path, or a new one. Ledgers no voter holds any more are dropped (a later voter reads the
  /// file again). A `carryOver` file (see ``carryOver``) is taken by the ledger in use too,
  /// when it has none: the file is the default place's, whichever voter came first.
  static func shared(file: URL, namespace: String, carryOver: URL? = nil) -> VoteLedger {
    let key = file.standardizedFileURL.path
    registryLock.lock()
    defer { registryLock.unlock() }
    if let ledger = registry[key]?.ledger {
      if let carryOver { ledger.adopt(carryOver: carryOver) }
      return ledger
    }
    registry = registry.filter { $0.value.ledger != nil }
    let ledger = VoteLedger(file: file, namespace: namespace, carryOver: carryOver)
    registry[key] = WeakLedger(ledger: ledger)
    return ledger
  }

  /// The file for `namespace` in `directory`: `votes-NS.json`, the namespace percent-encoded.
  static func file(for namespace: String, in directory: URL) -> URL {
    directory.appendingPathComponent("votes-\(PercentEncoding.segment(namespace)).json")
  }

  /// The current state: the file's as it is now (read again when another process changed it),
  /// with this process's changes the file could not take.
  func state() throws(VotingError) -> State {
    lock.lock()
    defer { lock.unlock() }
    return try current(holdingFileLock: false)
  }

  /// Changes the file's current state and writes it before returning, holding ``lockFile`` so
  /// no other process writes in between; on a failure the state stays as it was.
  @discardableResult
  func update<T>(_ change: (inout State) -> T) throws(VotingError) -> T {
    lock.lock()
    defer { lock.unlock() }
    return try FileLock.holding(lockFile) { () throws(VotingError) in
      var state = try current(holdingFileLock: true)
      let result = change(&state)
      try save(state)
      return result
    }
  }

  /// Changes the state like ``update(_:)``, but when the file cannot be written (or locked) the
  /// change is kept in this process's state anyway (so this process acts on it, and the next
  /// write that succeeds saves it) and the write's error is returned. For changes that record
  /// what the server already did. Nil when the change was saved, or when the state cannot be
  /// read at all (then nothing changed).
  @discardableResult
  func record(_ change: @escaping (inout State) -> Void) -> VotingError? {
    lock.lock()
    defer { lock.unlock() }
    do {
      try FileLock.holding(lockFile) { () throws(VotingError) in
        var state = try current(holdingFileLock: true)
        change(&state)
        try save(state)
      }
      return nil
    } catch {
      // Not kept when the state cannot even be read: nothing changed then.
      guard var state = loaded ?? (try? current(holdingFileLock: false)) else { return error }
      change(&state)
      unsaved.append(change)
      loaded = state
      return error
    }
  }

  /// Takes `carryOver` as the shared file to copy, unless the ledger has one.
  private func adopt(carryOver: URL) {
    lock.lock()
    defer { lock.unlock() }
    if self.carryOver == nil { self.carryOver = carryOver }
  }

  /// Removes the file and forgets the state. A ledger that carries over leaves
  /// ``forgottenMarker`` first, so the shared state is not copied back.
  func remove() throws(VotingError) {
    lock.lock()
    defer { lock.unlock() }
    try FileLock.holding(lockFile) { () throws(VotingError) in
      if carryOver != nil { _ = try StateFile.create(Data(), at: forgottenMarker) }
      try StateFile.remove(file)
    }
    loaded = State(namespace: namespace)
    saved = loaded
    savedBytes = nil
    unsaved = []
  }

  /// Writes `state` unless the file already holds it; the caller holds both locks and has just
  /// read the file (``current()``).
  private func save(_ state: State) throws(VotingError) {
    if state == saved {
      unsaved = []
      loaded = state
      return
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data: Data
    do { data = try encoder.encode(state) } catch {
      throw .storage(file: file.path, "cannot be encoded: \(error)")
    }
    try StateFile.write(data, to: file)
    loaded = state
    saved = state
    savedBytes = data
    unsaved = []
  }

  /// The state, from the file's bytes as they are now; the caller holds `lock`, and says
  /// whether it holds ``lockFile`` too. A file that cannot be read after this process has read
  /// it once is taken as unchanged (this process goes on with what it knows); one that is no
  /// state file is an error, and never overwritten.
  private func current(holdingFileLock: Bool) throws(VotingError) -> State {
    var data: Data?
    do throws(VotingError) {
      data = try StateFile.read(file)
    } catch {
      if let loaded { return loaded }
      throw error
    }
    if let loaded, saved != nil, data == savedBytes { return loaded }
    // No file where this process had one: removed (another process's forget()), or out of
    // reach (its directory moved or replaced); only the first is a fresh state, and not while
    // this process holds changes its writes could not save (it knows more than the disk).
    if data == nil, let loaded, !unsaved.isEmpty || !Self.isAbsent(file) { return loaded }
    if data == nil { data = try carriedOver(holdingFileLock: holdingFileLock) }
    var state = try decode(data)
    saved = state
    savedBytes = data
    for change in unsaved { change(&state) }
    loaded = state
    return state
  }

  /// The content of ``file`` after copying ``carryOver`` into it, when there is no ``file``;
  /// the caller holds `lock`. Nil (a fresh state) when the ledger does not carry over, the
  /// state was forgotten here (``forgottenMarker``), or the shared file is missing or holds no
  /// state of this library's version (it is left as it is). When the copy cannot be written,
  /// the shared content is used as it is, and the next change writes it to ``file`` (or fails
  /// naming it).
  ///
  /// The marker is looked for, and the copy made, holding ``lockFile`` (taken here unless the
  /// caller holds it), as ``remove()`` does: else another process's forget between the two
  /// brought the forgotten state back. Where the lock cannot be taken (a directory that cannot
  /// be written, where no marker can be left either) the copy is made without it.
  private func carriedOver(holdingFileLock: Bool) throws(VotingError) -> Data? {
    // Without a shared file there is nothing to copy, and a read takes no lock (nor makes
    // the app's directory).
    guard let carryOver, FileManager.default.fileExists(atPath: carryOver.path) else {
      return nil
    }
    if holdingFileLock { return try copyCarryOver() }
    var copied: Result<Data?, VotingError>?
    do throws(VotingError) {
      try FileLock.holding(lockFile) { () throws(VotingError) in
        do throws(VotingError) {
          copied = .success(try copyCarryOver())
        } catch {
          copied = .failure(error)
        }
      }
    } catch {}
    if let copied { return try copied.get() }
    return try copyCarryOver()
  }

  /// ``carriedOver(holdingFileLock:)``'s work, with the file read again first (another
  /// process may have made it meanwhile).
  private func copyCarryOver() throws(VotingError) -> Data? {
    if let made = try StateFile.read(file) { return made }
    guard let carryOver, (try? StateFile.read(forgottenMarker)) == nil else { return nil }
    beforeCarryOver?()
    guard let shared = try? StateFile.read(carryOver),
      let state = try? JSONDecoder().decode(State.self, from: shared), state.version == 1
    else { return nil }
    do throws(VotingError) {
      if try StateFile.create(shared, at: file) { return shared }
    } catch {
      return shared
    }
    // Another process made the file meanwhile (the copy, or its first change): that one.
    return try StateFile.read(file)
  }

  /// Whether nothing is at `url` in a directory that is there (`ENOENT`), rather than the path
  /// being out of reach (`ENOTDIR`, `EACCES`, ...).
  private static func isAbsent(_ url: URL) -> Bool {
    var info = stat()
    return stat(url.path, &info) != 0 && errno == ENOENT
  }

  /// The state `data` holds (nil: no file, a fresh state).
  private func decode(_ data: Data?) throws(VotingError) -> State {
    guard let data else { return State(namespace: namespace) }
    /// Just the version, read first: a file of another version is said to be one, whatever
    /// else it holds.
    struct Version: Decodable { var version: Int? }
    if let version = (try? JSONDecoder().decode(Version.self, from: data))?.version,
      version != 1
    {
      throw .storage(file: file.path, "has version \(version); this library reads version 1")
    }
    do {
      return try JSONDecoder().decode(State.self, from: data)
    } catch {
      // What is wrong and where, not Swift's description of the decoding error.
      let problem =
        AnswerText.shapeProblem(error)
        ?? ((try? JSONSerialization.jsonObject(with: data)) == nil ? "it is not JSON" : "\(error)")
      throw .storage(
        file: file.path,
        "is not a voting state file (\(problem)); move it away to start with no votes")
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

  /// Queues `vote`; a queued opposite of the same feature cancels out with it instead, and a
  /// vote that already stands as asked (another process queued the same) adds nothing.
  mutating func enqueue(_ vote: PendingVote) {
    if hasVoted(vote.featureID) == (vote.action == .vote) { return }
    if let index = queue.lastIndex(where: { $0.featureID == vote.featureID }),
      queue[index].action != vote.action
    {
      queue.remove(at: index)
    } else {
      queue.append(vote)
    }
  }

  /// Takes `vote` out of the queue, if it is still there (another process may have sent it).
  mutating func dequeue(_ vote: PendingVote) {
    if let index = queue.firstIndex(of: vote) { queue.remove(at: index) }
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
      return .badAnswer(message: message, status: status, orFrom: label)
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
