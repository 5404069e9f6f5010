import HTTPServer
import VoteStore

/// The one-counter reads (`/get`, `/info`, counterapi's `/v1/:ns/:name`), answered from the
/// store or, on the I/O thread, from the store's memory.
extension CounterRoutes {
  /// Reads the named counter and answers with `answer` (nil: the counter does not exist).
  func read(
    _ request: HTTPRequest, _ dialect: Dialect, answer: (CounterRecord?) -> Reply
  ) async throws -> Reply {
    var fail: Reply?
    guard let (namespace, key) = names(request, dialect).unwrap(into: &fail) else {
      return fail!
    }
    return answer(try await store.record(namespace: namespace, key: key))
  }

  /// ``read(_:_:answer:)`` when the store's memory knows the counter; nil when it does not
  /// (the request then goes to the handler threads and ``read(_:_:answer:)``). A bad name is
  /// answered here too: it needs no store.
  func readImmediately(
    _ request: HTTPRequest, _ dialect: Dialect, answer: (CounterRecord?) -> Reply
  ) -> Reply? {
    var fail: Reply?
    guard let (namespace, key) = names(request, dialect).unwrap(into: &fail) else {
      return fail!
    }
    switch store.cachedRecord(namespace: namespace, key: key) {
    case .found(let record)?: return answer(record)
    case .missing?: return answer(nil)
    case nil: return nil
    }
  }
}
