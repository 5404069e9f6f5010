import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The file beside a SQLite database that holds its ``VoterKey``: `votes.sqlite3-voter-key`,
/// mode 0600, one line `roadmapbridge-voter-key-v1 <64 hex digits>`.
///
/// Back it up with the database: without it the stored voter hashes cannot be matched again,
/// and the store refuses to start rather than let every voter vote a second time.
enum VoterKeyFile {
  /// The first word of the file.
  static let header = "roadmapbridge-voter-key-v1"

  /// The key file of the database at `databasePath`.
  static func path(forDatabase databasePath: String) -> String { databasePath + "-voter-key" }

  /// Reads the key; `.incompatible` for a malformed file or one others may read, `.io` when
  /// it cannot be read.
  static func load(_ path: String) throws(VoteStoreError) -> VoterKey {
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw VoteStoreError(
        .io, "cannot read the voter key \(path): \(String(cString: strerror(errno)))")
    }
    if info.st_mode & 0o077 != 0 {
      throw VoteStoreError(
        .incompatible,
        "the voter key \(path) may be read by other users (mode "
          + String(info.st_mode & 0o777, radix: 8) + "); run 'chmod 600 \(path)' and start again")
    }
    let text: String
    do {
      text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw VoteStoreError(.io, "cannot read the voter key \(path): \(error.localizedDescription)")
    }
    let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
    guard words.count == 2, words[0] == header, let key = VoterKey(hex: String(words[1])) else {
      throw VoteStoreError(
        .incompatible,
        "\(path) is not a voter key file (expected one line '\(header) <64 hex digits>')")
    }
    return key
  }

  /// Creates the file with a new random key (never replacing one), mode 0600, synced.
  static func create(_ path: String) throws(VoteStoreError) -> VoterKey {
    let key = VoterKey.random()
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else {
      throw VoteStoreError(
        .io, "cannot create the voter key \(path): \(String(cString: strerror(errno)))")
    }
    let line = Array("\(header) \(key.hex)\n".utf8)
    let written = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    let synced = fsync(fd)
    let failure = errno
    close(fd)
    guard written == line.count, synced == 0 else {
      unlink(path)
      throw VoteStoreError(
        .io, "cannot write the voter key \(path): \(String(cString: strerror(failure)))")
    }
    syncDirectory(of: path)
    return key
  }

  /// fsync of the directory, so the new file's name survives a power loss.
  static func syncDirectory(of path: String) {
    let directory = (path as NSString).deletingLastPathComponent
    let fd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    _ = fsync(fd)
    close(fd)
  }
}
