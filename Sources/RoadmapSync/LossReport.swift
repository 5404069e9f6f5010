/// Everything a mapping could not carry, or carried only in part: which field of which feature,
/// and why. A mapping never drops anything without an entry here.
public struct LossReport: Sendable, Hashable {
  /// One field of one feature that did not travel as it was.
  public struct Entry: Sendable, Hashable, CustomStringConvertible {
    /// How much of it was lost.
    public enum Kind: String, Sendable, Hashable {
      /// Not carried at all: it is missing on the other side.
      case dropped
      /// Carried for the way back (the Roadmap JSON published again holds it exactly), but
      /// VoteFirst shows it differently (a title cut to its limit, negative votes shown as 0).
      case altered
    }

    /// The Roadmap id of the feature (or the VoteFirst id, `#12`, for a feature without one).
    public var feature: String
    /// The field (`title`, `votes`, `extra.url`, `localizedTitle`) or `feature` for all of it.
    public var field: String
    /// How much was lost.
    public var kind: Kind
    /// Why, in words.
    public var reason: String

    /// Creates an entry.
    public init(feature: String, field: String, kind: Kind, reason: String) {
      self.feature = feature
      self.field = field
      self.kind = kind
      self.reason = reason
    }

    /// `feature 7, title (altered): …`.
    public var description: String {
      "feature \(feature), \(field) (\(kind.rawValue)): \(reason)"
    }
  }

  /// The entries, in feature order.
  public var entries: [Entry]

  /// Creates a report.
  public init(entries: [Entry] = []) {
    self.entries = entries
  }

  /// Whether nothing was lost or altered.
  public var isEmpty: Bool { entries.isEmpty }

  /// The entries of features that could not be carried at all.
  public var droppedFeatures: [String] {
    entries.filter { $0.field == "feature" && $0.kind == .dropped }.map(\.feature)
  }

  /// Adds the entries of `other`.
  public mutating func append(contentsOf other: LossReport) {
    entries.append(contentsOf: other.entries)
  }
}
