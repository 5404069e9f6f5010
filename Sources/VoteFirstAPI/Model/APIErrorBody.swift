/// The body of every failure: `{"error":{"code","message","field"}}`.
public struct APIErrorBody: Sendable, Hashable, Error {
  /// The stable code (`feature_not_found`, `voting_disabled_stage`, …).
  public var code: String
  /// A sentence for people.
  public var message: String
  /// The JSON path or parameter at fault, for validation failures.
  public var field: String?

  /// Creates an error body.
  public init(code: String, message: String, field: String? = nil) {
    self.code = code
    self.message = message
    self.field = field
  }
}
