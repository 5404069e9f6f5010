import Foundation
import HTTPServer
import VoteStore

/// Gathers the votes the server's I/O thread planned in one round and hands them to the
/// store's writer together (``VoteStore/submitBatch(_:completion:)``); the answers come back
/// to the I/O thread together, which builds and sends them.
///
/// So a round of votes costs one hand-over to the writer and one wake-up back, whatever its
/// size, and what each vote's answer is made of is allocated and freed on the I/O thread:
/// nothing per vote crosses between the threads but the plain mutation and its result.
/// Every vote is still answered only once its group commit is durable, each with its own
/// result (a vote that fails answers alone).
///
/// A batch whose votes all succeeded (nearly every one) is answered with less work per vote:
/// the answers of one counter share their encoded common headers, a countapi value is written
/// as bytes without a string, and the batch is counted in the metrics with one lock, before
/// any of its answers goes out. With an access log, or when a vote failed, every answer goes
/// through ``CounterService/complete(_:_:callback:route:start:routes:)`` as any route's does.
final class VoteBatcher: @unchecked Sendable {
  /// A vote waiting for its result: what its answer needs (kept in one array per batch, so a
  /// vote costs no allocation of its own).
  struct Pending: Sendable {
    let request: HTTPRequest
    let route: String
    let dialect: Dialect
    let callback: String?
    let start: Double
    let answer: VoteAnswer
    let responder: HTTPResponder
  }

  private let routes: CounterRoutes
  private let lock = NSLock()
  // Touched only under `lock`: the runtime's exclusivity checks (three per vote) are left out.
  @exclusivity(unchecked) private var mutations: [CounterMutation] = []
  @exclusivity(unchecked) private var pending: [Pending] = []

  /// A batcher that writes to `routes`' store and answers with `routes`' metrics.
  init(routes: CounterRoutes) {
    self.routes = routes
  }

  /// Adds a vote of this round; the first of a round arranges the hand-over at its end.
  func add(_ mutation: consuming CounterMutation, _ vote: consuming Pending) {
    lock.lock()
    let first = pending.isEmpty ? vote.responder : nil
    mutations.append(mutation)
    pending.append(vote)
    lock.unlock()
    first?.afterRound { [self] in flush() }
  }

  /// Hands the votes gathered so far to the store, in one batch.
  func flush() {
    lock.lock()
    let batch = pending
    let changes = mutations
    // New arrays, sized for a round like this one: the old ones go with the batch (keeping
    // their capacity would have copied it into new ones, the largest round's size at every
    // round).
    pending = []
    mutations = []
    pending.reserveCapacity(batch.count)
    mutations.reserveCapacity(batch.count)
    lock.unlock()
    guard let responder = batch.first?.responder else { return }
    let routes = self.routes
    routes.store.submitBatch(changes) { results in
      responder.onIOThread {
        VoteBatcher.answer(batch, changes, results, routes: routes)
      }
    }
  }

  /// Builds and sends the answers of a batch (on the I/O thread).
  ///
  /// One pass over the results counts the applied votes and, while none has failed, builds
  /// the answers (reading each vote's fields in place: copying whole votes and results out of
  /// their arrays was a good part of the cost).
  static func answer(
    _ batch: [Pending], _ changes: [CounterMutation],
    _ results: [Result<MutationResult, VoteStoreError>], routes: CounterRoutes
  ) {
    var applied: Int64 = 0
    var whole =
      results.count >= batch.count && changes.count == batch.count
      && !routes.configuration.accessLog
    var responses: [HTTPResponse] = []
    if whole { responses.reserveCapacity(batch.count) }
    var shared = SharedHeaders()
    for index in results.indices.prefix(batch.count) {
      switch results[index] {
      case .success(let outcome):
        if outcome.outcome == .applied { applied += 1 }
        if whole {
          responses.append(
            response(
              batch, index, outcome, changes[index].namespace, changes[index].key,
              shared: &shared, routes: routes))
        }
      case .failure:
        whole = false
      }
    }
    // The batch's applied votes are counted before any of its answers goes out, so
    // `/metrics` read after an answer has them: with one lock for the batch.
    routes.metrics.recordVotesApplied(applied)
    guard whole else {
      for index in batch.indices {
        answerAlone(
          batch[index], index < results.count ? results[index] : .failure(.closed),
          routes: routes)
      }
      return
    }
    let now = RateLimiter.now()
    // Through buffer pointers, so each vote's fields are read in place, not copied out.
    batch.withUnsafeBufferPointer { votes in
      responses.withUnsafeBufferPointer { answers in
        let lines = routes.metrics.recordRequests(votes.count, now: now) { index in
          (votes[index].route, answers[index].status, now - votes[index].start)
        }
        for line in lines { routes.configuration.log(line) }
        for index in votes.indices { votes[index].responder.respond(answers[index]) }
      }
    }
  }

  /// What every countapi value answer starts with.
  private static let valuePrefix = Array(#"{"value":"#.utf8)

  /// The common headers of the answer given last in a batch, to give again to the next answer
  /// of the same counter and content type without asking the cache.
  private struct SharedHeaders {
    var namespace = ""
    var key = ""
    var contentType = ""
    var headers: HTTPHeaders?

    /// The headers for the counter `key` in `namespace` and `contentType`, from `cache` when
    /// they are not the ones given last.
    mutating func headers(
      _ namespace: String, _ key: String, _ contentType: String, cache: CommonHeaderCache
    ) -> HTTPHeaders {
      if let headers, self.key == key, self.namespace == namespace,
        self.contentType == contentType
      {
        return headers
      }
      let made = cache.headers(.counter(namespace: namespace, key: key), contentType: contentType)
      (self.namespace, self.key, self.contentType, headers) = (namespace, key, contentType, made)
      return made
    }
  }

  /// The answer of vote `index` of `batch`, which succeeded with `outcome`, as
  /// ``CounterService/complete(_:_:callback:route:start:routes:)`` builds it (without counting
  /// it: the batch is counted at once).
  ///
  /// The `X-Path` of a vote route is its counter's: `/namespace/key`, the names the vote's
  /// mutation was made of.
  private static func response(
    _ batch: [Pending], _ index: Int, _ outcome: MutationResult, _ namespace: String,
    _ key: String, shared: inout SharedHeaders, routes: CounterRoutes
  ) -> HTTPResponse {
    let callback = batch[index].callback
    let reply: Reply
    switch batch[index].answer {
    case .countapiValue:
      // The commonest answer: `{"value":N}` written straight as bytes.
      let contentType = callback == nil ? Reply.jsonType : CounterService.javascriptType
      var body: [UInt8] = []
      body.reserveCapacity(32 + (callback?.utf8.count ?? 0))
      if let callback {
        body.append(contentsOf: "/**/".utf8)
        body.append(contentsOf: callback.utf8)
        body.append(UInt8(ascii: "("))
      }
      body.append(contentsOf: valuePrefix)
      JSONText.appendDecimal(outcome.record?.value ?? 0, to: &body)
      body.append(UInt8(ascii: "}"))
      if callback != nil { body.append(contentsOf: ");".utf8) }
      return HTTPResponse(
        status: 200,
        headers: shared.headers(namespace, key, contentType, cache: routes.headerCache),
        body: body)
    case .counterapiRow:
      reply = batch[index].answer.reply(outcome)
    }
    guard reply.headers.isEmpty else {
      // Not a vote's answer so far; answered the general way, should one ever carry fields.
      return CounterService.response(
        batch[index].request, reply, callback: callback, routes: routes)
    }
    let wrapped = callback != nil && reply.wrappable
    let contentType = wrapped ? CounterService.javascriptType : reply.contentType
    let (status, body) =
      wrapped ? CounterService.jsonp(reply, callback: callback!) : (reply.status, reply.body)
    return HTTPResponse(
      status: status,
      headers: shared.headers(namespace, key, contentType, cache: routes.headerCache),
      body: Array(body.utf8))
  }

  /// Builds and sends one vote's answer, counted and logged on its own.
  private static func answerAlone(
    _ vote: Pending, _ result: Result<MutationResult, VoteStoreError>, routes: CounterRoutes
  ) {
    let reply: Reply
    switch result {
    case .success(let outcome): reply = vote.answer.reply(outcome)
    case .failure(let error):
      reply = CounterService.answer(error, vote.request, dialect: vote.dialect, routes: routes)
    }
    vote.responder.respond(
      CounterService.complete(
        vote.request, reply, callback: vote.callback, route: vote.route, start: vote.start,
        routes: routes))
  }
}
