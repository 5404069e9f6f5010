/// Any JSON value, keeping object key order and the exact text of numbers.
///
/// Used for keys the Roadmap format does not define (`url`, `date`, anything an app added), so
/// that they survive a read and a write unchanged.
public indirect enum JSONValue: Sendable, Hashable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number, kept as the exact text of the source (`1.50`, `1e3`).
  case number(String)
  /// A string, unescaped.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object, with its members in source order.
  case object(JSONObject)
}
