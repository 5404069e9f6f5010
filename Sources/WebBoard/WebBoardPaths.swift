import VoteFirstAPI

/// The web board's URLs, built in one place: pages under `/b/`, assets under `/assets/`.
public enum WebBoardPaths {
  /// The prefix of every page.
  public static let pagePrefix = "/b"
  /// The prefix of the static assets.
  public static let assetPrefix = "/assets"

  /// Board slugs that are page names under `/b/:project/`: a board with one of them has no
  /// page of its own (the page by that name is answered), so it is not linked.
  public static let pageNames: Set<String> = ["changelog"]

  /// `/b/:project`, or `/b/:project/:board` for a custom board, with `query` appended.
  public static func board(
    _ project: String, board: String = Board.roadmapSlug, query: FeatureQuery? = nil
  ) -> String {
    var path = pagePrefix + "/" + segment(project)
    if board != Board.roadmapSlug { path += "/" + segment(board) }
    if let query { path += queryString(query) }
    return path
  }

  /// `/b/:project/features/:id`.
  public static func feature(_ project: String, id: Int) -> String {
    pagePrefix + "/" + segment(project) + "/features/" + String(id)
  }

  /// `/b/:project/changelog`, `?page=N` past the first page, optionally with the anchor of
  /// one release.
  public static func changelog(_ project: String, release: Int? = nil, page: Int = 1) -> String {
    pagePrefix + "/" + segment(project) + "/changelog" + (page > 1 ? "?page=\(page)" : "")
      + (release.map { "#" + WebBoardPaths.releaseAnchor($0) } ?? "")
  }

  /// `/b/:project/theme.css?board=SLUG&v=VERSION`: the theme stylesheet of a board (the
  /// project's theme and the colours of that board's stages and of the tags).
  public static func theme(_ project: String, board: String, version: String) -> String {
    pagePrefix + "/" + segment(project) + "/theme.css?board=" + component(board) + "&v="
      + version
  }

  /// The element id of a release on the changelog page.
  public static func releaseAnchor(_ id: Int) -> String { "release-\(id)" }

  /// The query string (with `?`) of a listing's filters; empty when all are defaults.
  public static func queryString(_ query: FeatureQuery) -> String {
    var items: [(String, String)] = []
    if let search = query.search, !search.isEmpty {
      items.append((VoteFirstContract.Query.search, search))
    }
    if query.order != .top { items.append((VoteFirstContract.Query.order, query.order.rawValue)) }
    if let stage = query.stage { items.append((VoteFirstContract.Query.stage, String(stage))) }
    if let tag = query.tag { items.append((VoteFirstContract.Query.tag, String(tag))) }
    if let cursor = query.cursor { items.append((VoteFirstContract.Query.cursor, cursor)) }
    guard !items.isEmpty else { return "" }
    return "?" + items.map { component($0.0) + "=" + component($0.1) }.joined(separator: "&")
  }

  /// The query string (with `?`) of the board API's `GET …/features` for `query`: every
  /// parameter the API reads, `board` and `limit` included. The page names with it the listing
  /// a column or the list was drawn from, so the script asks for a voter's votes on it in one
  /// request.
  public static func apiQueryString(_ query: FeatureQuery) -> String {
    "?"
      + VoteFirstContract.queryItems(query).map {
        component($0.name) + "=" + component($0.value ?? "")
      }.joined(separator: "&")
  }

  /// `text` percent-encoded as one path segment.
  public static func segment(_ text: String) -> String {
    VoteFirstContract.encodeSegment(text)
  }

  /// `text` percent-encoded as a query name or value.
  static func component(_ text: String) -> String {
    VoteFirstContract.encodeSegment(text)
  }
}
