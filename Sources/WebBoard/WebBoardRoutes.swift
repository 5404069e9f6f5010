import HTTPServer
import VoteFirstAPI

/// The web board's routes: `/b/:project` and `/b/:project/:board` (the board),
/// `/b/:project/features/:id`, `/b/:project/changelog`, `/b/:project/theme.css`, and the
/// versioned assets under `/assets/`.
///
/// Every page is drawn from a ``WebBoardSource``. Literal segments win over a board slug:
/// `/b/:project/changelog` is the changelog even if a board is called `changelog` (such a
/// board is still listed by the API, and its features open at `/b/:project/features/:id`).
public struct WebBoardRoutes: Sendable {
  /// Where the pages read the board.
  public let source: any WebBoardSource

  /// The most features a roadmap column shows (the rest are one link away).
  public static let columnLimit = 50
  /// The most features the changelog looks up per page.
  public static let changelogFeatureLimit = 500
  /// The most releases one changelog page shows (each renders its notes).
  public static let changelogReleaseLimit = 20

  /// Creates the routes over `source`.
  public init(source: any WebBoardSource) { self.source = source }

  /// Whether `path` belongs to the web board (`/b/…` or `/assets/…`).
  public static func handles(path: String) -> Bool {
    path == WebBoardPaths.pagePrefix || path.hasPrefix(WebBoardPaths.pagePrefix + "/")
      || path.hasPrefix(WebBoardPaths.assetPrefix + "/")
  }

  /// The router patterns of every route, in the order they are tried (`GET`, also `HEAD`).
  public static let patterns = [
    WebBoardPaths.assetPrefix + "/:file", "/b/:project", "/b/:project/changelog",
    "/b/:project/theme.css", "/b/:project/features/:id", "/b/:project/:board",
  ]

  /// Adds the routes to `router`.
  public func register(in router: inout Router) {
    let routes = self
    router.get(WebBoardRoutes.patterns[0]) { await routes.asset($0) }
    router.get(WebBoardRoutes.patterns[1]) {
      await routes.page($0) { try await $0.boardPage($1) }
    }
    router.get(WebBoardRoutes.patterns[2]) {
      await routes.page($0) { try await $0.changelogPage($1) }
    }
    router.get(WebBoardRoutes.patterns[3]) { await routes.theme($0) }
    router.get(WebBoardRoutes.patterns[4]) {
      await routes.page($0) { try await $0.featurePage($1) }
    }
    router.get(WebBoardRoutes.patterns[5]) {
      await routes.page($0) { try await $0.boardPage($1) }
    }
  }

  /// The page for a method other than `GET` or `HEAD`: 405 with `Allow`.
  public static func methodNotAllowed() -> HTTPResponse {
    var response = problem(405, "Method not allowed", "The board's pages are read with GET.")
    response.headers.replaceOrAdd(name: "Allow", value: "GET, HEAD")
    return response
  }

  /// The page a rate-limited reader gets: 429 with `Retry-After`.
  public static func tooManyRequests(retryAfter seconds: Int) -> HTTPResponse {
    var response = problem(
      429, "Too many requests", "Too many requests from your address. Try again in \(seconds) s.")
    response.headers.replaceOrAdd(name: "Retry-After", value: String(seconds))
    return response
  }

  /// A router with only these routes (404 pages for the rest of `/b/`).
  public var router: Router {
    var router = Router()
    register(in: &router)
    router.notFound = { _ in
      WebBoardRoutes.problem(404, "Not found", "There is no page at this address.")
    }
    return router
  }

  // MARK: Assets

  func asset(_ request: HTTPRequest) async -> HTTPResponse {
    let path = WebBoardPaths.assetPrefix + "/" + (request.parameter("file") ?? "")
    guard let asset = WebAsset.named(path) else {
      return WebBoardRoutes.problem(404, "Not found", "There is no file at this address.")
    }
    return WebBoardRoutes.cacheable(
      request, body: asset.body, contentType: asset.contentType, etag: asset.etag,
      cacheControl: WebAsset.cacheControl)
  }

  func theme(_ request: HTTPRequest) async -> HTTPResponse {
    await page(request) { routes, request in
      let project = request.parameter("project") ?? ""
      let slug = request.query(VoteFirstContract.Query.board) ?? Board.roadmapSlug
      let snapshot = try await routes.snapshot(project, slug)
      let css = WebBoardPages.themeStylesheet(snapshot)
      let version = WebAsset.hash(Array(css.utf8))
      // The page links the stylesheet with its hash: that URL may be kept for a year. An old
      // or missing hash is answered with the current sheet, revalidated every time.
      let cacheControl =
        request.query("v") == version ? WebAsset.cacheControl : "public, no-cache"
      return WebBoardRoutes.cacheable(
        request, body: Array(css.utf8), contentType: "text/css; charset=utf-8",
        etag: "\"\(version)\"", cacheControl: cacheControl)
    }
  }

  // MARK: Pages

  /// Runs a page body and turns its errors into problem pages.
  func page(
    _ request: HTTPRequest,
    _ body: @Sendable (WebBoardRoutes, HTTPRequest) async throws -> HTTPResponse
  ) async -> HTTPResponse {
    do {
      return try await body(self, request)
    } catch let error as WebBoardError {
      let title =
        switch error.status {
        case 404: "Not found"
        case 400: "Bad request"
        default: "Board unavailable"
        }
      return WebBoardRoutes.problem(error.status, title, error.message)
    } catch {
      return WebBoardRoutes.problem(
        503, "Board unavailable", "The board could not be read. Try again in a moment.")
    }
  }

  func snapshot(_ project: String, _ slug: String) async throws -> BoardSnapshot {
    guard let snapshot = try await source.board(project: project, slug: slug) else {
      throw WebBoardError.notFound("There is no board \(slug) in project \(project).")
    }
    return snapshot
  }

  func boardPage(_ request: HTTPRequest) async throws -> HTTPResponse {
    let project = request.parameter("project") ?? ""
    let slug = request.parameter("board") ?? Board.roadmapSlug
    let snapshot = try await self.snapshot(project, slug)
    let voter = WebBoardHeaders.voter(fromCookie: request.headers["Cookie"])
    var query = try WebBoardRoutes.listQuery(request, snapshot: snapshot)
    query.board = snapshot.board.slug
    var columns: [BoardColumn] = []
    for stage in snapshot.stages where !stage.isArchived {
      let page = try await source.features(
        project: project,
        query: FeatureQuery(
          board: snapshot.board.slug, stage: stage.id, limit: WebBoardRoutes.columnLimit),
        voter: voter)
      columns.append(BoardColumn(stage: stage, features: page.features, hasMore: page.next != nil))
    }
    let list = try await source.features(project: project, query: query, voter: voter)
    let html = WebBoardPages.board(
      BoardPageContent(
        snapshot: snapshot, columns: columns, query: query, list: list,
        languages: WebBoardRoutes.languages(request)))
    return WebBoardRoutes.htmlResponse(html)
  }

  func featurePage(_ request: HTTPRequest) async throws -> HTTPResponse {
    let project = request.parameter("project") ?? ""
    guard let text = request.parameter("id"), let id = Int(text), id > 0,
      text.allSatisfy({ $0.isASCII && $0.isNumber })
    else {
      throw WebBoardError.notFound("A feature is addressed by its number.")
    }
    let voter = WebBoardHeaders.voter(fromCookie: request.headers["Cookie"])
    guard let feature = try await source.feature(project: project, id: id, voter: voter) else {
      throw WebBoardError.notFound("There is no feature \(id) in project \(project).")
    }
    let snapshot = try await self.snapshot(project, feature.board)
    var release: Release? = nil
    var releasePage = 1
    if let releaseID = feature.release {
      let releases = try await source.releases(project: project)
      if let index = releases.firstIndex(where: { $0.id == releaseID }) {
        release = releases[index]
        releasePage = index / WebBoardRoutes.changelogReleaseLimit + 1
      }
    }
    let html = WebBoardPages.feature(
      FeaturePageContent(
        snapshot: snapshot, feature: feature, release: release, releasePage: releasePage,
        languages: WebBoardRoutes.languages(request)))
    return WebBoardRoutes.htmlResponse(html)
  }

  func changelogPage(_ request: HTTPRequest) async throws -> HTTPResponse {
    let project = request.parameter("project") ?? ""
    let snapshot = try await self.snapshot(project, Board.roadmapSlug)
    var page = 1
    if let text = request.query("page") {
      guard let number = Int(text), number >= 1, text.allSatisfy({ $0.isASCII && $0.isNumber })
      else {
        throw WebBoardError.badRequest("A changelog page is a number from 1.")
      }
      page = number
    }
    let all = try await source.releases(project: project)
    let limit = WebBoardRoutes.changelogReleaseLimit
    let (start, overflow) = (page - 1).multipliedReportingOverflow(by: limit)
    guard page == 1 || (!overflow && start < all.count) else {
      throw WebBoardError.notFound("The changelog has no page \(page).")
    }
    let releases = Array(all[start..<min(all.count, start + limit)])
    var features: [Int: Feature] = [:]
    // The first ids the releases name, newest release first, each once.
    var wanted: [Int] = []
    var seen = Set<Int>()
    names: for release in releases {
      for id in release.features where seen.insert(id).inserted {
        wanted.append(id)
        if wanted.count == WebBoardRoutes.changelogFeatureLimit { break names }
      }
    }
    for id in wanted {
      if let feature = try await source.feature(project: project, id: id, voter: nil) {
        features[id] = feature
      }
    }
    let html = WebBoardPages.changelog(
      ChangelogPageContent(
        snapshot: snapshot, releases: releases, features: features, page: page,
        hasOlder: start + limit < all.count, languages: WebBoardRoutes.languages(request)))
    return WebBoardRoutes.htmlResponse(html)
  }

  /// The feedback list's query from the page's GET form: `q`, `order`, `stage`, `tag`,
  /// `cursor`; an empty value means "any".
  static func listQuery(_ request: HTTPRequest, snapshot: BoardSnapshot) throws -> FeatureQuery {
    func value(_ name: String) -> String? {
      guard let text = request.query(name)?.trimmingSpaces(), !text.isEmpty else { return nil }
      return text
    }
    var query = FeatureQuery()
    if let search = value(VoteFirstContract.Query.search) {
      // As the API answers: a longer search is refused, never cut short.
      guard search.unicodeScalars.count <= VoteFirstLimits.maxSearch else {
        throw WebBoardError.badRequest(
          "A search is at most \(VoteFirstLimits.maxSearch) characters.")
      }
      query.search = search
    }
    if let order = value(VoteFirstContract.Query.order) {
      let known = FeatureOrder(rawValue: order)
      guard FeatureOrder.allCases.contains(known) else {
        throw WebBoardError.badRequest(
          "Unknown order \(order): use top, trending, newest or discussed.")
      }
      query.order = known
    }
    if let stage = value(VoteFirstContract.Query.stage) {
      guard let id = Int(stage), snapshot.stages.contains(where: { $0.id == id }) else {
        throw WebBoardError.badRequest("There is no stage \(stage) on this board.")
      }
      query.stage = id
    }
    if let tag = value(VoteFirstContract.Query.tag) {
      guard let id = Int(tag), snapshot.tags.contains(where: { $0.id == id }) else {
        throw WebBoardError.badRequest("There is no tag \(tag) in this project.")
      }
      query.tag = id
    }
    query.cursor = value(VoteFirstContract.Query.cursor)
    return query
  }

  /// The reader's languages from the request's `Accept-Language`.
  static func languages(_ request: HTTPRequest) -> [String] {
    WebBoardHeaders.languages(fromAcceptLanguage: request.headers["Accept-Language"])
  }

  // MARK: Responses

  /// An HTML page: the security headers, never stored by shared caches (it shows this
  /// browser's votes), varying with the cookie (the votes) and `Accept-Language` (the
  /// features' texts).
  static func htmlResponse(_ html: HTML, status: Int = 200) -> HTTPResponse {
    var response = HTTPResponse(
      status: status, contentType: "text/html; charset=utf-8", text: html.text)
    for header in WebBoardHeaders.security {
      response.headers.replaceOrAdd(name: header.name, value: header.value)
    }
    response.headers.replaceOrAdd(name: "Cache-Control", value: "private, no-cache")
    response.headers.replaceOrAdd(name: "Vary", value: "Cookie, Accept-Language")
    return response
  }

  /// A problem page with `status`.
  static func problem(_ status: Int, _ title: String, _ message: String) -> HTTPResponse {
    var response = htmlResponse(
      WebBoardPages.problem(status: status, title: title, message: message), status: status)
    response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
    return response
  }

  /// A cacheable file: 304 when `If-None-Match` names its ETag.
  static func cacheable(
    _ request: HTTPRequest, body: [UInt8], contentType: String, etag: String,
    cacheControl: String
  ) -> HTTPResponse {
    var response = HTTPResponse(status: 200, headers: ["Content-Type": contentType], body: body)
    if let match = request.headers["If-None-Match"],
      match.split(separator: ",").contains(where: {
        let tag = $0.trimmingSpaces()
        return tag == etag || tag == "W/" + etag || tag == "*"
      })
    {
      response = HTTPResponse(status: 304)
    }
    for header in WebBoardHeaders.security {
      response.headers.replaceOrAdd(name: header.name, value: header.value)
    }
    response.headers.replaceOrAdd(name: "ETag", value: etag)
    response.headers.replaceOrAdd(name: "Cache-Control", value: cacheControl)
    return response
  }
}
