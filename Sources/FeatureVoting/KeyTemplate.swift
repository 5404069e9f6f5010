import Foundation

/// How a feature id becomes a counter key: a template in which `{id}` stands for the id.
///
/// `feature{id}` is the default (the Roadmap package's, so id `1` counts in `feature1`);
/// `feature-{id}` and `{id}` exist in apps. The key is percent-encoded when it goes into a URL,
/// so ids with spaces or slashes reach the server intact.
public struct KeyTemplate: Sendable, Hashable, CustomStringConvertible {
  /// The template text, with exactly one `{id}`.
  public let template: String

  /// `feature{id}`: the Roadmap package's keys.
  public static let roadmapDefault = KeyTemplate(checked: "feature{id}")
  /// `feature-{id}`.
  public static let featureDash = KeyTemplate(checked: "feature-{id}")
  /// `{id}`: the id itself.
  public static let plainID = KeyTemplate(checked: "{id}")

  /// A template; it must contain `{id}` exactly once.
  public init(_ template: String) throws(VotingError) {
    guard template.components(separatedBy: "{id}").count == 2 else {
      throw .invalidRequest(
        "key template '\(template)' must contain {id} exactly once (e.g. feature{id})")
    }
    self.template = template
  }

  private init(checked template: String) { self.template = template }

  /// The key for the feature whose id is `id`.
  public func key(for id: String) -> String {
    template.replacingOccurrences(of: "{id}", with: id)
  }

  /// The template text.
  public var description: String { template }
}
