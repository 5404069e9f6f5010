import VoteFirstAPI

/// Where the web board reads a project's board: the same store and service code the board
/// API answers from, so the page and the API never disagree.
///
/// A missing project, board or feature is `nil`; a failure is thrown (a ``WebBoardError``
/// says how the page answers it, anything else is a store failure, 503).
public protocol WebBoardSource: Sendable {
  /// The board `slug` of `project` as `GET …/board?board=SLUG` gives it; nil when the project
  /// or a public board of that slug does not exist.
  func board(project: String, slug: String) async throws -> BoardSnapshot?

  /// One page of `GET …/features` for `query`, with `voted` for `voter`.
  func features(project: String, query: FeatureQuery, voter: String?) async throws -> FeaturePage

  /// `GET …/features/:id` with `voted` for `voter`; nil when there is no such feature.
  func feature(project: String, id: Int, voter: String?) async throws -> Feature?

  /// `GET …/releases`: every release, newest first.
  func releases(project: String) async throws -> [Release]
}
