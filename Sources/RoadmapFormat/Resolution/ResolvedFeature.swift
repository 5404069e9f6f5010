/// A feature as an app user in one language sees it: every localized field resolved.
public struct ResolvedFeature: Sendable, Hashable {
  /// The feature's identifier.
  public var id: String
  /// The title shown; `N/A` in compatible mode when there is none.
  public var title: String
  /// The status shown, or nil for no status.
  public var status: String?
  /// The description shown; empty when there is none.
  public var description: String
  /// Whether the feature is finished (absent reads as false).
  public var isFinished: Bool
  /// The vote count from the file, if any.
  public var votes: Int?
  /// The `language` of the localized item the title was taken from, as written in the file;
  /// nil when the plain field (or `N/A`) is shown.
  public var titleLanguage: String?
  /// The `language` of the localized item the status was taken from; nil for the plain field.
  public var statusLanguage: String?
  /// The `language` of the localized item the description was taken from; nil for the plain
  /// field.
  public var descriptionLanguage: String?

  /// Creates a resolved feature.
  ///
  /// - Parameters:
  ///   - id: identifier.
  ///   - title: title shown.
  ///   - status: status shown.
  ///   - description: description shown.
  ///   - isFinished: finished or not.
  ///   - votes: vote count from the file.
  ///   - titleLanguage: the language of the localized title shown, nil for the plain field.
  ///   - statusLanguage: the language of the localized status shown, nil for the plain field.
  ///   - descriptionLanguage: the language of the localized description shown, nil for the
  ///     plain field.
  public init(
    id: String, title: String, status: String?, description: String, isFinished: Bool,
    votes: Int?, titleLanguage: String? = nil, statusLanguage: String? = nil,
    descriptionLanguage: String? = nil
  ) {
    self.id = id
    self.title = title
    self.status = status
    self.description = description
    self.isFinished = isFinished
    self.votes = votes
    self.titleLanguage = titleLanguage
    self.statusLanguage = statusLanguage
    self.descriptionLanguage = descriptionLanguage
  }
}
