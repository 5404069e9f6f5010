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
final class VoteBatcher: @unchecked Sendable {
  /// A vote waiting for its result: what its answer needs (a class: it is passed along
  /// whole, and copying a reference is one retain).
  final class Pending: Sendable {
    let request: HTTPRequest
    let route: String
    let dialect: Dialect
    let callback: String?
    let start: Double
    let answer: VoteAnswer
    let responder: HTTPResponder

    init(
      request: HTTPRequest, route: String, dialect: Dialect, callback: String?, start: Double,
      answer: VoteAnswer, responder: HTTPResponder
    ) {
      self.request = request
      self.route = route
      self.dialect = dialect
      self.callback = callback
      self.start = start
      self.answer = answer
      self.responder = responder
    }
  }

  private let routes: CounterRoutes
  private let lock = NSLock()
  private var mutations: [CounterMutation] = []
  private var pending: [Pending] = []

  /// A batcher that writes to `routes`' store and answers with `routes`' metrics.
  init(routes: CounterRoutes) {
    self.routes = routes
  }

  /// Adds a vote of this round; the first of a round arranges the hand-over at its end.
  func add(_ mutation: consuming CounterMutation, _ vote: Pending) {
    lock.lock()
    mutations.append(mutation)
    pending.append(vote)
    let first = pending.count == 1
    lock.unlock()
    if first { vote.responder.afterRound { [self] in flush() } }
  }

  /// Hands the votes gathered so far to the store, in one batch.
  func flush() {
    lock.lock()
    let batch = pending
    let changes = mutations
    pending.removeAll(keepingCapacity: true)
    mutations.removeAll(keepingCapacity: true)
    lock.unlock()
    guard let first = batch.first else { return }
    let routes = self.routes
    routes.store.submitBatch(changes) { results in
      first.responder.onIOThread {
        // The batch's applied votes are counted before any of its answers goes out, so
        // `/metrics` read after an answer has them: with one lock for the batch.
        var applied: Int64 = 0
        for case .success(let result) in results.prefix(batch.count)
        where result.outcome == .applied {
          applied += 1
        }
        routes.metrics.recordVotesApplied(applied)
        for (index, vote) in batch.enumerated() {
          let result = index < results.count ? results[index] : .failure(.closed)
          VoteBatcher.answer(vote, result, routes: routes)
        }
      }
    }
  }

  /// Builds and sends one vote's answer.
  private static func answer(
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
