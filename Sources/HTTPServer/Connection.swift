/// One client connection as the event loop holds it: the socket, the bytes on their way out,
/// and the ``ConnectionStateMachine`` that decides everything else.
final class Connection {
  let fd: Int32
  let id: UInt64
  let peer: String
  /// What the connection counts as for the per-address limit (nil: not counted).
  let limitKey: String?
  var machine: ConnectionStateMachine

  /// The response bytes not yet written, from `outputOffset`.
  var output: [UInt8] = []
  var outputOffset = 0
  /// When the machine's timer fires (0: none).
  var timerAt: UInt64 = 0
  /// What the poller watches the socket for.
  var watchingRead = true
  var watchingWrite = false

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
}
