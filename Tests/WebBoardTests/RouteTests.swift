import Foundation
import HTTPServer
import Testing
import VoteFirstAPI
import WebBoard

/// A board held in memory, for the HTTP behaviour of the routes (status, headers, caching,
/// query parsing). The browser tests run the same routes over the real store.
struct FixtureBoardSource: WebBoardSource {
  var snapshot = Fixtures.snapshot(boards: [Board(slug: "ideas", name: "Ideas")])
  var features: [Feature] = [
    Fixtures.feature(1, "Alpha", stage: 3, votes: 4), Fixtures.feature(2, "Beta", stage: 1),
  ]
  var releases: [Release] = [
    Release(id: 1, title: "1.0", notes: "**First**", date: Fixtures.date, features: [1])
  ]
  var failing = false

  struct Failure: Error {}

  func board(project: String, slug: String) async throws -> BoardSnapshot? {
    if failing { throw Failure() }
    guard project == snapshot.project else { return nil }
    if slug == Board.roadmapSlug { return snapshot }
    guard let board = snapshot.boards.first(where: { $0.slug == slug }) else { return nil }
    var custom = snapshot
    custom.board = board
    custom.stages = []
    return custom
  }

  func features(project: String, query: FeatureQuery, voter: String?) async throws -> FeaturePage {
    if query.cursor == "bad" { throw WebBoardError.badRequest("That page link has expired.") }
    let matching = features.filter { f in
      (query.stage == nil || f.stage == query.stage)
        && (query.tag == nil || f.tags.contains(query.tag!))
        && (query.search == nil || f.title.localizedCaseInsensitiveContains(query.search!))
    }.map { f -> Feature in
      var f = f
      f.voted = voter == "voter-1" && f.id == 1
      return f
    }
    return FeaturePage(features: matching, next: nil)
  }

  func feature(project: String, id: Int, voter: String?) async throws -> Feature? {
    features.first { $0.id == id }
  }

  func releases(project: String) async throws -> [Release] { releases }
}

@Suite struct RouteTests {
  static func get(
    _ target: String, headers: HTTPHeaders = HTTPHeaders(),
    source: FixtureBoardSource = FixtureBoardSource()
  ) async -> HTTPResponse {
    await WebBoardRoutes(source: source).router.respond(
      to: HTTPRequest(method: .get, target: target, headers: headers))
  }

  static func body(_ response: HTTPResponse) -> String {
    String(decoding: response.body, as: UTF8.self)
  }

  @Test(arguments: [
    "/b/demo-app", "/b/demo-app/ideas", "/b/demo-app/features/1", "/b/demo-app/changelog",
  ])
  func pagesCarryTheSecurityHeaders(_ target: String) async {
    let response = await Self.get(target)
    #expect(response.status == 200)
    #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
    let csp = response.headers["Content-Security-Policy"] ?? ""
    #expect(csp.contains("default-src 'self'") && csp.contains("script-src 'self'"))
    #expect(csp.contains("style-src 'self'") && !csp.contains("unsafe-inline"))
    #expect(response.headers["X-Content-Type-Options"] == "nosniff")
    #expect(response.headers["Cache-Control"] == "private, no-cache")
    #expect(response.headers["Vary"] == "Cookie, Accept-Language")
  }

  @Test func boardPageShowsColumnsListAndTheVoterFromTheCookie() async {
    let plain = Self.body(await Self.get("/b/demo-app"))
    #expect(plain.contains("Alpha") && plain.contains("Beta"))
    #expect(!plain.contains("aria-pressed=\"true\""))
    let cookie = Self.body(
      await Self.get("/b/demo-app", headers: ["Cookie": "theme=x; rb_voter=voter-1"]))
    #expect(cookie.contains("aria-pressed=\"true\""))
    let invalid = Self.body(
      await Self.get("/b/demo-app", headers: ["Cookie": "rb_voter=<bad voter>"]))
    #expect(!invalid.contains("aria-pressed=\"true\""))
  }

  @Test func filtersReachTheSource() async {
    let stage = Self.body(await Self.get("/b/demo-app?stage=1&tag=&q=&order=newest"))
    let list = stage.components(separatedBy: "id=\"feedback-title\"")[1]
    #expect(list.contains("Beta") && !list.contains("Alpha"))
    let search = Self.body(await Self.get("/b/demo-app?q=alp"))
    let found = search.components(separatedBy: "id=\"feedback-title\"")[1]
    #expect(found.contains("Alpha") && !found.contains("Beta"))
  }

  @Test(arguments: [
    ("/b/demo-app?order=best", 400, "Unknown order best"),
    ("/b/demo-app?stage=99", 400, "There is no stage 99"),
    ("/b/demo-app?stage=x", 400, "There is no stage x"),
    ("/b/demo-app?tag=7", 400, "There is no tag 7"),
    ("/b/demo-app?cursor=bad", 400, "That page link has expired."),
    ("/b/other-app", 404, "There is no board roadmap in project other-app"),
    ("/b/demo-app/secret", 404, "There is no board secret"),
    ("/b/demo-app/features/99", 404, "There is no feature 99"),
    ("/b/demo-app/features/-1", 404, "addressed by its number"),
    ("/b/demo-app/features/1x", 404, "addressed by its number"),
    ("/b/demo-app/a/b/c", 404, "no page at this address"),
    ("/assets/board-000000000000.css", 404, "no file at this address"),
  ])
  func problemsAreHTMLPagesWithTheirStatus(_ target: String, _ status: Int, _ message: String)
    async
  {
    let response = await Self.get(target)
    #expect(response.status == status)
    #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
    #expect(response.headers["Cache-Control"] == "no-store")
    #expect(response.headers["Content-Security-Policy"] != nil)
    #expect(Self.body(response).contains(message))
  }

  @Test func aSearchLongerThanTheAPIAllowsIsA400PageNotCutShort() async {
    let longest = String(repeating: "é", count: VoteFirstLimits.maxSearch)
    let fits = await Self.get("/b/demo-app?q=" + VoteFirstContract.encodeSegment(longest))
    #expect(fits.status == 200)
    let over = await Self.get("/b/demo-app?q=" + VoteFirstContract.encodeSegment(longest + "e"))
    #expect(over.status == 400)
    #expect(over.headers["Content-Type"] == "text/html; charset=utf-8")
    #expect(Self.body(over).contains("A search is at most 200 characters."))
  }

  @Test func aBoardNamedLikeAPageIsNotLinked() async {
    var source = FixtureBoardSource()
    source.snapshot.boards = [
      Board(slug: "ideas", name: "Ideas"), Board(slug: "changelog", name: "Board of changes"),
    ]
    let page = Self.body(await Self.get("/b/demo-app", source: source))
    #expect(page.contains("href=\"/b/demo-app/ideas\""))
    #expect(!page.contains("Board of changes"))
    #expect(page.components(separatedBy: "href=\"/b/demo-app/changelog\"").count == 2)
    let changelog = Self.body(await Self.get("/b/demo-app/changelog", source: source))
    #expect(changelog.contains("<h1>Changelog</h1>"))
  }

  /// A feature's localized texts in the reader's language (`Accept-Language`, along its BCP 47
  /// chain), each marked with its `lang`; the plain fields without the header or a match.
  @Test func featuresReadInTheReadersLanguage() async {
    var source = FixtureBoardSource()
    var alpha = source.features[0]
    alpha.content.description = "Plain description"
    alpha.content.status = "Soon"
    alpha.content.localizedTitle = [
      LocalizedText(language: "fr", value: "Alpha FR"),
      LocalizedText(language: "de", value: "Alpha DE"),
    ]
    alpha.content.localizedDescription = [LocalizedText(language: "de", value: "Beschreibung")]
    alpha.content.localizedStatus = [LocalizedText(language: "de", value: "Bald")]
    source.features[0] = alpha
    let german: HTTPHeaders = ["Accept-Language": "de-AT, fr;q=0.5, en;q=0.8"]
    let board = Self.body(await Self.get("/b/demo-app", headers: german, source: source))
    #expect(board.contains("<a href=\"/b/demo-app/features/1\" lang=\"de\">Alpha DE</a>"))
    #expect(board.contains("<p class=\"excerpt\" lang=\"de\">Beschreibung</p>"))
    #expect(board.contains("lang=\"de\">Bald</span>"))
    #expect(!board.contains("Alpha FR") && !board.contains("Plain description"))
    #expect(board.contains("<html lang=\"en\">"), "the page's own words stay English")
    let page = Self.body(
      await Self.get("/b/demo-app/features/1", headers: german, source: source))
    #expect(page.contains("<h1 id=\"feature-title\" lang=\"de\">Alpha DE</h1>"))
    #expect(page.contains("<div class=\"description\" lang=\"de\"><p>Beschreibung</p></div>"))
    #expect(page.contains("<title>Alpha DE · Demo App</title>"))
    let changelog = Self.body(
      await Self.get("/b/demo-app/changelog", headers: german, source: source))
    #expect(changelog.contains("lang=\"de\">Alpha DE</a>"))
    let french = Self.body(
      await Self.get("/b/demo-app", headers: ["Accept-Language": "fr-CA,de;q=0.1"], source: source))
    #expect(french.contains("lang=\"fr\">Alpha FR</a>"))
    #expect(french.contains("lang=\"de\">Beschreibung</p>"), "each field on its own")
    for headers: HTTPHeaders in [[:], ["Accept-Language": "ja, *;q=0.1"]] {
      let plain = Self.body(await Self.get("/b/demo-app", headers: headers, source: source))
      #expect(plain.contains(">Alpha</a>") && plain.contains("Plain description"))
      #expect(!plain.contains("lang=\"de\""))
    }
  }

  /// Bug: a localized text that shows nothing (translation tools leave untranslated strings
  /// empty) won over the next language and the plain field: a French reader of a feature with
  /// `{"language":"fr","value":""}` saw "Untitled feature 1" and no description at all.
  @Test func aLocalizedTextThatShowsNothingGivesWayToTheNext() async {
    var source = FixtureBoardSource()
    var alpha = source.features[0]
    alpha.content.description = "Plain description"
    alpha.content.localizedTitle = [
      LocalizedText(language: "fr", value: ""), LocalizedText(language: "de", value: "Alpha DE"),
    ]
    alpha.content.localizedDescription = [LocalizedText(language: "fr", value: " \u{200B} ")]
    source.features[0] = alpha
    let french: HTTPHeaders = ["Accept-Language": "fr, de;q=0.5"]
    let board = Self.body(await Self.get("/b/demo-app", headers: french, source: source))
    #expect(board.contains("<a href=\"/b/demo-app/features/1\" lang=\"de\">Alpha DE</a>"))
    #expect(board.contains("<p class=\"excerpt\">Plain description</p>"))
    let page = Self.body(
      await Self.get("/b/demo-app/features/1", headers: ["Accept-Language": "fr"], source: source))
    #expect(page.contains("<h1 id=\"feature-title\">Alpha</h1>"), "the plain title")
    #expect(page.contains("<div class=\"description\"><p>Plain description</p></div>"))
  }

  @Test(
    arguments: [
      (nil, []), ("", []), ("de", ["de"]), ("en-US,en;q=0.9,de;q=0.8", ["en-US", "en", "de"]),
      ("de;q=0.5, fr, ja;q=0.5", ["fr", "de", "ja"]), ("*, de;q=0", []),
      ("zh_Hans;q=1.0, <x>, en;q=abc", ["zh_Hans"]),
      ("a,b,c,d,e,f,g,h,i,j", ["a", "b", "c", "d", "e", "f", "g", "h"]),
    ] as [(String?, [String])])
  func acceptLanguage(_ header: String?, _ languages: [String]) {
    #expect(WebBoardHeaders.languages(fromAcceptLanguage: header) == languages)
  }

  @Test func aFailingStoreIsA503Page() async {
    var source = FixtureBoardSource()
    source.failing = true
    let response = await Self.get("/b/demo-app", source: source)
    #expect(response.status == 503)
    #expect(Self.body(response).contains("could not be read"))
  }

  @Test(arguments: WebAsset.all)
  func assetsAreCachedForAYearAndRevalidateWith304(_ asset: WebAsset) async {
    let response = await Self.get(asset.path)
    #expect(response.status == 200)
    #expect(response.body == asset.body)
    #expect(response.headers["Content-Type"] == asset.contentType)
    #expect(response.headers["ETag"] == asset.etag)
    #expect(response.headers["Cache-Control"] == "public, max-age=31536000, immutable")
    #expect(response.headers["X-Content-Type-Options"] == "nosniff")
    let again = await Self.get(asset.path, headers: ["If-None-Match": "\"x\", " + asset.etag])
    #expect(again.status == 304)
    #expect(again.body.isEmpty)
    #expect(again.headers["ETag"] == asset.etag)
    let other = await Self.get(asset.path, headers: ["If-None-Match": "\"other\""])
    #expect(other.status == 200)
  }

  @Test func themeStylesheetIsVersionedByItsContent() async throws {
    let page = Self.body(await Self.get("/b/demo-app"))
    let href = try #require(
      MarkupScanner.tags(page).first { $0.attribute("href")?.contains("theme.css") == true }?
        .attribute("href"))
    let current = await Self.get(href)
    #expect(current.status == 200)
    #expect(current.headers["Content-Type"] == "text/css; charset=utf-8")
    #expect(current.headers["Cache-Control"] == "public, max-age=31536000, immutable")
    let css = Self.body(current)
    #expect(css.contains(".stage-3{--stage:#3366FF}"))
    #expect(css.contains("prefers-color-scheme: dark"))
    let stale = await Self.get("/b/demo-app/theme.css?board=roadmap&v=old")
    #expect(stale.headers["Cache-Control"] == "public, no-cache")
    #expect(Self.body(stale) == css)
    let etag = try #require(current.headers["ETag"])
    let revalidated = await Self.get(href, headers: ["If-None-Match": etag])
    #expect(revalidated.status == 304)
  }

  @Test func rateLimitedReadersGetA429Page() {
    let response = WebBoardRoutes.tooManyRequests(retryAfter: 7)
    #expect(response.status == 429)
    #expect(response.headers["Retry-After"] == "7")
    #expect(String(decoding: response.body, as: UTF8.self).contains("Try again in 7 s."))
  }

  @Test func otherMethodsGetA405PageWithAllow() {
    let response = WebBoardRoutes.methodNotAllowed()
    #expect(response.status == 405)
    #expect(response.headers["Allow"] == "GET, HEAD")
    #expect(response.headers["Content-Security-Policy"] != nil)
  }

  @Test func handlesOnlyItsOwnPaths() {
    #expect(WebBoardRoutes.handles(path: "/b/demo-app"))
    #expect(WebBoardRoutes.handles(path: "/assets/board-1.css"))
    #expect(!WebBoardRoutes.handles(path: "/bx"))
    #expect(!WebBoardRoutes.handles(path: "/api/v1/demo-app/board"))
    #expect(!WebBoardRoutes.handles(path: "/get/ns/key"))
  }

  @Test(
    arguments: [
      ("rb_voter=abc", "abc"), ("a=1; rb_voter=u:1@x", "u:1@x"), ("rb_voter=", nil),
      ("rb_voter=has space", nil), ("xrb_voter=abc", nil), (nil, nil),
      ("rb_voter=" + String(repeating: "a", count: 129), nil),
    ] as [(String?, String?)])
  func voterCookie(_ header: String?, _ voter: String?) {
    #expect(WebBoardHeaders.voter(fromCookie: header) == voter)
  }
}

/// The changelog looks each feature its releases name up once, newest release first, and no
/// more than ``WebBoardRoutes/changelogFeatureLimit`` of them, in time linear in the ids the
/// releases name (a list searched for every id made 100,000 of them minutes of work).
@Suite struct ChangelogLookupTests {
  /// A fixture that counts the features it is asked for, in order.
  final class CountingSource: WebBoardSource, @unchecked Sendable {
    let base: FixtureBoardSource
    private let lock = NSLock()
    private var asked: [Int] = []

    init(releases: [Release]) {
      var base = FixtureBoardSource()
      base.releases = releases
      self.base = base
    }

    var lookups: [Int] { lock.withLock { asked } }

    func board(project: String, slug: String) async throws -> BoardSnapshot? {
      try await base.board(project: project, slug: slug)
    }
    func features(project: String, query: FeatureQuery, voter: String?) async throws
      -> FeaturePage
    { try await base.features(project: project, query: query, voter: voter) }
    func feature(project: String, id: Int, voter: String?) async throws -> Feature? {
      lock.withLock { asked.append(id) }
      return Fixtures.feature(id, "Feature \(id)", release: 1)
    }
    func releases(project: String) async throws -> [Release] { base.releases }
  }

  @Test(.timeLimit(.minutes(5))) func eachFeatureOnceNewestFirstUpToTheLimit() async {
    // Newest first, as the source gives them: the newest names 3, 1, 3 again and 2; the
    // older ones name 100,000 more ids, each of the first 1,000 twice.
    let older = Array(4..<100_004)
    let source = CountingSource(releases: [
      Release(id: 3, title: "3.0", notes: "", date: Fixtures.date, features: [3, 1, 3, 2]),
      Release(id: 2, title: "2.0", notes: "", date: Fixtures.date, features: older),
      Release(id: 1, title: "1.0", notes: "", date: Fixtures.date, features: Array(older[..<1000])),
    ])
    let response = await WebBoardRoutes(source: source).router.respond(
      to: HTTPRequest(method: .get, target: "/b/demo-app/changelog"))
    #expect(response.status == 200)
    let limit = WebBoardRoutes.changelogFeatureLimit
    #expect(source.lookups == [3, 1, 2] + Array(4..<(limit + 1)))
    let page = RouteTests.body(response)
    #expect(page.contains("Feature 3"))
    #expect(page.contains("Feature \(limit)"))
    #expect(!page.contains("Feature \(limit + 1)<"))
  }
}

/// The changelog shows twenty releases a page, newest first, with links to the newer and
/// older pages; a feature links to its release on the page it is on.
@Suite struct ChangelogPagingTests {
  /// 45 releases, newest (45) first; release `n` carries feature `n`.
  static let source: FixtureBoardSource = {
    var source = FixtureBoardSource()
    source.releases = (1...45).reversed().map {
      Release(id: $0, title: "v\($0)", notes: "Notes \($0)", date: Fixtures.date, features: [$0])
    }
    source.features = (1...45).map { Fixtures.feature($0, "Feature \($0)", release: $0) }
    return source
  }()

  static func titles(_ page: String) -> [String] {
    page.components(separatedBy: "<h2 id=\"release-").dropFirst().compactMap {
      $0.split(separator: ">").dropFirst().first?.split(separator: "<").first.map(String.init)
    }
  }

  @Test func pagesOfTwentyNewestFirst() async {
    let first = await RouteTests.get("/b/demo-app/changelog", source: Self.source)
    #expect(first.status == 200)
    let one = RouteTests.body(first)
    #expect(Self.titles(one) == (26...45).reversed().map { "v\($0)" })
    #expect(one.contains(#"<a rel="next" href="/b/demo-app/changelog?page=2">Older releases</a>"#))
    #expect(!one.contains("Newer releases"))
    #expect(one.contains("Feature 45") && !one.contains("Feature 25<"))

    let second = RouteTests.body(
      await RouteTests.get("/b/demo-app/changelog?page=2", source: Self.source))
    #expect(Self.titles(second) == (6...25).reversed().map { "v\($0)" })
    #expect(second.contains(#"<a rel="prev" href="/b/demo-app/changelog">Newer releases</a>"#))
    #expect(second.contains(#"href="/b/demo-app/changelog?page=3">Older releases</a>"#))

    let last = RouteTests.body(
      await RouteTests.get("/b/demo-app/changelog?page=3", source: Self.source))
    #expect(Self.titles(last) == (1...5).reversed().map { "v\($0)" })
    #expect(last.contains(#"href="/b/demo-app/changelog?page=2">Newer releases</a>"#))
    #expect(!last.contains("Older releases"))
  }

  @Test(arguments: [
    ("/b/demo-app/changelog?page=4", 404), ("/b/demo-app/changelog?page=0", 400),
    ("/b/demo-app/changelog?page=x", 400), ("/b/demo-app/changelog?page=-1", 400),
    ("/b/demo-app/changelog?page=+2", 400),
    ("/b/demo-app/changelog?page=99999999999999999", 404),
  ])
  func pagesThatDoNotExist(_ target: String, _ status: Int) async {
    #expect(await RouteTests.get(target, source: Self.source).status == status)
  }

  @Test func anEmptyChangelogHasItsFirstPageOnly() async {
    var source = FixtureBoardSource()
    source.releases = []
    let page = await RouteTests.get("/b/demo-app/changelog", source: source)
    #expect(page.status == 200)
    #expect(RouteTests.body(page).contains("No releases yet."))
    #expect(await RouteTests.get("/b/demo-app/changelog?page=2", source: source).status == 404)
  }

  @Test(arguments: [
    (45, "/b/demo-app/changelog#release-45"), (26, "/b/demo-app/changelog#release-26"),
    (25, "/b/demo-app/changelog?page=2#release-25"), (1, "/b/demo-app/changelog?page=3#release-1"),
  ])
  func aFeatureLinksToTheChangelogPageOfItsRelease(_ id: Int, _ link: String) async {
    let page = await RouteTests.get("/b/demo-app/features/\(id)", source: Self.source)
    #expect(page.status == 200)
    #expect(RouteTests.body(page).contains("<a href=\"\(link)\">v\(id)</a>"))
  }
}
