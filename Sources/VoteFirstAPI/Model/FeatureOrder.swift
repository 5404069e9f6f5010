/// How `GET …/features` orders its answer.
public struct FeatureOrder: RawRepresentable, Sendable, Hashable, CaseIterable,
  CustomStringConvertible
{
  /// The wire name.
  public var rawValue: String
  /// Creates an order from its wire name.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// Most votes first.
  public static let top = FeatureOrder(rawValue: "top")
  /// `votes / (ageDays + 2)^1.5`, highest first.
  public static let trending = FeatureOrder(rawValue: "trending")
  /// Newest first.
  public static let newest = FeatureOrder(rawValue: "newest")
  /// Most comments first.
  public static let discussed = FeatureOrder(rawValue: "discussed")

  /// Every order the contract defines.
  public static let allCases: [FeatureOrder] = [.top, .trending, .newest, .discussed]

  /// The wire name.
  public var description: String { rawValue }
}
