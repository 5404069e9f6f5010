import Foundation

/// A release: what shipped, when, and which features it carried.
public struct Release: Sendable, Hashable, Identifiable {
  /// The id; 0 in a release not yet created.
  public var id: Int
  /// The title (`2.0`, `Winter update`).
  public var title: String
  /// Release notes in Markdown.
  public var notes: String
  /// When it shipped.
  public var date: Date
  /// The ids of the features it carried.
  public var features: [Int]

  /// Creates a release.
  public init(id: Int = 0, title: String, notes: String = "", date: Date, features: [Int] = []) {
    self.id = id
    self.title = title
    self.notes = notes
    self.date = date
    self.features = features
  }
}
