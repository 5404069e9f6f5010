/// An error that knows the answer it becomes, in the error shape of the route that threw it.
///
/// A route body throws one of these (a ``ServiceError``, or a ``Reply`` it built itself) and
/// the wrapper in `CounterService+Router.swift` answers with ``reply(in:)``; any other error
/// goes through ``CounterService/reply(for:request:dialect:routes:)``, where a store
/// failure becomes a 503 and anything unexpected a logged 500. This is how Hummingbird's
/// `HTTPResponseError` works, in our own words.
protocol ResponseError: Error {
  /// The HTTP status of the answer.
  var status: Int { get }

  /// The answer in `dialect`'s error shape (`{"error":…}` or `{"code":…,"message":…}`),
  /// with any headers the error needs (`Retry-After`, `WWW-Authenticate`).
  func reply(in dialect: Dialect) -> Reply
}

extension Reply: ResponseError {
  /// A reply thrown by a route is answered as it is, whatever the dialect.
  func reply(in dialect: Dialect) -> Reply { self }
}
