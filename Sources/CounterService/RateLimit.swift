/// One token-bucket limit: how many requests a client may make in a burst and how fast the
/// allowance refills.
public struct RateLimit: Sendable, Equatable {
  /// The most requests a client may make at once, after being idle.
  public var burst: Double
  /// How many requests per second the allowance refills.
  public var perSecond: Double

  /// Creates a limit. A `perSecond` of zero or less means "unlimited".
  public init(burst: Double, perSecond: Double) {
    self.burst = burst
    self.perSecond = perSecond
  }

  /// No limit at all.
  public static let unlimited = RateLimit(burst: 0, perSecond: 0)

  /// Whether this limit lets everything through.
  public var isUnlimited: Bool { perSecond <= 0 || burst <= 0 }

  /// A limit of `perMinute` requests a minute with a burst of half a minute's worth
  /// (at least one); 0 means unlimited.
  public static func perMinute(_ perMinute: Int) -> RateLimit {
    guard perMinute > 0 else { return .unlimited }
    return RateLimit(burst: max(1, Double(perMinute) / 2), perSecond: Double(perMinute) / 60)
  }

  /// A limit of `perDay` a day, all of which may be used at once after a quiet day (the
  /// allowance refills evenly over the day); 0 means unlimited.
  public static func perDay(_ perDay: Int) -> RateLimit {
    guard perDay > 0 else { return .unlimited }
    return RateLimit(burst: Double(perDay), perSecond: Double(perDay) / 86_400)
  }
}
