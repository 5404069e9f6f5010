import Foundation

/// Who votes: a stable id sent as `X-Voter-ID`, so a server such as `roadmapctl serve` counts one
/// vote per voter and feature.
///
/// Either a random UUID made once per install and kept in a file (``installation(file:)``), or
/// the app's own user id (``init(appUserID:)``) when users sign in. The file is created
/// atomically on first use: two processes starting at once agree on one id.
public final class VoterIdentity: @unchecked Sendable {
  private enum Source {
    case fixed(String)
    case file(URL)
  }

  private let source: Source
  private let lock = NSLock()
  private var cached: String?

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

  private init(file: URL) {
    source = .file(file)
  }

  /// A per-install id kept in `file` (created with a random UUID on first use).
  public static func installation(file: URL) -> VoterIdentity {
    VoterIdentity(file: file)
  }

  /// A per-install id kept in `voter-id` in ``defaultDirectory``.
  public static func installation() -> VoterIdentity {
    VoterIdentity(file: defaultDirectory.appendingPathComponent("voter-id"))
  }

  /// Where the voting state lives unless the app says otherwise: `RoadmapBridge` in the
  /// app's Application Support directory (on Linux, `~/.local/share/RoadmapBridge`).
  public static var defaultDirectory: URL {
    let base =
      FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
      ?? FileManager.default.temporaryDirectory
    return base.appendingPathComponent("RoadmapBridge", isDirectory: true)
  }

  /// The file holding the per-install id; nil for an app user id.
  public var file: URL? {
    if case .file(let url) = source { return url }
    return nil
  }

  /// The id: the app's, or the install's (read from its file, created on first use).
  ///
  /// The file is read on every call, so a ``forget()`` made through another `VoterIdentity`
  /// over the same file (another voter of the app, or its extension in a shared container)
  /// takes effect here too: the next id is the new one, never the forgotten one. A file that
  /// cannot be read after an id was read from it (the device locked, say) leaves that id.
  public func id() throws(VotingError) -> String {
    lock.lock()
    defer { lock.unlock() }
    guard case .file(let url) = source else {
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
    let fresh = UUID().uuidString
    if try StateFile.create(Data((fresh + "\n").utf8), at: url) {
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
  public func forget() throws(VotingError) {
    lock.lock()
    defer { lock.unlock() }
    guard case .file(let url) = source else { return }
    try StateFile.remove(url)
    cached = nil
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
