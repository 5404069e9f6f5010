import Foundation

/// The admin's calls (`Authorization: Bearer` + the configuration's admin token), for tools
/// that import and publish boards. Without a token they fail with
/// ``VoteFirstError/Kind/unauthorized``.
extension VoteFirstHTTPClient {
  /// `GET …/settings` (creates the project when missing).
  public func settings() async throws(VoteFirstError) -> ProjectSettings {
    try await send(.getSettings)
  }

  /// `PUT …/settings`.
  public func putSettings(_ settings: ProjectSettings) async throws(VoteFirstError)
    -> ProjectSettings
  {
    try await send(.putSettings, body: settings)
  }

  /// `PUT …/features/ref/:ref`: creates or changes the feature with this ref.
  public func upsertFeature(ref: String, _ upsert: FeatureUpsert) async throws(VoteFirstError)
    -> Feature
  {
    try await send(.upsertFeature, parameter: ref, body: upsert)
  }

  /// `POST …/features/batch`: many upserts in one transaction.
  public func upsertFeatures(_ features: [FeatureUpsert]) async throws(VoteFirstError)
    -> BatchResult
  {
    try await send(.batchFeatures, body: FeatureBatch(features: features))
  }

  /// `PUT …/features/:id`: replaces the feature's content with `content`, its ref included:
  /// a nil `ref` takes the feature's ref away (it is sent as `"ref": null`; a body without a
  /// `ref` member keeps it).
  public func updateFeature(id: Int, _ content: FeatureContent) async throws(VoteFirstError)
    -> Feature
  {
    try await send(.updateFeature, parameter: String(id), body: WholeContent(content: content))
  }

  /// `DELETE …/features/:id`.
  public func deleteFeature(id: Int) async throws(VoteFirstError) {
    try await sendWithoutAnswer(.deleteFeature, parameter: String(id))
  }

  /// `PUT …/features/:id/imported-votes`: imports `count` votes (the first import sets the
  /// anonymous part, a later one moves it by the change, so votes cast since stay).
  public func setImportedVotes(featureID: Int, count: Int) async throws(VoteFirstError)
    -> VoteState
  {
    try await send(.importedVotes, parameter: String(featureID), body: ImportedVotes(count: count))
  }

  /// `PUT …/features/:id/imported-votes` with `raiseOnly`: raises the anonymous part to
  /// `count` when it holds less, recording `count` as imported; else changes nothing.
  public func raiseImportedVotes(featureID: Int, to count: Int) async throws(VoteFirstError)
    -> VoteState
  {
    try await send(
      .importedVotes, parameter: String(featureID),
      body: ImportedVotes(count: count, raiseOnly: true))
  }

  /// `POST …/stages`.
  public func createStage(_ stage: Stage) async throws(VoteFirstError) -> Stage {
    try await send(.createStage, body: stage)
  }

  /// `POST …/stages?reuse=name`: the board's stage named as `stage` is, created when it has
  /// none (so two callers at once make one stage, not two).
  public func stage(named stage: Stage) async throws(VoteFirstError) -> Stage {
    try await send(.createStage, query: [URLQueryItem(name: "reuse", value: "name")], body: stage)
  }

  /// `PUT …/stages/:id`.
  public func updateStage(_ stage: Stage) async throws(VoteFirstError) -> Stage {
    try await send(.updateStage, parameter: String(stage.id), body: stage)
  }

  /// `DELETE …/stages/:id`.
  public func deleteStage(id: Int) async throws(VoteFirstError) {
    try await sendWithoutAnswer(.deleteStage, parameter: String(id))
  }

  /// `POST …/tags`.
  public func createTag(_ tag: FeatureTag) async throws(VoteFirstError) -> FeatureTag {
    try await send(.createTag, body: tag)
  }

  /// `PUT …/tags/:id`.
  public func updateTag(_ tag: FeatureTag) async throws(VoteFirstError) -> FeatureTag {
    try await send(.updateTag, parameter: String(tag.id), body: tag)
  }

  /// `DELETE …/tags/:id`.
  public func deleteTag(id: Int) async throws(VoteFirstError) {
    try await sendWithoutAnswer(.deleteTag, parameter: String(id))
  }

  /// `PUT …/boards/:slug`.
  public func putBoard(_ board: Board) async throws(VoteFirstError) -> Board {
    try await send(.putBoard, parameter: board.slug, body: board)
  }

  /// `DELETE …/boards/:slug`.
  public func deleteBoard(slug: String) async throws(VoteFirstError) {
    try await sendWithoutAnswer(.deleteBoard, parameter: slug)
  }

  /// `POST …/releases`.
  public func createRelease(_ release: Release) async throws(VoteFirstError) -> Release {
    try await send(.createRelease, body: release)
  }

  /// `PUT …/releases/:id`.
  public func updateRelease(_ release: Release) async throws(VoteFirstError) -> Release {
    try await send(.updateRelease, parameter: String(release.id), body: release)
  }

  /// `DELETE …/releases/:id`.
  public func deleteRelease(id: Int) async throws(VoteFirstError) {
    try await sendWithoutAnswer(.deleteRelease, parameter: String(id))
  }

  /// `GET …/suggestions[?state=]`: every one, read a page of
  /// ``VoteFirstLimits/maxPageSize`` at a time; a cursor the server hands out a second time
  /// is a ``VoteFirstError/Kind/badAnswer`` (the listing would never end).
  public func suggestions(state: Suggestion.State? = nil) async throws(VoteFirstError)
    -> [Suggestion]
  {
    var all: [Suggestion] = []
    var cursor: String?
    // A server that hands out a cursor again would be read without end.
    var cursors: Set<String> = []
    repeat {
      let page = try await suggestionPage(
        state: state, limit: VoteFirstLimits.maxPageSize, cursor: cursor)
      all += page.suggestions
      cursor = page.next
      if let cursor, !cursors.insert(cursor).inserted {
        throw VoteFirstError(
          .badAnswer,
          message: "the suggestions' pages point back to the cursor '\(cursor)': the listing "
            + "would never end")
      }
    } while cursor != nil
    return all
  }

  /// `GET …/suggestions?limit=N[&state=][&cursor=]`: one page, oldest first; pass its `next`
  /// as `cursor` for the following one.
  public func suggestionPage(
    state: Suggestion.State? = nil, limit: Int = VoteFirstLimits.maxPageSize,
    cursor: String? = nil
  ) async throws(VoteFirstError) -> SuggestionList {
    typealias Query = VoteFirstContract.Query
    var query = [URLQueryItem(name: Query.limit, value: String(limit))]
    if let state { query.append(URLQueryItem(name: Query.state, value: state.rawValue)) }
    if let cursor { query.append(URLQueryItem(name: Query.cursor, value: cursor)) }
    return try await send(.listSuggestions, query: query)
  }

  /// `POST …/suggestions/:id/approve`: it becomes a feature (in `stage`, when given), with
  /// `ref` as its ref (`vf-` and its id when nil).
  public func approveSuggestion(id: Int, stage: Int? = nil, ref: String? = nil)
    async throws(VoteFirstError) -> Suggestion
  {
    try await send(
      .approveSuggestion, parameter: String(id),
      body: SuggestionApproval(stage: stage, ref: ref))
  }

  /// `POST …/suggestions/:id/reject`.
  public func rejectSuggestion(id: Int) async throws(VoteFirstError) -> Suggestion {
    try await send(.rejectSuggestion, parameter: String(id))
  }

  /// `GET …/export`.
  public func exportProject() async throws(VoteFirstError) -> ProjectExport {
    try await send(.export)
  }

  /// `POST …/import`: recreates `document` in this (empty) project.
  public func importProject(_ document: ProjectExport) async throws(VoteFirstError)
    -> ImportResult
  {
    try await send(.import, body: document)
  }
}

/// A feature's content with its `ref` always spelled out, `null` when there is none: the body of
/// a `PUT …/features/:id` that replaces the whole content.
private struct WholeContent: Encodable {
  let content: FeatureContent

  private enum Key: CodingKey { case ref }

  func encode(to encoder: any Encoder) throws {
    try content.encode(to: encoder)
    if content.ref == nil {
      var container = encoder.container(keyedBy: Key.self)
      try container.encodeNil(forKey: .ref)
    }
  }
}
