import Foundation
import Testing

@testable import FeatureVoting

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where `VoterIdentity.installation()` keeps the id. It kept one `voter-id` in
/// `Application Support/RoadmapBridge`, which every non-sandboxed macOS app and Linux tool of a
/// user shared: apps of different developers sent the same voter id, an identifier across apps.
/// Each app now has its own directory in it; the shared id is copied there on first use, so a
/// user who voted cannot vote a second time, and the shared file is left as it is. Every test
/// gives the Application Support directory, a temporary one: none touches the real one.
@Suite("VoterIdentity's place")
struct VoterIdentityPlaceTests {
  @Test("an app's directory is its bundle identifier, else its executable's name")
  func appName() {
    #expect(
      VoterIdentity.appName(bundleIdentifier: "com.example.app", executablePath: "/A/B/App")
        == "com.example.app")
    #expect(VoterIdentity.appName(bundleIdentifier: nil, executablePath: "/usr/bin/vote") == "vote")
    #expect(VoterIdentity.appName(bundleIdentifier: "", executablePath: "tool") == "tool")
    #expect(
      VoterIdentity.appName(bundleIdentifier: nil, executablePath: "/opt/my tool/\u{FC}n\u{EF} x")
        == "_n__x")
    #expect(VoterIdentity.appName(bundleIdentifier: "..", executablePath: "/") == "app")
    #expect(VoterIdentity.appName(bundleIdentifier: nil, executablePath: nil) == "app")
    // The one this process uses: a name, never a path.
    let name = VoterIdentity.appName()
    #expect(!name.isEmpty && !name.contains("/"))
    #expect(
      VoterIdentity.appDirectory
        == VoterIdentity.defaultDirectory
        .appendingPathComponent(name, isDirectory: true))
  }

  @Test("two apps on one machine get two voter ids, each in its own directory")
  func twoAppsTwoIDs() throws {
    let support = try temporaryDirectory()
    let first = VoterIdentity.installation(applicationSupport: support, app: "com.one.app")
    let second = VoterIdentity.installation(applicationSupport: support, app: "com.two.app")
    let (one, two) = (try first.id(), try second.id())
    #expect(one != two)
    #expect(first.file?.path == support.path + "/RoadmapBridge/com.one.app/voter-id")
    #expect(second.file?.path == support.path + "/RoadmapBridge/com.two.app/voter-id")
    #expect(
      try VoterIdentity.installation(applicationSupport: support, app: "com.one.app").id() == one)
    let shared = support.appendingPathComponent("RoadmapBridge/voter-id")
    #expect(!FileManager.default.fileExists(atPath: shared.path))
  }

  @Test("the id the apps shared is copied on first use, never removed, and gone once forgotten")
  func sharedIDCarriesOver() throws {
    let support = try temporaryDirectory()
    let shared = support.appendingPathComponent("RoadmapBridge/voter-id")
    try FileManager.default.createDirectory(
      at: shared.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("OLD-ID\n".utf8).write(to: shared)
    let app = VoterIdentity.installation(applicationSupport: support, app: "com.one.app")
    #expect(try app.id() == "OLD-ID")
    #expect(try String(contentsOf: app.file!, encoding: .utf8) == "OLD-ID\n")
    // The shared file stays: another app updated later keeps its voter too.
    #expect(try String(contentsOf: shared, encoding: .utf8) == "OLD-ID\n")
    #expect(
      try VoterIdentity.installation(applicationSupport: support, app: "com.two.app").id()
        == "OLD-ID")
    // Forgotten, the shared id never comes back, through this instance or a new one.
    try app.forget()
    let new = try app.id()
    #expect(new != "OLD-ID" && UUID(uuidString: new) != nil)
    try app.forget()
    let again = VoterIdentity.installation(applicationSupport: support, app: "com.one.app")
    let newer = try again.id()
    #expect(newer != "OLD-ID" && newer != new)
    #expect(try String(contentsOf: shared, encoding: .utf8) == "OLD-ID\n")
  }

  @Test("a shared file that holds no id is not copied, and is left as it is")
  func damagedSharedFile() throws {
    let support = try temporaryDirectory()
    let shared = support.appendingPathComponent("RoadmapBridge/voter-id")
    try FileManager.default.createDirectory(
      at: shared.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("not an id!\n".utf8).write(to: shared)
    let id = try VoterIdentity.installation(applicationSupport: support, app: "com.one.app").id()
    #expect(UUID(uuidString: id) != nil)
    #expect(try String(contentsOf: shared, encoding: .utf8) == "not an id!\n")
  }

  /// Bug: the first `id()` looked for `voter-id.forgotten` without the file lock, so a
  /// `forget()` in another process (the app's extension) between that look and the copy of the
  /// shared id left its marker, and then the copy brought the forgotten id back. The look and
  /// the copy are now made holding `voter-id.lock`, which `forget()` takes too: a forget at
  /// that moment waits for the copy, then removes it.
  @Test("a forget() in another process during the first copy of the shared id is not undone")
  func forgetDuringTheFirstCopy() throws {
    let support = try temporaryDirectory()
    let shared = support.appendingPathComponent("RoadmapBridge/voter-id")
    try FileManager.default.createDirectory(
      at: shared.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("OLD-ID\n".utf8).write(to: shared)
    let app = VoterIdentity.installation(applicationSupport: support, app: "com.one.app")
    let other = VoterIdentity.installation(applicationSupport: support, app: "com.one.app")
    let forgotten = DispatchSemaphore(value: 0)
    let lockFile = app.file!.deletingLastPathComponent().appendingPathComponent("voter-id.lock")
    app.beforeCarryOver = {
      runWhenUnlocked(lockFile, done: forgotten) { try? other.forget() }
    }
    #expect(try app.id() == "OLD-ID")
    #expect(forgotten.wait(timeout: .now() + 120) == .success)
    let next = try VoterIdentity.installation(applicationSupport: support, app: "com.one.app").id()
    #expect(next != "OLD-ID")
  }
}

/// The id the apps shared was readable, but the app's own directory could not be made (a
/// read-only Application Support, a file where the directory goes): `id()` threw a `.storage`
/// error on every call, so every vote of an upgraded app failed where the earlier version
/// voted with the shared id. The shared id is now used as it is.
@Suite("VoterIdentity with an app directory that cannot be made")
struct VoterIdentityUnwritablePlaceTests {
  @Test("the shared id is used when the app's file cannot be created; a new one still fails")
  func sharedIDWhenAppDirectoryCannotBeMade() throws {
    let support = try temporaryDirectory()
    let shared = support.appendingPathComponent("RoadmapBridge/voter-id")
    try FileManager.default.createDirectory(
      at: shared.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data("OLD-ID\n".utf8).write(to: shared)
    // A file stands where the app's directory goes (running as root, permissions block
    // nothing, so this is how a directory that cannot be made is had here).
    let blocked = support.appendingPathComponent("RoadmapBridge/com.one.app")
    try Data().write(to: blocked)
    let app = VoterIdentity.installation(applicationSupport: support, app: "com.one.app")
    #expect(try app.id() == "OLD-ID")
    #expect(try app.id() == "OLD-ID")
    #expect(try String(contentsOf: shared, encoding: .utf8) == "OLD-ID\n")
    // Without a shared id there is nothing to use: the error names the file.
    let other = try temporaryDirectory()
    try FileManager.default.createDirectory(
      at: other.appendingPathComponent("RoadmapBridge"), withIntermediateDirectories: true)
    try Data().write(to: other.appendingPathComponent("RoadmapBridge/com.one.app"))
    #expect(throws: VotingError.self) {
      try VoterIdentity.installation(applicationSupport: other, app: "com.one.app").id()
    }
  }

}

/// Runs `body` as another process would at this moment, then signals `done`: here, when no one
/// holds the `flock` of `lockFile`; on a thread of its own (where `body` waits for it) when
/// someone does.
func runWhenUnlocked(
  _ lockFile: URL, done: DispatchSemaphore, _ body: @escaping @Sendable () -> Void
) {
  // No lock file (its directory not made yet): no one holds it.
  let fd = open(lockFile.path, O_RDWR)
  let free = fd < 0 || flock(fd, LOCK_EX | LOCK_NB) == 0
  if fd >= 0 {
    if free { flock(fd, LOCK_UN) }
    close(fd)
  }
  if free {
    body()
    done.signal()
  } else {
    Thread {
      body()
      done.signal()
    }.start()
  }
}
