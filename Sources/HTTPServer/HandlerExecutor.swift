import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The server's own task executor: a fixed set of dedicated handler threads fed from one
/// queue, so handlers never wait for Swift's global cooperative pool.
///
/// Every request's handler task is started with this executor as its preference, so the
/// handler, its structured children and every nonisolated `async` function it awaits run on
/// these threads, whatever else the process does with the global pool (SE-0417).
///
/// The queue is an array behind a `pthread_mutex`; idle threads sleep on a condition variable
/// and are signalled only when one is idle, so there is no spinning. Once the server has
/// stopped and its last handler task has finished, ``shutdownWhenIdle()`` lets the threads
/// drain the queue and exit; a job that still arrives after that (from an unstructured task a
/// handler left behind) runs on a short-lived thread of its own rather than being lost.
@available(macOS 15, *)
final class HandlerExecutor: TaskExecutor, HandlerThreadControl, @unchecked Sendable {
  /// How many threads ``start()`` creates.
  let threadCount: Int
  private let name: String
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

  // Under `mutex`.
  private var queue: [UnownedJob] = []
  private var head = 0
  private var idleThreads = 0
  private var liveThreads = 0
  /// Threads woken by a signal that have not yet taken the mutex again.
  private var wakeupsInFlight = 0
  private var stopping = false
  /// The thread inside ``beginBatch()``/``endBatch()``, whose enqueues wake no thread.
  private var batchOwner: pthread_t?
  /// Handler tasks begun and not finished (atomic: counted on every request without the mutex).
  private let activeTasks = Atomic<Int>(0)
  /// Mirrors `stopping` for ``taskFinished()``, which reads it without the mutex.
  private let stoppingFlag = Atomic<Bool>(false)

  /// Creates the executor; no thread runs until ``start()``.
  init(threads: Int, name: String) {
    threadCount = max(1, threads)
    self.name = name
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deallocate()
    mutex.deallocate()
  }

  /// Starts the handler threads. Each holds the executor until it exits.
  func start() {
    pthread_mutex_lock(mutex)
    liveThreads = threadCount
    pthread_mutex_unlock(mutex)
    for index in 0..<threadCount {
      let threadName = "\(name) \(index + 1)"
      let thread = Thread {
        ThreadName.setForCurrentThread(threadName)
        self.work()
      }
      thread.name = threadName
      thread.start()
    }
  }

  /// Queues a job; an idle thread picks it up.
  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    pthread_mutex_lock(mutex)
    if stopping && liveThreads == 0 {
      pthread_mutex_unlock(mutex)
      let thread = Thread { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
      thread.name = "\(name) (late)"
      thread.start()
      return
    }
    queue.append(job)
    if let owner = batchOwner, pthread_equal(owner, pthread_self()) != 0 {
      // ``endBatch()`` wakes threads for the whole batch.
    } else if idleThreads > wakeupsInFlight {
      // Wake a thread only if an idle one is not already on its way to the queue.
      wakeupsInFlight += 1
      pthread_cond_signal(condition)
    }
    pthread_mutex_unlock(mutex)
  }

  /// Defers the wake-ups for jobs the calling thread enqueues until ``endBatch()``.
  ///
  /// The I/O thread brackets each pass over its ready sockets with these, so a pass that
  /// starts many handlers wakes each idle thread once instead of once per request, and the
  /// woken threads find several jobs queued.
  func beginBatch() {
    pthread_mutex_lock(mutex)
    batchOwner = pthread_self()
    pthread_mutex_unlock(mutex)
  }

  /// Ends the batch: wakes as many idle threads as there are queued jobs.
  func endBatch() {
    pthread_mutex_lock(mutex)
    batchOwner = nil
    var toWake = min(queue.count - head, idleThreads - wakeupsInFlight)
    while toWake > 0 {
      wakeupsInFlight += 1
      pthread_cond_signal(condition)
      toWake -= 1
    }
    pthread_mutex_unlock(mutex)
  }

  /// Counts a handler task in; the threads stay up while any is unfinished.
  ///
  /// Called at the start of the task's body: its first job is already in the queue then, and
  /// the threads never exit while the queue holds a job.
  func taskStarted() {
    activeTasks.add(1, ordering: .relaxed)
  }

  /// Counts a handler task out (called at the end of its body).
  func taskFinished() {
    let left = activeTasks.subtract(1, ordering: .acquiringAndReleasing).newValue
    if left == 0 && stoppingFlag.load(ordering: .acquiring) {
      // Under the mutex, so a thread between its check and its wait cannot miss it.
      pthread_mutex_lock(mutex)
      pthread_cond_broadcast(condition)
      pthread_mutex_unlock(mutex)
    }
  }

  /// Lets the threads exit once the queue is empty and no handler task is unfinished.
  func shutdownWhenIdle() {
    pthread_mutex_lock(mutex)
    stopping = true
    stoppingFlag.store(true, ordering: .releasing)
    pthread_cond_broadcast(condition)
    pthread_mutex_unlock(mutex)
  }

  /// The body of each handler thread.
  private func work() {
    let executor = asUnownedTaskExecutor()
    pthread_mutex_lock(mutex)
    while true {
      if head < queue.count {
        let job = queue[head]
        head += 1
        if head == queue.count {
          queue.removeAll(keepingCapacity: true)
          head = 0
        } else if head >= 1024 && head * 2 >= queue.count {
          queue.removeFirst(head)
          head = 0
        }
        pthread_mutex_unlock(mutex)
        job.runSynchronously(on: executor)
        pthread_mutex_lock(mutex)
        continue
      }
      if stopping && activeTasks.load(ordering: .acquiring) == 0 { break }
      idleThreads += 1
      pthread_cond_wait(condition, mutex)
      idleThreads -= 1
      if wakeupsInFlight > 0 { wakeupsInFlight -= 1 }
    }
    liveThreads -= 1
    pthread_mutex_unlock(mutex)
  }
}
