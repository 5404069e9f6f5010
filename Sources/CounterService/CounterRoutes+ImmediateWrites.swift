import HTTPServer
import VoteStore

/// A vote the I/O thread can hand straight to the store's writer
/// (``VoteStore/submitBatch(_:completion:)``), skipping the handler threads: what to write,
/// and how its result is answered.
struct ImmediateWrite: Sendable {
  /// The change.
  var mutation: CounterMutation
  /// How the change's result is answered.
  var answer: VoteAnswer
  /// Whether the change makes a new counter (the store's memory knows it is missing), which
  /// ``CounterCreationGuard/take(_:_:namespace:key:now:)`` must allow once the request is past its rate
  /// limit.
  var creates = false
}

/// How a vote's result is answered, by dialect (plain data: no closure per vote).
enum VoteAnswer: Sendable {
  /// countapi's `{"value":N}`.
  case countapiValue
  /// counterapi's row, or its "record not found".
  case counterapiRow

  /// The reply to `result` (whoever answers it counts an applied vote in the metrics:
  /// ``VoteBatcher`` does, once per batch).
  func reply(_ result: MutationResult) -> Reply {
    switch self {
    case .countapiValue:
      return CounterRoutes.value(result.record?.value ?? 0)
    case .counterapiRow:
      return result.record.map { .json(CounterRoutes.row($0)) } ?? CounterRoutes.notFound
    }
  }
}

/// What a writing route decided on the I/O thread: answer now, or write.
enum ImmediatePlan: Sendable {
  /// Answered without a write (a bad name, a refused change).
  case reply(Reply)
  /// Hand the change to the store.
  case write(ImmediateWrite)
}

/// The votes (`/hit`, counterapi's `/up` and `/down`) planned on the I/O thread when the
/// store's memory knows the counter; nil when it does not (the ordinary route then answers).
extension CounterRoutes {
  /// `/hit/:ns/:key`, as ``countapiHit(_:)`` answers it.
  func countapiHitPlan(_ request: HTTPRequest) -> ImmediatePlan? {
    votePlan(request, .countapi, delta: 1, answer: .countapiValue)
  }

  /// `/v1/:ns/:name/up` and `/down`, as ``counterapiStep(_:up:)`` answers them.
  func counterapiStepPlan(_ request: HTTPRequest, up: Bool) -> ImmediatePlan? {
    votePlan(request, .counterapi, delta: up ? 1 : -1, answer: .counterapiRow)
  }

  private func votePlan(
    _ request: HTTPRequest, _ dialect: Dialect, delta: Int64, answer: VoteAnswer
  ) -> ImmediatePlan? {
    // `names(_:_:)`'s rule, without its result wrapped and unwrapped (this runs per vote).
    let namespace = request.parameter("ns") ?? CounterRoutes.defaultNamespace
    let key = request.parameter("key") ?? request.parameter("name") ?? ""
    if let problem = NameRules.problem(namespace, key) {
      return .reply(dialect.error(400, problem))
    }
    if NameRules.hasEmptyInnerSegment(request.target) {
      return .reply(dialect.error(400, NameRules.emptySegmentRule))
    }
    // Anonymous where anonymity is allowed (most votes): nothing for `voter(_:_:forWrite:)`
    // to check.
    var voterID: String?
    if request.headers["X-Voter-ID"] != nil || request.query("voter") != nil
      || configuration.requireVoter
    {
      var fail: Reply?
      guard let given = voter(request, dialect, forWrite: true).unwrap(into: &fail) else {
        return .reply(fail!)
      }
      voterID = given
    }
    guard let known = store.cachedRecord(namespace: namespace, key: key) else { return nil }
    var record: CounterRecord?
    if case .found(let found) = known { record = found }
    if let refusal = CounterRoutes.rangeRefusal(record, delta: delta, checkBounds: false) {
      return .reply(refusal.reply(in: dialect))
    }
    // A new counter: the store's room is looked at here (its count, when it must be read
    // first, by the ordinary route); the client's allowance is taken once the request is
    // past its rate limit (CounterService.runImmediateWrite).
    // A key another request is making already is a vote on that counter: no new one.
    var creates = false
    if record == nil, creations.isActive {
      if isAdmin(request) {
        creations.noteMade(namespace: namespace, key: key)
      } else if !creations.isClaimed(namespace: namespace, key: key) {
        switch creations.room() {
        case .room: creates = true
        case .full: return .reply(creations.fullReply(dialect))
        case .unknown: return nil
        }
      }
    }
    return .write(
      ImmediateWrite(
        mutation: CounterMutation(
          namespace: namespace, key: key, delta: delta, voter: voterID, checkBounds: false,
          createIfMissing: voteCreation(namespace, key)),
        answer: answer, creates: creates))
  }
}
