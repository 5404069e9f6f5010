/// The bytes a counter key may hold under `roadmapctl serve`'s name rule, `[A-Za-z0-9_\-.]`:
/// shared by the validator's key checks and the counting-API client's batch reads, so the two
/// never disagree on which keys the batch route takes.
package enum CounterKeyBytes {
  /// Whether `byte` may appear in a counter key (never `,`, the batch route's list separator,
  /// nor `/`).
  package static func isAllowed(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"),
      UInt8(ascii: "."):
      return true
    default:
      return false
    }
  }
}
