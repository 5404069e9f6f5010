import Foundation

/// Who votes: a stable id sent as `X-Voter-ID`, so a server such as `roadmapctl serve` counts one
/// vote per voter and feature.
///
/// Either a random UUID made once per install and kept in a file (``installation()``,
/// ``installation(file:)``), or the app's own user id (``init(appUserID:)``) when users sign
/// in. The file is created atomically on first use: two processes starting at once agree on one
/// id.
public final class VoterIdentity: @unchecked Sendable {
  private enum Source {
    case fixed(String)
    /// The id's file, and the file of the id earlier versions shared between apps, copied on
    /// first use (nil when there is none to copy).
    case file(URL, shared: URL?)
  }

  private let source: Source
  private let lock = NSLock()
  private var cached: String?
  /// Tests only: called when the first id is about to be made, after the forgotten marker was
  /// looked for and before the shared id is copied.
  var beforeCarryOver: (() -> Void)?

  /// The app's own user id. It must be 1–128 characters of `A-Z a-z 0-9 _ - . : @ + = /` (what
  /// `roadmapctl serve` accepts).
  public init(appUserID: String) throws(VotingError) {
    guard VoterIdentity.isValid(appUserID) else {
      throw .invalidRequest(
        "voter id '\(appUserID)' must be 1–128 characters of A-Z a-z 0-9 _ - . : @ + = /")
    }
    source = .fixed(appUserID)
    cached = appUserID
  }

  private init(file: URL, shared: URL? = nil) {
    source = .file(file, shared: shared)
  }

  /// A per-install id kept in `file` (created with a random UUID on first use).
  public static func installation(file: URL) -> VoterIdentity {
    VoterIdentity(file: file)
  }

  /// A per-install id of this app: `voter-id` in ``appDirectory``.
  ///
  /// Earlier versions kept one `voter-id` in ``defaultDirectory`` itself, which every
  /// non-sandboxed macOS app (and Linux tool) on the machine shared, so apps of different
  /// developers sent the same id. On first use, when this app's file does not exist but that
  /// shared one does, its id is copied into this app's file (so a user who voted keeps their
  /// votes and cannot vote a second time); the shared file is never changed or removed.
  public static func installation() -> VoterIdentity {
    installation(applicationSupport: applicationSupport, app: appName())
  }

  /// ``installation()`` under `applicationSupport` for the app named `app` (a directory name,
  /// see ``appName(bundleIdentifier:executablePath:)``): the place it picks, given.
  static func installation(applicationSupport: URL, app: String) -> VoterIdentity {
    let shared = sharedDirectory(in: applicationSupport)
    return VoterIdentity(
      file: appDirectory(in: applicationSupport, app: app).appendingPathComponent("voter-id"),
      shared: shared.appendingPathComponent("voter-id"))
  }

  /// `RoadmapBridge` in the app's Application Support directory (on Linux,
  /// `~/.local/share/RoadmapBridge`): where earlier versions kept the voter id and
  /// ``DurableVoter``'s state files, and which holds ``appDirectory``. Outside an app sandbox
  /// (a macOS app without one, a Linux tool) every program of the user shares it; inside one
  /// it is the app's own.
  public static var defaultDirectory: URL { sharedDirectory(in: applicationSupport) }

  /// This app's own directory inside ``defaultDirectory``, named by its bundle identifier (else
  /// its executable's name), which holds ``installation()``'s `voter-id` and, unless the app
  /// gives a directory, ``DurableVoter``'s state files:
  /// `Application Support/RoadmapBridge/com.example.app`.
  public static var appDirectory: URL {
    appDirectory(in: applicationSupport, app: appName())
  }

  /// The user's Application Support directory (on Linux, `~/.local/share`).
  static var applicationSupport: URL {
    FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
      ?? FileManager.default.temporaryDirectory
  }

  /// `RoadmapBridge` in `applicationSupport`: ``defaultDirectory`` there.
  static func sharedDirectory(in applicationSupport: URL) -> URL {
    applicationSupport.appendingPathComponent("RoadmapBridge", isDirectory: true)
  }

  /// The directory of the app named `app` in `applicationSupport`: ``appDirectory`` there.
  static func appDirectory(in applicationSupport: URL, app: String) -> URL {
    sharedDirectory(in: applicationSupport).appendingPathComponent(app, isDirectory: true)
  }

  /// This app's directory name: its bundle identifier, else its executable's name, with every
  /// character but `A-Z a-z 0-9 . _ -` as `_`; `app` when neither has a letter or digit of
  /// those (so never `.` or `..`).
  static func appName(
    bundleIdentifier: String? = Bundle.main.bundleIdentifier,
    executablePath: String? = Bundle.main.executablePath ?? CommandLine.arguments.first
  ) -> String {
    let executable = executablePath.map { URL(fileURLWithPath: $0).lastPathComponent }
    for candidate in [bundleIdentifier, executable] {
      guard let candidate else { continue }
      let scalars = candidate.unicodeScalars.prefix(200).map { scalar -> Character in
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", ".", "_", "-": Character(scalar)
        default: "_"
        }
      }
      let name = String(scalars)
      if name.contains(where: { $0.isASCII && ($0.isLetter || $0.isNumber) }) { return name }
    }
    return "app"
  }

  /// The file holding the per-install id; nil for an app user id.
  public var file: URL? {
    if case .file(let url, _) = source { return url }
    return nil
  }

  /// The id: the app's, or the install's (read from its file, created on first use).
  ///
  /// When this app's file cannot be created but the id earlier versions shared can be read
  /// (see ``installation()``), that id is the answer, as it was before each app had its own.
  ///
  /// The file is read on every call, so a ``forget()`` made through another `VoterIdentity`
  /// over the same file (another voter of the app, or its extension in a shared container)
  /// takes effect here too: the next id is the new one, never the forgotten one. A file that
  /// cannot be read after an id was read from it (the device locked, say) leaves that id.
  public func id() throws(VotingError) -> String {
    lock.lock()
    defer { lock.unlock() }
    guard case .file(let url, let shared) = source else {
      guard let cached else { preconditionFailure("a fixed id is always cached") }
      return cached
    }
    let existing: String?
    do throws(VotingError) {
      existing = try VoterIdentity.read(url)
    } catch {
      if let cached { return cached }
      throw error
    }
    if let existing {
      cached = existing
      return existing
    }
    // The marker is looked for, and the shared id copied, under the file lock ``forget()``
    // takes: else another process's forget() between the two brought the forgotten id back.
    guard let shared, FileManager.default.fileExists(atPath: shared.path) else {
      return try first(url, shared: nil)
    }
    var made: Result<String, VotingError>?
    do throws(VotingError) {
      try FileLock.holding(FileLock.lockFile(for: url)) { () throws(VotingError) in
        do throws(VotingError) {
          made = .success(try first(url, shared: shared))
        } catch {
          made = .failure(error)
        }
      }
    } catch {
      // No lock where the app's directory cannot be written: no forget() can write there
      // either (its marker), and the id is made as it was before.
    }
    if let made { return try made.get() }
    return try first(url, shared: shared)
  }

  /// The id of `url` when it has none yet, made and written; the caller holds `lock` (and the
  /// file lock when there is a `shared` id to copy).
  private func first(_ url: URL, shared: URL?) throws(VotingError) -> String {
    if let existing = try VoterIdentity.read(url) {
      cached = existing
      return existing
    }
    let carried = VoterIdentity.carriedOver(from: shared, to: url, before: beforeCarryOver)
    let fresh = carried ?? UUID().uuidString
    let created: Bool
    do throws(VotingError) {
      created = try StateFile.create(Data((fresh + "\n").utf8), at: url)
    } catch {
      // The app's directory cannot be written (a read-only Application Support): the id the
      // apps shared is still this install's, as it was before the move, and is used as it is.
      guard let carried else { throw error }
      cached = carried
      return carried
    }
    if created {
      cached = fresh
      return fresh
    }
    guard let winner = try VoterIdentity.read(url) else {
      throw .storage(file: url.path, "vanished while it was being created")
    }
    cached = winner
    return winner
  }

  /// Forgets the per-install id: removes its file, so the next ``id()`` makes a new one.
  /// An app user id is not stored, so there is nothing to remove.
  ///
  /// For ``installation()``, a file `voter-id.forgotten` stays next to it (before the id's
  /// file goes), so that the id shared by earlier versions is never copied again. Both are done
  /// holding `voter-id.lock` (`flock`), as the first ``id()``'s copy of that id is, so a forget
  /// in another process while one copies is never undone by the copy.
  public func forget() throws(VotingError) {
    lock.lock()
    defer { lock.unlock() }
    guard case .file(let url, let shared) = source else { return }
    if shared != nil {
      // Under the lock the first id() takes (see id()), so no copy of the shared id is made
      // between the marker and the removal.
      try FileLock.holding(FileLock.lockFile(for: url)) { () throws(VotingError) in
        _ = try StateFile.create(Data(), at: VoterIdentity.forgottenMarker(of: url))
        try StateFile.remove(url)
      }
    } else {
      try StateFile.remove(url)
    }
    cached = nil
  }

  /// The file whose presence says `file`'s id was forgotten.
  private static func forgottenMarker(of file: URL) -> URL {
    file.deletingLastPathComponent().appendingPathComponent(file.lastPathComponent + ".forgotten")
  }

  /// The id in the `shared` file of earlier versions, for the first id of `file`: nil when
  /// there is none, it does not hold an id, or `file`'s id was forgotten before. `before` runs
  /// once the marker was looked for (tests).
  private static func carriedOver(
    from shared: URL?, to file: URL, before: (() -> Void)? = nil
  ) -> String? {
    guard let shared else { return nil }
    if (try? StateFile.read(forgottenMarker(of: file))) != nil { return nil }
    before?()
    return try? read(shared)
  }

  private static func read(_ url: URL) throws(VotingError) -> String? {
    guard let data = try StateFile.read(url) else { return nil }
    let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard isValid(text) else {
      throw .storage(
        file: url.path,
        "does not hold a voter id (1–128 characters of A-Z a-z 0-9 _ - . : @ + = /); remove it "
          + "to make a new one")
    }
    return text
  }

  /// Whether `text` is a voter id `roadmapctl serve` accepts.
  static func isValid(_ text: String) -> Bool {
    guard (1...128).contains(text.count) else { return false }
    return text.unicodeScalars.allSatisfy { scalar in
      switch scalar {
      case "A"..."Z", "a"..."z", "0"..."9", "_", "-", ".", ":", "@", "+", "=", "/": true
      default: false
      }
    }
  }
}
