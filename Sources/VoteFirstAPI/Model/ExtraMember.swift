/// One key of a Roadmap JSON feature that VoteFirst has no field for, kept exactly.
///
/// `json` is the value's JSON text (`"https://…"`, `1.50`, `{"a":[1]}`), so numbers keep their
/// digits and objects their key order across a move.
public struct ExtraMember: Sendable, Hashable {
  /// The key.
  public var key: String
  /// The value as JSON text.
  public var json: String

  /// Creates a member.
  public init(key: String, json: String) {
    self.key = key
    self.json = json
  }
}
