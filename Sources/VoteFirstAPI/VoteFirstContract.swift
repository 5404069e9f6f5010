import Foundation

// The whole VoteFirst contract of docs/votefirst-api.md in one file: every route, header,
// query parameter, error code and JSON key. Matching VoteFirst's real endpoints later is a
// change to this file only.

/// The VoteFirst wire contract: routes, headers, query parameters and error codes.
///
/// The Codable conformances of every wire type, with every JSON key, follow in this file.
public enum VoteFirstContract {
  /// The path every route starts with, before the project.
  public static let prefix = "/api/v1"
  /// The slug of the roadmap board (`Board.roadmapSlug`).
  public static let roadmapBoard = Board.roadmapSlug
  /// The counter key prefix of a feature without a ref: U+001F, which no ref holds, then `vf`.
  public static let refLessKeyPrefix = "\u{1F}vf"

  /// The counter key of the feature `id` with `ref` under the project's `settings`.
  public static func counterKey(ref: String?, id: Int, settings: ProjectSettings) -> String {
    guard let ref else { return refLessKeyPrefix + String(id) }
    return settings.voteKey(ref: ref)
  }

  /// Header names.
  public enum Header {
    /// The voter's id.
    public static let voterID = "X-Voter-ID"
    /// The API key a hosted service needs.
    public static let apiKey = "X-API-Key"
    /// `Bearer TOKEN` for admin calls.
    public static let authorization = "Authorization"
    /// Seconds to wait, on 429 and 503.
    public static let retryAfter = "Retry-After"
    /// The body's type.
    public static let contentType = "Content-Type"
    /// The body type of every request and answer.
    public static let json = "application/json"
  }

  /// Query parameter names.
  public enum Query {
    /// A board slug.
    public static let board = "board"
    /// A stage id.
    public static let stage = "stage"
    /// A tag id.
    public static let tag = "tag"
    /// Text to search for.
    public static let search = "q"
    /// The order.
    public static let order = "order"
    /// The page size.
    public static let limit = "limit"
    /// The next page's cursor.
    public static let cursor = "cursor"
    /// The voter id, for clients that cannot set headers.
    public static let voter = "voter"
    /// A suggestion state.
    public static let state = "state"
  }

  /// The stable error codes.
  public enum ErrorCode {
    /// 400: the body is not JSON of the expected shape.
    public static let invalidJSON = "invalid_json"
    /// 400: a malformed query parameter or path segment.
    public static let invalidParameter = "invalid_parameter"
    /// 400: a cursor not handed out for this order.
    public static let invalidCursor = "invalid_cursor"
    /// 400: a vote without a voter id.
    public static let missingVoter = "missing_voter"
    /// 400: a malformed voter id.
    public static let invalidVoter = "invalid_voter"
    /// 401: an admin call without a token.
    public static let unauthorized = "unauthorized"
    /// 403: an admin call with the wrong token.
    public static let forbidden = "forbidden"
    /// 403: voting is off for the project.
    public static let votingDisabledProject = "voting_disabled_project"
    /// 403: voting is off for the feature's board.
    public static let votingDisabledBoard = "voting_disabled_board"
    /// 403: voting is off for the feature's stage (or the feature is finished).
    public static let votingDisabledStage = "voting_disabled_stage"
    /// 403: the project accepts no suggestions.
    public static let suggestionsDisabled = "suggestions_disabled"
    /// 404: no such project.
    public static let projectNotFound = "project_not_found"
    /// 404: no such (public) board.
    public static let boardNotFound = "board_not_found"
    /// 404: no such feature.
    public static let featureNotFound = "feature_not_found"
    /// 404: no such stage.
    public static let stageNotFound = "stage_not_found"
    /// 404: no such tag.
    public static let tagNotFound = "tag_not_found"
    /// 404: no such release.
    public static let releaseNotFound = "release_not_found"
    /// 404: no such suggestion.
    public static let suggestionNotFound = "suggestion_not_found"
    /// 404: no such route.
    public static let notFound = "not_found"
    /// 405: the route exists, not for this method.
    public static let methodNotAllowed = "method_not_allowed"
    /// 409: two features of one batch share a ref.
    public static let refConflict = "ref_conflict"
    /// 409: an import into a project that is not empty.
    public static let projectNotEmpty = "project_not_empty"
    /// 409: deleting a stage features still use.
    public static let stageInUse = "stage_in_use"
    /// 409: a stage written with the name another stage of its board has (`field`: `name`).
    public static let stageNameTaken = "stage_name_taken"
    /// 409: deleting a tag features still use.
    public static let tagInUse = "tag_in_use"
    /// 409: deleting a board that holds features or columns.
    public static let boardInUse = "board_in_use"
    /// 409: a suggestion already approved or rejected.
    public static let alreadyDecided = "already_decided"
    /// 409: a concurrent change to the same data got in first and the store could not
    /// make this one fit after it; nothing was changed, and the same call may succeed again.
    public static let conflict = "conflict"
    /// 413: a batch or body too large.
    public static let tooLarge = "too_large"
    /// 422: a value breaks a limit or is missing.
    public static let validationFailed = "validation_failed"
    /// 429: too many requests.
    public static let rateLimited = "rate_limited"
    /// 429: the project already has ``VoteFirstLimits/maxPendingSuggestions`` suggestions
    /// waiting for review.
    public static let suggestionsFull = "suggestions_full"
    /// 503: the store failed.
    public static let storeUnavailable = "store_unavailable"
    /// 500: the server failed unexpectedly.
    public static let internalError = "internal_error"
  }

  /// Every call of the contract: its method and its path pattern under the prefix.
  public enum Operation: String, Sendable, CaseIterable {
    /// `GET /board`.
    case board
    /// `GET /features`.
    case features
    /// `GET /features/:id`.
    case feature
    /// `POST /features/:id/vote`.
    case vote
    /// `DELETE /features/:id/vote`.
    case unvote
    /// `GET /releases`.
    case releases
    /// `GET /releases/:id`.
    case release
    /// `POST /suggestions`.
    case submitSuggestion
    /// `GET /settings`.
    case getSettings
    /// `PUT /settings`.
    case putSettings
    /// `PUT /features/ref/:ref`.
    case upsertFeature
    /// `POST /features/batch`.
    case batchFeatures
    /// `PUT /features/:id`.
    case updateFeature
    /// `DELETE /features/:id`.
    case deleteFeature
    /// `PUT /features/:id/imported-votes`.
    case importedVotes
    /// `POST /stages`.
    case createStage
    /// `PUT /stages/:id`.
    case updateStage
    /// `DELETE /stages/:id`.
    case deleteStage
    /// `POST /tags`.
    case createTag
    /// `PUT /tags/:id`.
    case updateTag
    /// `DELETE /tags/:id`.
    case deleteTag
    /// `PUT /boards/:slug`.
    case putBoard
    /// `DELETE /boards/:slug`.
    case deleteBoard
    /// `POST /releases`.
    case createRelease
    /// `PUT /releases/:id`.
    case updateRelease
    /// `DELETE /releases/:id`.
    case deleteRelease
    /// `GET /suggestions`.
    case listSuggestions
    /// `POST /suggestions/:id/approve`.
    case approveSuggestion
    /// `POST /suggestions/:id/reject`.
    case rejectSuggestion
    /// `GET /export`.
    case export
    /// `POST /import`.
    case `import`

    /// The HTTP method.
    public var method: String {
      switch self {
      case .board, .features, .feature, .releases, .release, .getSettings, .listSuggestions,
        .export:
        "GET"
      case .vote, .submitSuggestion, .batchFeatures, .createStage, .createTag, .createRelease,
        .approveSuggestion, .rejectSuggestion, .import:
        "POST"
      case .putSettings, .upsertFeature, .updateFeature, .importedVotes, .updateStage, .updateTag,
        .putBoard, .updateRelease:
        "PUT"
      case .unvote, .deleteFeature, .deleteStage, .deleteTag, .deleteBoard, .deleteRelease:
        "DELETE"
      }
    }

    /// The path pattern after `/api/v1/:project`, with `:id`, `:ref` or `:slug` parameters.
    public var pattern: String {
      switch self {
      case .board: "/board"
      case .features: "/features"
      case .feature, .updateFeature, .deleteFeature: "/features/:id"
      case .vote, .unvote: "/features/:id/vote"
      case .releases, .createRelease: "/releases"
      case .release, .updateRelease, .deleteRelease: "/releases/:id"
      case .submitSuggestion, .listSuggestions: "/suggestions"
      case .getSettings, .putSettings: "/settings"
      case .upsertFeature: "/features/ref/:ref"
      case .batchFeatures: "/features/batch"
      case .importedVotes: "/features/:id/imported-votes"
      case .createStage: "/stages"
      case .updateStage, .deleteStage: "/stages/:id"
      case .createTag: "/tags"
      case .updateTag, .deleteTag: "/tags/:id"
      case .putBoard, .deleteBoard: "/boards/:slug"
      case .approveSuggestion: "/suggestions/:id/approve"
      case .rejectSuggestion: "/suggestions/:id/reject"
      case .export: "/export"
      case .import: "/import"
      }
    }

    /// The full router pattern, `/api/v1/:project` + ``pattern``.
    public var routePattern: String { VoteFirstContract.prefix + "/:project" + pattern }

    /// Whether the call needs the admin token.
    public var isAdmin: Bool {
      switch self {
      case .board, .features, .feature, .vote, .unvote, .releases, .release, .submitSuggestion:
        false
      default: true
      }
    }

    /// The percent-encoded path for `project`, with `parameter` put in for `:id`, `:ref` or
    /// `:slug`.
    public func path(project: String, parameter: String? = nil) -> String {
      var parts = [VoteFirstContract.prefix, "/", VoteFirstContract.encodeSegment(project)]
      for segment in pattern.split(separator: "/") {
        parts.append("/")
        if segment.hasPrefix(":") {
          parts.append(VoteFirstContract.encodeSegment(parameter ?? ""))
        } else {
          parts.append(String(segment))
        }
      }
      return parts.joined()
    }
  }

  /// `segment` percent-encoded as one path segment (only `A-Z a-z 0-9 - . _ ~` stay).
  public static func encodeSegment(_ segment: String) -> String {
    var allowed = CharacterSet()
    allowed.insert(
      charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    return segment.addingPercentEncoding(withAllowedCharacters: allowed) ?? segment
  }

  /// `items` as a percent-encoded query string (without `?`): each name and value encoded as
  /// ``encodeSegment(_:)`` encodes a path segment, so `+`, `&`, `=`, `#` and `%` reach the
  /// server as themselves (a `+` left as it is reads as a space there). A missing value is
  /// empty.
  public static func encodeQuery(_ items: [URLQueryItem]) -> String {
    items.map { encodeSegment($0.name) + "=" + encodeSegment($0.value ?? "") }
      .joined(separator: "&")
  }

  /// The query items of `query` for `GET /features`.
  public static func queryItems(_ query: FeatureQuery) -> [URLQueryItem] {
    var items: [URLQueryItem] = []
    if let board = query.board { items.append(URLQueryItem(name: Query.board, value: board)) }
    if let stage = query.stage {
      items.append(URLQueryItem(name: Query.stage, value: String(stage)))
    }
    if let tag = query.tag { items.append(URLQueryItem(name: Query.tag, value: String(tag))) }
    if let search = query.search {
      items.append(URLQueryItem(name: Query.search, value: search))
    }
    items.append(URLQueryItem(name: Query.order, value: query.order.rawValue))
    items.append(URLQueryItem(name: Query.limit, value: String(query.limit)))
    if let cursor = query.cursor {
      items.append(URLQueryItem(name: Query.cursor, value: cursor))
    }
    return items
  }
}

/// A JSON key of the contract.
struct WireKey: CodingKey, ExpressibleByStringLiteral {
  var stringValue: String
  var intValue: Int? { nil }
  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
  init(stringLiteral value: String) { self.stringValue = value }
}

extension KeyedDecodingContainer where K == WireKey {
  fileprivate func value<T: Decodable>(_ key: WireKey) throws -> T {
    try decode(T.self, forKey: key)
  }
  fileprivate func optional<T: Decodable>(_ key: WireKey) throws -> T? {
    try decodeIfPresent(T.self, forKey: key)
  }
  fileprivate func value<T: Decodable>(_ key: WireKey, or fallback: T) throws -> T {
    try decodeIfPresent(T.self, forKey: key) ?? fallback
  }
  /// A colour, or nil when absent or unreadable (an unreadable colour is ignored).
  fileprivate func color(_ key: WireKey) -> ThemeColor? {
    ((try? decodeIfPresent(String.self, forKey: key)) ?? nil).flatMap(ThemeColor.init(css:))
  }
}

extension KeyedEncodingContainer where K == WireKey {
  fileprivate mutating func put<T: Encodable>(_ value: T, _ key: WireKey) throws {
    try encode(value, forKey: key)
  }
  fileprivate mutating func put<T: Encodable>(_ value: T?, _ key: WireKey) throws {
    try encodeIfPresent(value, forKey: key)
  }
}

extension ThemeColor: Codable {
  /// Reads a CSS colour string; throws when it is not one (theme fields ignore that).
  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let color = ThemeColor(css: text) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "not a colour: \(text)"))
    }
    self = color
  }
  /// Writes ``css``.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(css)
  }
}

extension ThemeRadius: Codable {
  /// Reads `"8px"`; throws when unreadable (theme fields ignore that).
  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let radius = ThemeRadius(css: text) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "not a radius: \(text)"))
    }
    self = radius
  }
  /// Writes ``css``.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(css)
  }
}

extension Theme: Codable {
  /// Reads a theme; values that are not readable colours or radii are ignored.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(
      accent: c.color("accent"), background: c.color("background"),
      foreground: c.color("foreground"), card: c.color("card"),
      radius: ((try? c.decodeIfPresent(String.self, forKey: "radius")) ?? nil)
        .flatMap(ThemeRadius.init(css:)))
  }
  /// Writes the readable parts.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(accent, "accent")
    try c.put(background, "background")
    try c.put(foreground, "foreground")
    try c.put(card, "card")
    try c.put(radius, "radius")
  }
}

extension ProjectSettings: Codable {
  /// Reads settings; absent keys take a new project's defaults.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(
      name: try c.optional("name"), votingEnabled: try c.value("votingEnabled", or: true),
      suggestionsEnabled: try c.value("suggestionsEnabled", or: true),
      commentsEnabled: try c.value("commentsEnabled", or: false),
      showViewCounts: try c.value("showViewCounts", or: false),
      voteKeyTemplate: try c.value("voteKeyTemplate", or: ProjectSettings.defaultVoteKeyTemplate),
      theme: try c.value("theme", or: Theme()))
  }
  /// Writes every setting.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(name, "name")
    try c.put(votingEnabled, "votingEnabled")
    try c.put(suggestionsEnabled, "suggestionsEnabled")
    try c.put(commentsEnabled, "commentsEnabled")
    try c.put(showViewCounts, "showViewCounts")
    try c.put(voteKeyTemplate, "voteKeyTemplate")
    try c.put(theme, "theme")
  }
}

extension Board: Codable {
  /// Reads a board; `isPublic` and `votingEnabled` default to true.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(
      slug: try c.value("slug"), name: try c.value("name"),
      isPublic: try c.value("isPublic", or: true),
      votingEnabled: try c.value("votingEnabled", or: true))
  }
  /// Writes the board.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(slug, "slug")
    try c.put(name, "name")
    try c.put(isPublic, "isPublic")
    try c.put(votingEnabled, "votingEnabled")
  }
}

extension Stage: Codable {
  /// Reads a stage; an absent `id` is 0 (a stage to create).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(
      id: try c.value("id", or: 0), board: try c.value("board", or: Board.roadmapSlug),
      name: try c.value("name"), color: c.color("color"),
      position: try c.value("position", or: 0),
      votingEnabled: try c.value("votingEnabled", or: true),
      isArchived: try c.value("isArchived", or: false),
      isFinished: try c.value("isFinished", or: false))
  }
  /// Writes the stage.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(id, "id")
    try c.put(board, "board")
    try c.put(name, "name")
    try c.put(color, "color")
    try c.put(position, "position")
    try c.put(votingEnabled, "votingEnabled")
    try c.put(isArchived, "isArchived")
    try c.put(isFinished, "isFinished")
  }
}

extension FeatureTag: Codable {
  /// Reads a tag; an absent `id` is 0 (a tag to create).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(id: try c.value("id", or: 0), name: try c.value("name"), color: c.color("color"))
  }
  /// Writes the tag.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(id, "id")
    try c.put(name, "name")
    try c.put(color, "color")
  }
}

extension LocalizedText: Codable {
  /// Reads `{"language","value"}`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(language: try c.value("language"), value: try c.value("value"))
  }
  /// Writes `{"language","value"}`.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(language, "language")
    try c.put(value, "value")
  }
}

extension ExtraMember: Codable {
  /// Reads `{"key","json"}`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(key: try c.value("key"), json: try c.value("json"))
  }
  /// Writes `{"key","json"}`.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(key, "key")
    try c.put(json, "json")
  }
}

extension FeatureContent: Codable {
  /// Reads the owner-written fields; only `title` is required.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(
      ref: try c.optional("ref"), title: try c.value("title"),
      description: try c.value("description", or: ""), response: try c.optional("response"),
      board: try c.value("board", or: Board.roadmapSlug), stage: try c.optional("stage"),
      due: try c.optional("due"), tags: try c.value("tags", or: []),
      comments: try c.value("comments", or: 0), views: try c.optional("views"),
      progress: try c.optional("progress"), release: try c.optional("release"),
      status: try c.optional("status"), isFinished: try c.optional("isFinished"),
      localizedTitle: try c.optional("localizedTitle"),
      localizedDescription: try c.optional("localizedDescription"),
      localizedStatus: try c.optional("localizedStatus"), extra: try c.optional("extra"))
  }
  /// Writes the owner-written fields; absent ones are left out.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(ref, "ref")
    try c.put(title, "title")
    try c.put(description, "description")
    try c.put(response, "response")
    try c.put(board, "board")
    try c.put(stage, "stage")
    try c.put(due, "due")
    try c.put(tags, "tags")
    try c.put(comments, "comments")
    try c.put(views, "views")
    try c.put(progress, "progress")
    try c.put(release, "release")
    try c.put(status, "status")
    try c.put(isFinished, "isFinished")
    try c.put(localizedTitle, "localizedTitle")
    try c.put(localizedDescription, "localizedDescription")
    try c.put(localizedStatus, "localizedStatus")
    try c.put(extra, "extra")
  }
}

extension Feature: Codable {
  /// Reads a feature: its content's keys beside `id`, `votes`, `voted` and `createdAt`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(
      id: try c.value("id"), content: try FeatureContent(from: decoder),
      votes: try c.value("votes", or: 0), voted: try c.value("voted", or: false),
      createdAt: try c.value("createdAt", or: Date(timeIntervalSince1970: 0)))
  }
  /// Writes a feature as one flat object.
  public func encode(to encoder: any Encoder) throws {
    try content.encode(to: encoder)
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(id, "id")
    try c.put(votes, "votes")
    try c.put(voted, "voted")
    try c.put(createdAt, "createdAt")
  }
}

extension FeatureUpsert: Codable {
  /// Reads feature content with an optional `importedVotes`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(
      content: try FeatureContent(from: decoder), importedVotes: try c.optional("importedVotes"))
  }
  /// Writes one flat object.
  public func encode(to encoder: any Encoder) throws {
    try content.encode(to: encoder)
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(importedVotes, "importedVotes")
  }
}

extension Release: Codable {
  /// Reads a release; an absent `id` is 0 (a release to create).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(
      id: try c.value("id", or: 0), title: try c.value("title"),
      notes: try c.value("notes", or: ""), date: try c.value("date"),
      features: try c.value("features", or: []))
  }
  /// Writes the release.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(id, "id")
    try c.put(title, "title")
    try c.put(notes, "notes")
    try c.put(date, "date")
    try c.put(features, "features")
  }
}

extension Suggestion.State: Codable {
  /// Reads the state's wire name.
  public init(from decoder: any Decoder) throws {
    self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
  }
  /// Writes the wire name.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}

extension Suggestion: Codable {
  /// Reads a suggestion.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(
      id: try c.value("id"), title: try c.value("title"), description: try c.value("description"),
      state: try c.value("state"), createdAt: try c.value("createdAt"),
      feature: try c.optional("feature"))
  }
  /// Writes the suggestion.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(id, "id")
    try c.put(title, "title")
    try c.put(description, "description")
    try c.put(state, "state")
    try c.put(createdAt, "createdAt")
    try c.put(feature, "feature")
  }
}

extension SuggestionDraft: Codable {
  /// Reads `{"title","description"}`; a missing one reads as empty (and fails validation).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(
      title: try c.value("title", or: ""), description: try c.value("description", or: ""))
  }
  /// Writes `{"title","description"}`.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(title, "title")
    try c.put(description, "description")
  }
}

extension SuggestionReceipt: Codable {
  /// Reads `{"id","state"}`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(id: try c.value("id"), state: try c.value("state"))
  }
  /// Writes `{"id","state"}`.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(id, "id")
    try c.put(state, "state")
  }
}

extension SuggestionApproval: Codable {
  /// Reads `{"stage","ref"}`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(stage: try c.optional("stage"), ref: try c.optional("ref"))
  }
  /// Writes `{"stage","ref"}`.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(stage, "stage")
    try c.put(ref, "ref")
  }
}

extension VoteState: Codable {
  /// Reads `{"votes","voted"}`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(votes: try c.value("votes"), voted: try c.value("voted"))
  }
  /// Writes `{"votes","voted"}`.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(votes, "votes")
    try c.put(voted, "voted")
  }
}

extension ImportedVotes: Codable {
  /// Reads `{"count","raiseOnly"?}`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(count: try c.value("count"), raiseOnly: try c.value("raiseOnly", or: false))
  }
  /// Writes `{"count"}`, with `"raiseOnly":true` when set.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(count, "count")
    if raiseOnly { try c.put(true, "raiseOnly") }
  }
}

extension BoardSnapshot: Codable {
  /// Reads the answer of `GET …/board`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(
      project: try c.value("project"), settings: try c.value("settings"),
      board: try c.value("board"), stages: try c.value("stages"), tags: try c.value("tags"),
      boards: try c.value("boards"))
  }
  /// Writes the answer of `GET …/board`.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(project, "project")
    try c.put(settings, "settings")
    try c.put(board, "board")
    try c.put(stages, "stages")
    try c.put(tags, "tags")
    try c.put(boards, "boards")
  }
}

extension FeaturePage: Codable {
  /// Reads `{"features","next"}`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(features: try c.value("features"), next: try c.optional("next"))
  }
  /// Writes `{"features","next"}`, `next` as null on the last page.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(features, "features")
    if let next { try c.put(next, "next") } else { try c.encodeNil(forKey: "next") }
  }
}

extension FeatureBatch: Codable {
  /// Reads `{"features"}`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(features: try c.value("features"))
  }
  /// Writes `{"features"}`.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(features, "features")
  }
}

extension BatchResult.Item: Codable {
  /// Reads `{"id","ref"}`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(id: try c.value("id"), ref: try c.value("ref"))
  }
  /// Writes `{"id","ref"}`.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(id, "id")
    try c.put(ref, "ref")
  }
}

extension BatchResult: Codable {
  /// Reads `{"created","updated","unchanged","features"}`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(
      created: try c.value("created"), updated: try c.value("updated"),
      unchanged: try c.value("unchanged"), features: try c.value("features"))
  }
  /// Writes `{"created","updated","unchanged","features"}`.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(created, "created")
    try c.put(updated, "updated")
    try c.put(unchanged, "unchanged")
    try c.put(features, "features")
  }
}

extension ProjectExport.ExportedFeature: Codable {
  /// Reads a feature with `importedVotes`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(
      feature: try Feature(from: decoder), importedVotes: try c.value("importedVotes", or: 0))
  }
  /// Writes a feature (without `voted`) with `importedVotes`.
  public func encode(to encoder: any Encoder) throws {
    try feature.content.encode(to: encoder)
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(feature.id, "id")
    try c.put(feature.votes, "votes")
    try c.put(feature.createdAt, "createdAt")
    try c.put(importedVotes, "importedVotes")
  }
}

extension ProjectExport: Codable {
  /// Reads an export; a document whose `format` is not `votefirst-export` or whose `version`
  /// is newer than this code is refused.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    let format: String = try c.value("format")
    guard format == ProjectExport.formatName else {
      throw DecodingError.dataCorruptedError(
        forKey: "format", in: c, debugDescription: "not a VoteFirst export: \(format)")
    }
    let version: Int = try c.value("version")
    guard (1...ProjectExport.currentVersion).contains(version) else {
      throw DecodingError.dataCorruptedError(
        forKey: "version", in: c,
        debugDescription: "export version \(version); this build reads up to 1")
    }
    self.init(
      version: version, project: try c.value("project"), exportedAt: try c.value("exportedAt"),
      settings: try c.value("settings"), boards: try c.value("boards"),
      stages: try c.value("stages"), tags: try c.value("tags"),
      features: try c.value("features"), releases: try c.value("releases"),
      suggestions: try c.value("suggestions"))
  }
  /// Writes the export.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(ProjectExport.formatName, "format")
    try c.put(version, "version")
    try c.put(project, "project")
    try c.put(exportedAt, "exportedAt")
    try c.put(settings, "settings")
    try c.put(boards, "boards")
    try c.put(stages, "stages")
    try c.put(tags, "tags")
    try c.put(features, "features")
    try c.put(releases, "releases")
    try c.put(suggestions, "suggestions")
  }
}

extension ImportResult: Codable {
  /// Reads the counts of what an import created.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(
      features: try c.value("features"), stages: try c.value("stages"),
      tags: try c.value("tags"), releases: try c.value("releases"),
      suggestions: try c.value("suggestions"))
  }
  /// Writes the counts.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(features, "features")
    try c.put(stages, "stages")
    try c.put(tags, "tags")
    try c.put(releases, "releases")
    try c.put(suggestions, "suggestions")
  }
}

extension APIErrorBody: Codable {
  /// Reads `{"error":{"code","message","field"}}`.
  public init(from decoder: any Decoder) throws {
    let outer = try decoder.container(keyedBy: WireKey.self)
    let c = try outer.nestedContainer(keyedBy: WireKey.self, forKey: "error")
    self.init(
      code: try c.value("code"), message: try c.value("message", or: ""),
      field: try c.optional("field"))
  }
  /// Writes `{"error":{"code","message","field"}}`.
  public func encode(to encoder: any Encoder) throws {
    var outer = encoder.container(keyedBy: WireKey.self)
    var c = outer.nestedContainer(keyedBy: WireKey.self, forKey: "error")
    try c.put(code, "code")
    try c.put(message, "message")
    try c.put(field, "field")
  }
}

extension ReleaseList: Codable {
  /// Reads `{"releases":[…]}`.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(releases: try c.value("releases"))
  }
  /// Writes `{"releases":[…]}`.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(releases, "releases")
  }
}

extension SuggestionList: Codable {
  /// Reads `{"suggestions":[…],"next"}` (`next` absent or null on the last page).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: WireKey.self)
    self.init(suggestions: try c.value("suggestions"), next: try c.optional("next"))
  }
  /// Writes `{"suggestions":[…]}`, with `next` while more remain.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: WireKey.self)
    try c.put(suggestions, "suggestions")
    try c.put(next, "next")
  }
}
