#if canImport(CEpoll)
  import CEpoll
#endif
#if canImport(Glibc)
  import Glibc
#endif

/// The answers of one I/O round, sent together in one system call (io_uring) at the end of
/// the round instead of one `send(2)` each as they are made.
///
/// Why: on a machine where the clients run too (a load generator, a sidecar), each `send` wakes
/// a client that the kernel puts on the sender's CPU, which preempts the I/O thread at the
/// system call's return: the loop and its clients then take turns one answer at a time. One
/// submission for the whole round lets every answer go out before any client runs, and saves a
/// system call per answer besides.
///
/// Each send is non-blocking (`MSG_DONTWAIT | MSG_NOSIGNAL`) and done before the submission
/// returns, with send(2)'s result; the loop handles what was not taken exactly as after a
/// short `send`. Where io_uring is missing or refused (another kernel, a seccomp filter),
/// ``make()`` gives nil and answers go out one `send` each.
///
/// Only the loop's thread touches it, one access at a time, so its variables skip the
/// runtime's exclusivity checks (`@exclusivity(unchecked)`, as in ``EventLoop``).
final class SendBatch {
  /// One connection's bytes in ``bytes``.
  struct Segment {
    let connection: Connection
    let start: Int
    let count: Int
  }

  @exclusivity(unchecked) private var segments: [Segment] = []
  @exclusivity(unchecked) private var bytes: [UInt8] = []
  #if canImport(CEpoll)
    /// Nil once a submission failed: the batch is then out of use for good.
    @exclusivity(unchecked) private var ring: OpaquePointer?
  #endif
  /// How many answers one submission holds (the ring's size).
  let capacity: Int
  /// How many submissions went to the kernel so far.
  @exclusivity(unchecked) private(set) var submissions = 0

  #if canImport(CEpoll)
    private init(ring: OpaquePointer) {
      self.ring = ring
      capacity = Int(cepoll_uring_capacity(ring))
      bytes.reserveCapacity(64 * 1024)
      segments.reserveCapacity(capacity)
    }

    deinit { if let ring { cepoll_uring_destroy(ring) } }
  #endif

  /// A batch, or nil where io_uring cannot be used (then answers are sent one by one).
  static func make(entries: Int = 256) -> SendBatch? {
    #if canImport(CEpoll) && os(Linux)
      var error: Int32 = 0
      guard let ring = cepoll_uring_create(UInt32(entries), &error) else { return nil }
      return SendBatch(ring: ring)
    #else
      return nil
    #endif
  }

  /// The largest answer batched: a larger one goes out with its own `send` (copying it
  /// would cost more than the system call it saves).
  static let maximumSegmentBytes = 64 * 1024

  /// Whether `connection`'s pending output is small enough to batch.
  func takes(_ connection: Connection) -> Bool {
    connection.output.count - connection.outputOffset <= Self.maximumSegmentBytes
  }

  var isEmpty: Bool { segments.isEmpty }
  #if canImport(CEpoll)
    /// Points the ring's descriptor at `/dev/null`, so its next submission fails (for tests
    /// of that path).
    func breakRingForTesting() {
      guard let ring else { return }
      let null = open("/dev/null", O_RDONLY)
      _ = dup2(null, cepoll_uring_descriptor(ring))
      close(null)
    }
  #endif

  /// False once a submission failed (answers then go out one `send` each).
  var isUsable: Bool {
    #if canImport(CEpoll)
      ring != nil
    #else
      false
    #endif
  }
  var isFull: Bool { segments.count >= capacity }

  /// Takes what `connection` has left to send into the batch (the connection's buffer is then
  /// drained, so the loop reuses it).
  func add(_ connection: Connection) {
    let pending = connection.output.count - connection.outputOffset
    guard pending > 0 else { return }
    let start = bytes.count
    bytes.append(contentsOf: connection.output[connection.outputOffset...])
    connection.outputOffset = connection.output.count
    segments.append(Segment(connection: connection, start: start, count: pending))
  }

  /// Sends every segment whose connection `isLive`, then calls `sent(connection, rest)` for
  /// each segment, in order, with the bytes the socket did not take (all of them after an
  /// error or `EAGAIN`: the caller's own `send` then meets the same and handles it), and
  /// empties the batch. A segment whose connection is no longer live is not sent.
  func send(
    isLive: (Connection) -> Bool, then sent: (Connection, ArraySlice<UInt8>) -> Void
  ) {
    var taken = [Int](repeating: 0, count: segments.count)
    #if canImport(CEpoll)
      bytes.withUnsafeBytes { raw in
        guard let ring else { return }
        var queued = 0
        for (index, segment) in segments.enumerated() where isLive(segment.connection) {
          guard
            cepoll_uring_queue_send(
              ring, segment.connection.fd, raw.baseAddress! + segment.start,
              UInt32(segment.count), UInt64(index)) == 0
          else { break }
          queued += 1
        }
        guard queued > 0 else { return }
        let submitted = cepoll_uring_submit(ring)
        submissions += 1
        var tag: UInt64 = 0
        var result: Int32 = 0
        while cepoll_uring_next(ring, &tag, &result) == 1 {
          if Int(tag) < taken.count { taken[Int(tag)] = max(0, Int(result)) }
        }
        if submitted != Int32(queued) {
          // The kernel took fewer than asked (or none): what it did not take must never run
          // later over reused bytes, so the ring goes, and answers go out one `send` each.
          cepoll_uring_destroy(ring)
          self.ring = nil
        }
      }
    #endif
    for (index, segment) in segments.enumerated() {
      let rest = bytes[
        (segment.start + min(taken[index], segment.count))..<(segment.start + segment.count)]
      sent(segment.connection, rest)
    }
    segments.removeAll(keepingCapacity: true)
    if bytes.capacity > 1 << 20 {
      bytes = []
      bytes.reserveCapacity(64 * 1024)
    } else {
      bytes.removeAll(keepingCapacity: true)
    }
  }
}
