/// What an ``EventLoop``'s open connections hold at one moment between two events, taken on
/// the loop's thread (``EventLoop/snapshot()``): for tests and diagnostics of the server's
/// memory per connection.
struct ConnectionsSnapshot: Sendable {
  /// One open connection.
  struct Entry: Sendable {
    /// The connection's id (in accept order).
    var id: UInt64
    /// Where its machine is.
    var state: ConnectionStateMachine.State
    /// The heap bytes it holds beyond its object: output, pending bytes, the parser's
    /// request in progress (``Connection/heldBytes``).
    var heldBytes: Int

    init(_ connection: Connection) {
      id = connection.id
      state = connection.machine.state
      heldBytes = connection.heldBytes
    }
  }

  /// Every open connection, in descriptor order.
  var connections: [Entry]
  /// The capacity of the output buffer the loop lends to the connection writing.
  var sharedOutputBytes: Int
  /// How many rounds' answers went out together in one submission so far (``SendBatch``; 0
  /// where answers go out one `send` each).
  var sentBatches = 0
  /// How many rounds the loop has run so far, asleep in `epoll_wait` or polling.
  var rounds = 0
  /// How many times an answer or a task coming back from another thread had to wake the
  /// loop through its pipe (none while it polls: ``HTTPServerConfiguration/busyPoll``).
  var answerWakeUps = 0
  /// Answers being made off the loop thread at that moment.
  var outstandingAnswers = 0
}
