import Foundation

/// The name the system shows for a thread (`top -H`, `ps -L`, `perf`): the server's own
/// threads name themselves, and a program serving with it can name its threads alike.
public enum ThreadName {
  /// Names the calling thread: its first 15 bytes on Linux, where the name is written to
  /// `/proc/thread-self/comm` (`pthread_setname_np` is not visible to Swift there).
  ///
  /// Not through Foundation's `Thread.name`: on Linux it reaches the system only when a thread
  /// sets it itself after its creator has recorded the thread's id, which a thread that starts
  /// at once can beat.
  public static func setForCurrentThread(_ name: String) {
    #if os(Linux)
      let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
      guard fd >= 0 else { return }
      _ = name.withCString { write(fd, $0, strlen($0)) }
      close(fd)
    #elseif canImport(Darwin)
      _ = pthread_setname_np(name)
    #endif
  }
}
