import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process for tests, started with `posix_spawn` and reaped with `waitpid`.
///
/// Not Foundation's `Process`: on Linux it watches its children through a CFSocket whose
/// manager thread calls `select(2)`. Once the test process holds 1,024 descriptors or more
/// (hundreds of tests run in parallel, each with servers, stores and pipes; a full run reaches
/// about 1,900), `FD_SET` writes past the end of its set. That corrupted memory (crashes inside
/// `Process.run`) and lost exit notifications (tests waiting forever for a child that had
/// exited). This type has no descriptor limit: each child is reaped by a thread of its own.
///
/// The child gets stdin, stdout and stderr as given; every other descriptor is closed in it.
public final class Subprocess: @unchecked Sendable {
  /// Where one of the child's standard streams goes.
  public enum Stream {
    /// The same as the test process's.
    case inherit
    /// `/dev/null`.
    case null
    /// One end of this pipe: the read end for stdin, the write end for stdout and stderr.
    /// The parent's copy of that end is closed once the child runs.
    case pipe(Pipe)
    /// This open descriptor (left open in the parent).
    case handle(FileHandle)
  }

  /// The child's process id.
  public let pid: pid_t
  /// The command line, for messages.
  public let commandLine: [String]

  private let lock = NSLock()
  private var status: Int32?
  private var waiters: [CheckedContinuation<Int32, Never>] = []
  private let exited = DispatchSemaphore(value: 0)

  /// Starts `executable` (a path; or a name looked up in `PATH` when it has no slash) with
  /// `arguments`. `environment` nil means the test process's own.
  public init(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
    workingDirectory: String? = nil, stdin: Stream = .null, stdout: Stream = .inherit,
    stderr: Stream = .inherit
  ) throws {
    commandLine = [executable] + arguments
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for (stream, target, writing) in [
      (stdin, Int32(0), false), (stdout, 1, true), (stderr, 2, true),
    ] {
      switch stream {
      case .inherit: break
      case .null:
        posix_spawn_file_actions_addopen(
          &actions, target, "/dev/null", writing ? O_WRONLY : O_RDONLY, 0)
      case .pipe(let pipe):
        let end = writing ? pipe.fileHandleForWriting : pipe.fileHandleForReading
        posix_spawn_file_actions_adddup2(&actions, end.fileDescriptor, target)
      case .handle(let handle):
        posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, target)
      }
    }
    if let closeFrom = Self.closeFrom { _ = closeFrom(&actions, 3) }
    if let workingDirectory, let addChdir = Self.addChdir {
      _ = workingDirectory.withCString { addChdir(&actions, $0) }
    }
    let environment = (environment ?? ProcessInfo.processInfo.environment)
      .map { "\($0.key)=\($0.value)" }
    let argv = commandLine.map { strdup($0) } + [nil]
    let envp = environment.map { strdup($0) } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    // The child starts with the stop signals' default actions and none blocked, as from a
    // shell: a test in this process that waits for signals (HTTPServer.runUntilSignalled)
    // leaves SIGTERM and SIGINT ignored, and an ignored disposition is inherited, so a child
    // that had not yet installed its handler silently dropped a SIGTERM sent to it.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for number in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&defaults, number) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    posix_spawnattr_setsigmask(&attributes, &unblocked)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
    var pid: pid_t = 0
    let spawned =
      executable.contains("/")
      ? posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
      : posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
    guard spawned == 0 else {
      throw SubprocessError(
        message: "cannot start \(executable): \(String(cString: strerror(spawned)))")
    }
    self.pid = pid
    // The child holds its own copies now; the parent's ends would keep the pipes open.
    for (stream, writing) in [(stdin, false), (stdout, true), (stderr, true)] {
      if case .pipe(let pipe) = stream {
        try? (writing ? pipe.fileHandleForWriting : pipe.fileHandleForReading).close()
      }
    }
    Thread.detachNewThread { [self] in reap() }
  }

  private func reap() {
    var raw: Int32 = 0
    while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
    let low = raw & 0x7f
    let code = low == 0 ? (raw >> 8) & 0xff : 128 + low
    let resumed: [CheckedContinuation<Int32, Never>] = lock.withLock {
      status = code
      defer { waiters = [] }
      return waiters
    }
    for waiter in resumed { waiter.resume(returning: code) }
    exited.signal()
  }

  /// The exit status once the child has exited (128 + the signal when a signal ended it).
  public var exitStatus: Int32? { lock.withLock { status } }

  /// Whether the child is still running.
  public var isRunning: Bool { exitStatus == nil }

  /// Blocks the calling thread until the child exits; returns ``exitStatus``.
  @discardableResult
  public func waitUntilExit() -> Int32 {
    if let status = exitStatus { return status }
    exited.wait()
    exited.signal()
    return exitStatus ?? -1
  }

  /// Waits, without blocking a thread, until the child exits; returns ``exitStatus``.
  public func exit() async -> Int32 {
    await withCheckedContinuation { continuation in
      let known: Int32? = lock.withLock {
        if let status { return status }
        waiters.append(continuation)
        return nil
      }
      if let known { continuation.resume(returning: known) }
    }
  }

  /// Whether the child has installed a handler for `signal` (Linux: its `SigCgt` in
  /// `/proc/PID/status`; elsewhere, true). A signal sent before that takes its default action.
  public func catches(_ signal: Int32) -> Bool {
    #if os(Linux)
      guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
        let mask = UInt64(
          line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
      else { return false }
      return mask & (UInt64(1) << UInt64(signal - 1)) != 0
    #else
      return true
    #endif
  }

  /// Sends `signal` to the child while it runs.
  public func signal(_ signal: Int32) {
    lock.withLock {
      if status == nil { _ = kill(pid, signal) }
    }
  }

  private typealias FileAction =
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
  private typealias ChdirAction =
    @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?)
    -> Int32

  /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), which Swift does not import.
  private static let closeFrom: FileAction? = symbol("posix_spawn_file_actions_addclosefrom_np")
  /// glibc's and Darwin's `posix_spawn_file_actions_addchdir_np`.
  private static let addChdir: ChdirAction? = symbol("posix_spawn_file_actions_addchdir_np")

  private static func symbol<T>(_ name: String) -> T? {
    #if os(Linux)
      let handle: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
    #else
      let handle = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
    #endif
    guard let pointer = dlsym(handle, name) else { return nil }
    return unsafeBitCast(pointer, to: T.self)
  }
}

/// A child process that could not be started.
public struct SubprocessError: Error, CustomStringConvertible {
  /// What went wrong.
  public var message: String
  /// The message.
  public var description: String { message }

  /// An error saying `message`.
  public init(message: String) { self.message = message }
}
