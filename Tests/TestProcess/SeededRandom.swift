/// A small deterministic generator (SplitMix64) with the draws the traffic generators use, so a
/// seed gives the same requests on every run and machine.
public struct SeededRandom: Sendable {
  private var state: UInt64

  /// A generator whose draws follow from `seed`.
  public init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound`.
  public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

  /// True `percent` times in a hundred.
  public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

  /// One of `items`.
  public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}
