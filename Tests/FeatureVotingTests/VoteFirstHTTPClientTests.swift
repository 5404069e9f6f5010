import FeatureVoting
import Foundation
import HTTPServer
import RoadmapFormat
import Testing

@testable import VoteFirstAPI

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `VoteFirstHTTPClient`'s failures to get an answer, against a local HTTP server: only an
/// unreachable server is offline; the timeout is a deadline for the whole call.
@Suite("VoteFirstHTTPClient transport failures")
struct VoteFirstHTTPClientTests {
  static let board = #"""
    {"project":"demo-app","settings":{},"board":{"slug":"roadmap","name":"Roadmap","isPublic":true,"votingEnabled":true},"stages":[],"tags":[],"boards":[]}
    """#

  static func client(_ base: URL, timeout: TimeInterval = 10) -> VoteFirstHTTPClient {
    VoteFirstHTTPClient(
      configuration: VoteFirstClientConfiguration(
        baseURL: base, project: "demo-app", timeout: timeout),
      voterID: "ann")
  }

  /// The error of `body`, or nil when it returns.
  static func failure(_ body: () async throws -> Void) async -> VoteFirstError? {
    do {
      try await body()
      return nil
    } catch {
      #expect(error is VoteFirstError, "\(error)")
      return error as? VoteFirstError
    }
  }

  @Test("URLError codes: only unreachable is offline; timed out and cancelled have their own")
  func urlErrorKinds() {
    let url = "http://votes.example/api/v1/demo-app/board"
    let offline: [URLError.Code] = [
      .notConnectedToInternet, .networkConnectionLost, .cannotFindHost, .cannotConnectToHost,
      .dnsLookupFailed, .dataNotAllowed, .internationalRoamingOff, .callIsActive,
    ]
    for code in offline {
      let error = VoteFirstHTTPClient.loadingError(URLError(code), url: url, timeout: 30)
      #expect(error.kind == .offline, "\(code.rawValue): \(error)")
    }
    let notOffline: [URLError.Code] = [
      .appTransportSecurityRequiresSecureConnection, .secureConnectionFailed,
      .serverCertificateUntrusted, .serverCertificateHasUnknownRoot, .httpTooManyRedirects,
      .redirectToNonExistentLocation, .userCancelledAuthentication, .dataLengthExceedsMaximum,
    ]
    for code in notOffline {
      let error = VoteFirstHTTPClient.loadingError(URLError(code), url: url, timeout: 30)
      #expect(error.kind == .invalidRequest, "\(code.rawValue): \(error)")
      #expect(error.message.contains("(URLError \(code.rawValue))"), "\(error)")
    }
    let timedOut = VoteFirstHTTPClient.loadingError(URLError(.timedOut), url: url, timeout: 30)
    #expect(timedOut.kind == .timedOut && timedOut.message.contains("30.0 s"))
    let cancelled = VoteFirstHTTPClient.loadingError(URLError(.cancelled), url: url, timeout: 30)
    #expect(cancelled.kind == .invalidRequest && cancelled.message.contains("cancelled"))
  }

  @Test("a refused connection is offline")
  func closedPortIsOffline() async throws {
    let closed = try ClosedPort()
    let error = await Self.failure { _ = try await Self.client(closed.url).board(slug: nil) }
    #expect(error?.kind == .offline, "\(String(describing: error))")
  }

  @Test("a server slower than the timeout is timed out, for the whole call")
  func slowServerTimesOut() async throws {
    let server = try LocalServer { router in
      router.get("/api/v1/:project/board") { _ in
        try? await Task.sleep(for: .seconds(300))
        return json(Self.board)
      }
      router.get("/api/v1/:project/features") { _ in
        try? await Task.sleep(for: .seconds(300))
        return json(#"{"features":[],"next":null}"#)
      }
    }
    defer { Task { await server.stop() } }
    let started = Date()
    let error = await Self.failure {
      _ = try await Self.client(server.url, timeout: 0.5).board(slug: nil)
    }
    #expect(error?.kind == .timedOut, "\(String(describing: error))")
    // Cut off by the deadline, long before the server would answer (a bound loose enough for
    // a loaded machine, where the 0.5 s deadline once took 65 s: only the server's 300 s
    // matter).
    #expect(Date().timeIntervalSince(started) < 240)
    // A VoteFirstVoter keeps the kind.
    let voter = VoteFirstVoter(client: Self.client(server.url, timeout: 0.5))
    do throws(VotingError) {
      _ = try await voter.count(for: RoadmapFeature(id: "1"))
      Issue.record("expected a timeout")
    } catch {
      #expect(error.kind == .timedOut, "\(error)")
    }
    // A NaN timeout expires at once, and the message gives the timeout applied.
    let nan = await Self.failure {
      _ = try await Self.client(server.url, timeout: .nan).board(slug: nil)
    }
    #expect(nan?.kind == .timedOut && nan?.message.hasSuffix("within 0.0 s") == true)
  }

  @Test(
    "a connection lost mid-answer is offline, as on Apple's platforms",
    arguments: cutAnswers.map(\.name))
  func aCutAnswerIsOffline(_ name: String) async throws {
    let bytes = try #require(cutAnswers.first { $0.name == name }).bytes
    let server = try RawServer(.cut(Array(bytes.utf8)))
    defer { server.stop() }
    let client = VoteFirstHTTPClient(
      configuration: VoteFirstClientConfiguration(baseURL: server.url, project: "demo-app"))
    let error = await Self.failure { _ = try await client.upvote(featureID: 1) }
    #expect(error?.kind == .offline, "\(String(describing: error))")
  }

  /// A captive portal's page, or JSON of another shape: the message says from where, with
  /// which status, and what came (it was Swift's DecodingError, without the URL or status).
  @Test("an answer that is not the API's JSON says what came, from where")
  func unexpectedAnswers() async throws {
    let server = try LocalServer { router in
      router.post("/api/v1/:project/features/:id/vote") { _ in
        HTTPResponse(
          contentType: "text/html",
          text: "<html><head><title>Hotel Wi-Fi login</title></head><body>…</body></html>")
      }
      router.get("/api/v1/:project/features/:id") { _ in json(#"{"id":"one","title":"One"}"#) }
      router.get("/api/v1/:project/features") { _ in
        HTTPResponse(contentType: "text/html", text: "<html><title>Sign in</title></html>")
      }
    }
    defer { Task { await server.stop() } }
    // Through a VoteFirstVoter, the message is said once ("unexpected answer from VoteFirst:
    // unexpected answer from http://…" it was).
    do throws(VotingError) {
      _ = try await VoteFirstVoter(client: Self.client(server.url)).count(
        for: RoadmapFeature(id: "1"))
      Issue.record("expected a bad answer")
    } catch {
      #expect(error.kind == .badAnswer)
      #expect(
        error.message.hasPrefix("unexpected answer from \(server.url.absoluteString)/api/v1/"),
        "\(error.message)")
      #expect(error.message.hasSuffix("got an HTML page (Sign in)"), "\(error.message)")
    }
    let client = Self.client(server.url)
    let page = await Self.failure { _ = try await client.upvote(featureID: 1) }
    #expect(page?.kind == .badAnswer)
    #expect(page?.status == 200)
    #expect(
      page?.message
        == "unexpected answer from \(server.url.absoluteString)/api/v1/demo-app/features/1/vote "
        + "to vote (HTTP 200): expected the VoteFirst API's JSON, got an HTML page "
        + "(Hotel Wi-Fi login)")
    let shape = await Self.failure { _ = try await client.feature(id: 1) }
    #expect(shape?.kind == .badAnswer)
    #expect(
      shape?.message.hasSuffix("got JSON of another shape (id is not an integer)") == true,
      "\(String(describing: shape))")
  }

  @Test("an answer past maximumAnswerBytes is a bad answer, cut off as it arrives")
  func answerSizeLimit() async throws {
    let endless = try RawServer(.endless)
    let small = VoteFirstHTTPClient(
      configuration: VoteFirstClientConfiguration(
        baseURL: endless.url, project: "demo-app", timeout: 120, maximumAnswerBytes: 100_000))
    let error = await Self.failure { _ = try await small.board(slug: nil) }
    #expect(error?.kind == .badAnswer, "\(String(describing: error))")
    #expect(error?.message.contains("longer than 100000 bytes") == true)
    #expect(await endless.waitUntilTheClientHangsUp(seconds: 60))

    let server = try LocalServer { router in
      router.get("/api/v1/:project/board") { _ in json(Self.board) }
    }
    defer { Task { await server.stop() } }
    let size = Self.board.utf8.count
    func board(limit: Int, session: URLSession? = nil) async -> VoteFirstError? {
      let client = VoteFirstHTTPClient(
        configuration: VoteFirstClientConfiguration(
          baseURL: server.url, project: "demo-app", maximumAnswerBytes: limit),
        session: session)
      return await Self.failure { _ = try await client.board(slug: nil) }
    }
    #expect(await board(limit: size) == nil)
    #expect(await board(limit: size - 1)?.kind == .badAnswer)
    #expect(
      await board(limit: size - 1, session: URLSession(configuration: .ephemeral))?.kind
        == .badAnswer)
    #expect(
      VoteFirstClientConfiguration(baseURL: server.url, project: "p").maximumAnswerBytes
        == 64 * 1024 * 1024)
  }

  @Test("an answer slower than URLSession's default 60 s comes within a longer timeout")
  func longerThanTheSessionDefault() async throws {
    let server = try LocalServer { router in
      router.get("/api/v1/:project/board") { _ in
        try? await Task.sleep(for: .seconds(65))
        return json(Self.board)
      }
    }
    defer { Task { await server.stop() } }
    // swift-corelibs-foundation timed this out after 60 s, saying "within 180.0 s": a
    // `roadmapctl migrate` batch to a busy server (300 s) failed that way.
    let snapshot = try await Self.client(server.url, timeout: 180).board(slug: nil)
    #expect(snapshot.project == "demo-app")
  }

  @Test("a session of the caller's own times out by its own limit, and says so")
  func ownSessionLimit() async throws {
    let server = try LocalServer { router in
      router.get("/api/v1/:project/board") { _ in
        try? await Task.sleep(for: .seconds(90))
        return json(Self.board)
      }
    }
    defer { Task { await server.stop() } }
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 1
    let client = VoteFirstHTTPClient(
      configuration: VoteFirstClientConfiguration(
        baseURL: server.url, project: "demo-app", timeout: 120),
      voterID: "ann", session: URLSession(configuration: configuration))
    let error = await Self.failure { _ = try await client.board(slug: nil) }
    #expect(error?.kind == .timedOut, "\(String(describing: error))")
    #expect(error?.message.contains("the URL session timed out") == true)
    #expect(error?.message.contains("120.0 s timeout") == true)
  }

  @Test("a call whose task is cancelled before it starts sends nothing")
  func cancelledBeforeSendingSendsNothing() async throws {
    let server = try LocalServer { router in
      router.get("/api/v1/:project/board") { _ in json(Self.board) }
    }
    defer { Task { await server.stop() } }
    let client = Self.client(server.url)
    let task = Task { () -> VoteFirstError? in
      withUnsafeCurrentTask { $0?.cancel() }
      return await Self.failure { _ = try await client.board(slug: nil) }
    }
    let error = await task.value
    #expect(error?.kind == .invalidRequest, "\(String(describing: error))")
    #expect(error?.message.contains("cancelled") == true)
    try await Task.sleep(for: .milliseconds(500))
    #expect(server.targets.isEmpty)
  }

  /// A redirect is followed. (What a redirect loop gives, `httpTooManyRedirects`, is an
  /// invalid request naming the URLError: see the mapping test above. A live loop is not
  /// run: swift-corelibs-foundation's redirect handling has a race that, once in a loaded
  /// full run, stopped the test process with "Received callback for HTTP redirection, but
  /// we're not waiting for it", and a loop follows a redirect some twenty times.)
  @Test("a redirect is followed")
  func aRedirectIsFollowed() async throws {
    let server = try LocalServer { router in
      router.get("/old/api/v1/:project/board") { _ in
        HTTPResponse(
          status: 302, headers: HTTPHeaders([("Location", "/api/v1/demo-app/board")]),
          body: Array("x".utf8))
      }
      router.get("/api/v1/:project/board") { _ in json(Self.board) }
    }
    defer { Task { await server.stop() } }
    let snapshot = try await Self.client(server.url.appendingPathComponent("old")).board(
      slug: nil)
    #expect(snapshot.project == "demo-app")
  }

  @Test("a cancelled call is not offline; an infinite timeout is a long one")
  func cancelledAndInfinite() async throws {
    let server = try LocalServer { router in
      router.get("/api/v1/:project/board") { request in
        // Longer than any loaded machine takes to send the cancel (the answer must not win).
        if request.query("board") == "slow" { try? await Task.sleep(for: .seconds(90)) }
        return json(Self.board)
      }
    }
    defer { Task { await server.stop() } }
    let snapshot = try await Self.client(server.url, timeout: .infinity).board(slug: nil)
    #expect(snapshot.project == "demo-app")
    // A timeout past the server's sleep: only the cancel can end the call.
    let client = Self.client(server.url, timeout: 120)
    let task = Task { await Self.failure { _ = try await client.board(slug: "slow") } }
    for _ in 0..<3_000 where server.targets.count < 2 {
      try await Task.sleep(for: .milliseconds(10))
    }
    task.cancel()
    let error = await task.value
    #expect(
      error?.kind == .invalidRequest && error?.message.contains("cancelled") == true,
      "\(String(describing: error))")
  }

  /// A search for `C++` found `C  support`: URLComponents left the `+` as it was, and the
  /// server reads a `+` in a query as a space, as form encoding has it.
  @Test("a search reaches the server as typed: + & = % # and spaces")
  func aSearchReachesTheServerAsTyped() async throws {
    let server = try LocalServer { router in
      router.get("/api/v1/:project/features") { _ in json(#"{"features":[],"next":null}"#) }
    }
    defer { Task { await server.stop() } }
    let client = Self.client(server.url)
    for search in ["C++", "a+b=c&d", "100%", "#tag", "two words", "caf\u{E9} +1", "x;y/z?"] {
      _ = try await client.features(FeatureQuery(search: search))
      let request = try #require(server.requests.last)
      #expect(request.query("q") == search, "\(request.target)")
    }
  }

  @Test("Retry-After as an HTTP date is the seconds until it; a past one is 0, garbage none")
  func retryAfterAsAnHTTPDate() async throws {
    let server = try LocalServer { router in
      router.get("/api/v1/:project/board") { request in
        let field: String
        switch request.target {
        case let target where target.contains("/in-ten-minutes/"):
          field = httpDate(Date().addingTimeInterval(600))
        case let target where target.contains("/rfc850/"):
          field = httpDate(Date().addingTimeInterval(600), format: "EEEE, dd-MMM-yy HH:mm:ss 'GMT'")
        case let target where target.contains("/past/"): field = "Fri, 31 Dec 1999 23:59:59 GMT"
        default: field = "whenever"
        }
        return json(#"{"error":"slow down"}"#, status: 429, headers: ["Retry-After": field])
      }
    }
    func wait(_ project: String) async -> Int? {
      let client = VoteFirstHTTPClient(
        configuration: VoteFirstClientConfiguration(baseURL: server.url, project: project),
        voterID: "ann")
      let error = await Self.failure { _ = try await client.board(slug: nil) }
      #expect(error?.kind == .rateLimited && error?.status == 429, "\(String(describing: error))")
      return error?.retryAfter
    }
    // Read as no Retry-After before (the CLI then waited 1 s, an app its own default).
    for project in ["in-ten-minutes", "rfc850"] {
      let seconds = await wait(project)
      #expect(seconds.map { (60...601).contains($0) } == true, "\(String(describing: seconds))")
    }
    #expect(await wait("past") == 0)
    #expect(await wait("garbage") == nil)
    await server.stop()
  }

  /// Bug: a server that handed out a cursor it had handed out before (one ignoring `cursor`,
  /// a cache in front) was read without end: `allFeatures`, `suggestions()` and so every
  /// `VoteFirstVoter` count never returned, and memory grew with each page. A repeated cursor
  /// is now a bad answer. (Here the server gives up after 20 pages with a 500, so the test
  /// ends without the fix too.)
  @Test("a cursor handed out twice ends a listing with a bad answer, not a loop without end")
  func repeatedCursor() async throws {
    let pages = RequestLog()
    let server = try LocalServer { router in
      router.get("/api/v1/:project/features") { request in
        pages.append(request)
        if pages.requests.count > 20 { return json(#"{"error":"enough"}"#, status: 500) }
        return json(#"{"features":[],"next":"same"}"#)
      }
      router.get("/api/v1/:project/suggestions") { request in
        pages.append(request)
        if pages.requests.count > 20 { return json(#"{"error":"enough"}"#, status: 500) }
        return json(#"{"suggestions":[],"next":"page2"}"#)
      }
    }
    let client = Self.client(server.url)
    let listing = await Self.failure { _ = try await client.allFeatures() }
    #expect(listing?.kind == .badAnswer, "\(String(describing: listing))")
    #expect(listing?.message.contains("'same'") == true, "\(String(describing: listing))")
    #expect(server.targets.count == 2)
    let voter = VoteFirstVoter(client: client)
    let counting = await votingError { try await voter.count(for: RoadmapFeature(id: "1")) }
    #expect(counting?.kind == .badAnswer, "\(String(describing: counting))")
    #expect(server.targets.count == 4)
    let suggestions = await Self.failure { _ = try await client.suggestions() }
    #expect(suggestions?.kind == .badAnswer, "\(String(describing: suggestions))")
    #expect(server.targets.count == 6)
    // The variant whose error is the caller's ends the listing at the repeated cursor.
    let read = try await client.allFeatures(FeatureQuery(order: .newest)) {
      page throws(VoteFirstError) in try await client.features(page)
    }
    #expect(read.isEmpty)
    #expect(server.targets.count == 8)
    await server.stop()
  }

  /// Bug: a server that ignored `cursor` but handed out a fresh cursor with each page (one
  /// holding the moment its listing began, as `roadmapctl serve`'s cursors do) sent its first
  /// page again and again, each with a cursor never handed out before, so `allFeatures` and
  /// every `VoteFirstVoter` count read without end (here the server gives up after 20 pages
  /// with a 500, so the test ends without the fix too). Two pages in a row that list no feature
  /// not listed before now end the listing: a bad answer, or the listing so far.
  @Test("pages that list nothing new under fresh cursors end a listing, not a loop without end")
  func freshCursorsOverTheSamePage() async throws {
    let first = FeaturePage(
      features: [1, 2].map { id in
        Feature(
          id: id, content: FeatureContent(ref: "\(id)", title: "Feature \(id)"),
          createdAt: Date(timeIntervalSince1970: 1_764_000_000))
      },
      next: nil)
    let pages = RequestLog()
    let server = try LocalServer { router in
      router.get("/api/v1/:project/features") { request in
        pages.append(request)
        let count = pages.requests.count
        if count > 20 { return json(#"{"error":"enough"}"#, status: 500) }
        var page = first
        page.next = "moment-\(count)"
        return json(String(decoding: (try? VoteFirstCoding.encode(page)) ?? Data(), as: UTF8.self))
      }
    }
    let client = Self.client(server.url, timeout: 60)
    let listing = await Self.failure { _ = try await client.allFeatures() }
    #expect(listing?.kind == .badAnswer, "\(String(describing: listing))")
    #expect(listing?.message.contains("'moment-3'") == true, "\(String(describing: listing))")
    #expect(server.targets.count == 3)
    let voter = VoteFirstVoter(client: client)
    let counting = await votingError { try await voter.count(for: RoadmapFeature(id: "1")) }
    #expect(counting?.kind == .badAnswer, "\(String(describing: counting))")
    #expect(server.targets.count == 6)
    await server.stop()
    // The variant without an error of its own answers what it listed.
    var reads = 0
    let listed = await client.allFeatures(FeatureQuery(order: .newest)) { _ in
      reads += 1
      var page = first
      page.next = reads > 20 ? nil : "moment-\(reads)"
      return page
    }
    #expect(listed.map(\.id) == [1, 2])
    #expect(reads == 3)
  }
}

/// `date` as an HTTP date (IMF-fixdate unless `format` says otherwise), in GMT.
func httpDate(_ date: Date, format: String = "EEE, dd MMM yyyy HH:mm:ss 'GMT'") -> String {
  let formatter = DateFormatter()
  formatter.locale = Locale(identifier: "en_US_POSIX")
  formatter.timeZone = TimeZone(identifier: "GMT")
  formatter.dateFormat = format
  return formatter.string(from: date)
}
