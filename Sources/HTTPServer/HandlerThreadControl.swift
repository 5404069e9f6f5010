/// What the event loop drives on its ``HandlerExecutor``, without naming the type.
///
/// `HandlerExecutor` is a `TaskExecutor`, so it needs macOS 15; the loop keeps it behind this
/// protocol and only names the executor where it starts a task (under `#available`).
protocol HandlerThreadControl: AnyObject, Sendable {
  /// Starts the handler threads.
  func start()
  /// Lets the threads exit once idle and no handler task is unfinished.
  func shutdownWhenIdle()
  /// Defers wake-ups for jobs the calling thread enqueues.
  func beginBatch()
  /// Wakes idle threads for the jobs queued during the batch.
  func endBatch()
}
