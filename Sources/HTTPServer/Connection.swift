/// One client connection as the event loop holds it: the socket, the bytes on their way out,
/// and the ``ConnectionStateMachine`` that decides everything else.
///
/// An idle connection holds no buffer: bytes are read into the loop's one read buffer, the
/// parser and the machine let go of theirs once a request is parsed, and a response is
/// written from the loop's one output buffer, borrowed for the write
/// (``borrowOutput(_:)``) and given back once it has all gone out (``returnOutput(_:)``).
/// Only a response the socket would not take whole keeps a buffer of its own until it
/// drains. What stays is this object, a few hundred bytes, with the stored properties
/// ordered so the small ones fill the padding of the large ones. Only the loop's thread
/// touches it, one access at a time, so its variables skip the runtime's exclusivity checks
/// (`@exclusivity(unchecked)`: each access cost a call and a lookup, dozens per request).
final class Connection {
  let id: UInt64
  let peer: String
  /// What the connection counts as for the per-address limit (nil: not counted).
  let limitKey: String?
  @exclusivity(unchecked) var machine: ConnectionStateMachine

  /// The response bytes not yet written, from `outputOffset`.
  @exclusivity(unchecked) var output: [UInt8] = []
  @exclusivity(unchecked) var outputOffset = 0
  /// When the machine's timer fires (0: none).
  @exclusivity(unchecked) var timerAt: UInt64 = 0
  let fd: Int32
  /// What the poller watches the socket for.
  @exclusivity(unchecked) var watchingRead = true
  @exclusivity(unchecked) var watchingWrite = false
  /// Its answer waits in the round's ``SendBatch``; anything written meanwhile goes after it.
  @exclusivity(unchecked) var inSendBatch = false

  /// The largest output buffer given back to the loop for the next write; a larger one (a
  /// big response) is freed.
  static let maxSharedOutputBytes = 64 * 1024

  init(
    fd: Int32, id: UInt64, peer: String, limitKey: String?, limits: HTTPParserLimits,
    timeouts: ConnectionStateMachine.Timeouts
  ) {
    self.fd = fd
    self.id = id
    self.peer = peer
    self.limitKey = limitKey
    self.machine = ConnectionStateMachine(limits: limits, timeouts: timeouts)
  }

  /// True when there is nothing left to write.
  var outputDrained: Bool { outputOffset >= output.count }

  /// Takes the loop's shared output buffer `scratch` when the connection holds none, so
  /// what it writes next reuses memory already there instead of allocating its own.
  func borrowOutput(_ scratch: inout [UInt8]) {
    guard output.capacity == 0 else { return }
    swap(&output, &scratch)
  }

  /// Once everything written has gone out, hands the output buffer back to the loop as
  /// `scratch` (or frees it, when the loop already has one or it grew beyond
  /// ``maxSharedOutputBytes``), leaving the connection with none. A response still being
  /// written keeps its buffer.
  func returnOutput(_ scratch: inout [UInt8]) {
    guard outputDrained, output.capacity > 0 else { return }
    outputOffset = 0
    if scratch.capacity == 0 && output.capacity <= Connection.maxSharedOutputBytes {
      if !output.isEmpty { output.removeAll(keepingCapacity: true) }
      swap(&output, &scratch)
    } else {
      output = []
    }
  }

  /// The heap bytes the connection holds beyond the object itself: its output buffer and
  /// its machine's (0 while idle).
  var heldBytes: Int { output.capacity + machine.heldBytes }
}
