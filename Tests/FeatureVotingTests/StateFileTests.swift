import Foundation
import TestProcess
import Testing

@testable import FeatureVoting

/// `StateFile.read` tells a missing file from one that cannot be read by what opening it said,
/// so a file another process creates at that moment is read or missing, never an error.
@Suite("StateFile")
struct StateFileTests {
  @Test("a missing file is nil; a file is its whole content")
  func missingAndPresent() throws {
    let directory = try temporaryDirectory()
    let file = directory.appendingPathComponent("voter-id")
    #expect(try StateFile.read(file) == nil)
    let content = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    try content.write(to: file)
    #expect(try StateFile.read(file) == content)
  }

  @Test("a directory in the file's place is an error naming it; a file in its directory's, nil")
  func unreadable() throws {
    let directory = try temporaryDirectory()
    let folder = directory.appendingPathComponent("voter-id")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    do {
      _ = try StateFile.read(folder)
      Issue.record("a directory was read")
    } catch {
      #expect(error.kind == .storage)
      #expect(error.file == folder.path)
      #expect(error.message.contains("cannot be read"))
    }
    // Nothing can be there; writing it says why (its directory cannot be created).
    let blocker = directory.appendingPathComponent("blocker")
    try Data("x".utf8).write(to: blocker)
    #expect(try StateFile.read(blocker.appendingPathComponent("voter-id")) == nil)
  }

  @Test("a file created while it is being read is read or missing, never an error")
  func createdWhileRead() async throws {
    let directory = try temporaryDirectory()
    let files = (0..<300).map { directory.appendingPathComponent("id-\($0)") }
    let content = Data("6F9619FF-8B86-D011-B42D-00C04FC964FF\n".utf8)
    // Both on threads of their own: the reader spins until each file is there, and a spin on
    // the cooperative pool could hold the thread the creator waits for. Once the creator has
    // stopped (done or failed), a file still missing is a failure, not a spin for ever.
    let creatorStopped = LockedFlag()
    async let creator: Void = onOwnThread {
      defer { creatorStopped.set() }
      for file in files { _ = try StateFile.create(content, at: file) }
    }
    async let reader = onOwnThread { () throws -> Int in
      var seen = 0
      for file in files {
        while true {
          let stopped = creatorStopped.isSet
          if let read = try StateFile.read(file) {
            #expect(read == content)
            seen += 1
            break
          }
          if stopped { return seen }
        }
      }
      return seen
    }
    try await creator
    let seen = try await reader
    #expect(seen == files.count)
  }
}

/// A flag set once, read from any thread.
private final class LockedFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false

  /// Whether ``set()`` was called.
  var isSet: Bool { lock.withLock { value } }

  /// Sets the flag.
  func set() { lock.withLock { value = true } }
}
