import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Removes the temporary files of the `-o`/`--out` writes in progress when a signal ends the
/// process (``OutputFile``'s `TARGET.partial-PID`).
///
/// A backup interrupted by SIGINT (Control-C), SIGTERM (a cron or CI timeout), SIGHUP (a closed
/// terminal) or SIGPIPE left its partial file behind, up to the whole backup's size; a later
/// write to the same target removed it, one to another name never did. While at least one such
/// write is in progress, these signals run a handler that unlinks every registered temporary
/// file, then ends the process by the same signal with its default action, so a shell sees
/// the status it expects (128 + the signal: 130 for SIGINT, 143 for SIGTERM). The target is
/// never touched: it stays the old file, or is the new one whole if the rename came first.
///
/// The handler runs on whichever thread the signal interrupts, however busy the others are
/// writing, and only calls async-signal-safe functions (`unlink`, `sigaction`,
/// `pthread_sigmask`, `raise`, `_exit`) on paths copied to C strings before the write began.
/// A signal the process was started ignoring (`nohup`, a background job's SIGINT), or handles
/// itself, is left as it is; once the last write ends, the signals that still run this handler
/// get back the actions they had before.
enum PartialFileCleanup {
  /// The signals that remove the temporary files before they end the process.
  static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGPIPE]

  /// How many writes may be registered at once (a command writes one file at a time).
  static let capacity = 8

  /// The registered paths, nil where free: read by the handler, so never freed (a path
  /// unregistered may still be in the handler's hands; each is a few bytes, once per write).
  nonisolated(unsafe) private static let slots: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> =
    {
      let slots = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: capacity)
      slots.initialize(repeating: nil, count: capacity)
      return slots
    }()

  private static let lock = NSLock()
  nonisolated(unsafe) private static var registered = 0
  nonisolated(unsafe) private static var previous: [(signal: Int32, action: sigaction)] = []

  /// Registers `path` for removal by a signal, installing the handler with the first one;
  /// returns the slot to pass to ``unregister(_:)``, or nil when every slot is taken (that
  /// write is then left as before: removed by the next write to its target).
  static func register(_ path: String) -> Int? {
    lock.lock()
    defer { lock.unlock() }
    guard let free = (0..<capacity).first(where: { slots[$0] == nil }) else { return nil }
    slots[free] = strdup(path)
    if registered == 0 { install() }
    registered += 1
    return free
  }

  /// Forgets the path in `slot` (its write is over: renamed into place or removed); the last
  /// one puts the signals' earlier actions back.
  static func unregister(_ slot: Int) {
    lock.lock()
    defer { lock.unlock() }
    guard slots[slot] != nil else { return }
    slots[slot] = nil
    registered -= 1
    if registered == 0 { restore() }
  }

  /// The handler, one function whose address tells whether a signal's action is still ours.
  private static let handler: @convention(c) (Int32) -> Void = { PartialFileCleanup.handle($0) }

  /// Installs the handler for each of ``signals`` whose action is the default one, keeping
  /// the actions it replaces. A signal the process ignores or handles itself is left to it:
  /// a server's graceful stop (or a test's own handler) was replaced by one that ends the
  /// process.
  private static func install() {
    previous = []
    for number in signals {
      var old = sigaction()
      guard sigaction(number, nil, &old) == 0, isDefault(old) else { continue }
      var action = sigaction()
      #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = handler
      #else
        action.__sigaction_u.__sa_handler = handler
      #endif
      sigemptyset(&action.sa_mask)
      // Another of these signals arriving while the handler runs waits: the first one ends
      // the process.
      for other in signals { sigaddset(&action.sa_mask, other) }
      action.sa_flags = 0
      if sigaction(number, &action, nil) == 0 { previous.append((number, old)) }
    }
  }

  /// Puts back the actions ``install()`` replaced, where the action is still ours: one set
  /// meanwhile by someone else (`signal(SIGINT, SIG_IGN)`, a dispatch source) stays.
  private static func restore() {
    for (number, old) in previous {
      var current = sigaction()
      guard sigaction(number, nil, &current) == 0, isOurs(current) else { continue }
      var action = old
      sigaction(number, &action, nil)
    }
    previous = []
  }

  /// Whether `action` is the default one (no handler, not ignored).
  static func isDefault(_ action: sigaction) -> Bool {
    handlerAddress(action) == 0 && action.sa_flags & SA_SIGINFO == 0
  }

  /// Whether `action` is this type's handler.
  static func isOurs(_ action: sigaction) -> Bool {
    handlerAddress(action) == unsafeBitCast(handler, to: Int.self)
  }

  /// The address of `action`'s handler; 0 for the default action.
  private static func handlerAddress(_ action: sigaction) -> Int {
    #if canImport(Glibc)
      let handler = action.__sigaction_handler.sa_handler
    #else
      let handler = action.__sigaction_u.__sa_handler
    #endif
    guard let handler else { return 0 }  // SIG_DFL is nil
    return unsafeBitCast(handler, to: Int.self)
  }

  /// A sigaction of `handler` (nil: the default action), for tests of the rules above.
  static func action(_ handler: (@convention(c) (Int32) -> Void)?) -> sigaction {
    var action = sigaction()
    #if canImport(Glibc)
      action.__sigaction_handler.sa_handler = handler
    #else
      action.__sigaction_u.__sa_handler = handler
    #endif
    return action
  }

  /// A sigaction of this type's handler, for tests.
  static var ours: sigaction { action(handler) }

  /// The signal handler: async-signal-safe calls only.
  private static func handle(_ number: Int32) {
    for index in 0..<capacity {
      if let path = slots[index] { unlink(path) }
    }
    // End the process by the signal itself (its default action), so that the parent sees
    // a death by SIGINT, as a shell's `wait` needs to stop a script; 128 + the signal should
    // that ever return.
    var action = sigaction()
    #if canImport(Glibc)
      action.__sigaction_handler.sa_handler = nil  // SIG_DFL
    #else
      action.__sigaction_u.__sa_handler = nil  // SIG_DFL
    #endif
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    sigaction(number, &action, nil)
    var unblock = sigset_t()
    sigemptyset(&unblock)
    sigaddset(&unblock, number)
    pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    raise(number)
    _exit(128 + number)
  }
}
