// The web board's HTTP answers from the built `roadmapctl serve` (no browser): headers and
// caching on the wire, refusals, rate limits, and one counter shared with the countapi routes.
import Foundation
import Testing
import WebBoard

@Suite struct WebBoardServeTests {
  @Test func pagesAndAssetsOnTheWire() async throws {
    let server = try await BoardServer.start()
    do { try await pagesAndAssetsOnTheWire(server) } catch { Issue.record(error) }
    await server.stop()
  }

  func pagesAndAssetsOnTheWire(_ server: BoardServer) async throws {
    let ids = try await BoardBrowserTests.seed(server)

    let page = try await server.get("/b/demo-app")
    #expect(page.status == 200)
    #expect(page.headers["content-type"] == "text/html; charset=utf-8")
    #expect(page.headers["content-security-policy"] == WebBoardHeaders.contentSecurityPolicy)
    #expect(page.headers["x-content-type-options"] == "nosniff")
    #expect(page.headers["access-control-allow-origin"] == nil, "pages are not an API")
    #expect(
      page.body.contains(WebAsset.stylesheet.path) && page.body.contains(WebAsset.script.path))

    for asset in WebAsset.all {
      let answer = try await server.get(asset.path)
      #expect(answer.status == 200)
      #expect(answer.headers["etag"] == asset.etag)
      #expect(answer.headers["cache-control"] == WebAsset.cacheControl)
      #expect(answer.body == String(decoding: asset.body, as: UTF8.self))
      let again = try await server.get(asset.path, headers: ["If-None-Match": asset.etag])
      #expect(again.status == 304)
    }

    // One counter: a countapi /hit on the feature's key moves the count the page shows.
    let before = try await server.get("/b/demo-app/features/\(ids.darkMode)")
    #expect(before.body.contains("<span class=\"vote-count\">12</span>"))
    let hit = try await server.get("/hit/demo-app/feature1")
    #expect(hit.status == 200 && hit.body.contains("13"))
    let after = try await server.get("/b/demo-app/features/\(ids.darkMode)")
    #expect(after.body.contains("<span class=\"vote-count\">13</span>"))

    // A voter's API vote is drawn pressed for the browser whose cookie names that voter.
    let vote = try await server.api(
      "POST", "/features/\(ids.widgets)/vote", voter: "browser-voter-1")
    #expect(vote.status == 200)
    let mine = try await server.get(
      "/b/demo-app/features/\(ids.widgets)", headers: ["Cookie": "rb_voter=browser-voter-1"])
    #expect(mine.body.contains("aria-pressed=\"true\""))
    let theirs = try await server.get("/b/demo-app/features/\(ids.widgets)")
    #expect(!theirs.body.contains("aria-pressed=\"true\""))

    // Refusals are HTML pages with their status.
    let post = try await server.get("/b/demo-app", method: "POST")
    #expect(post.status == 405)
    #expect(post.headers["allow"] == "GET, HEAD")
    #expect(post.headers["content-type"] == "text/html; charset=utf-8")
    let missing = try await server.get("/b/no-such-project")
    #expect(missing.status == 404)
    #expect(missing.body.contains("There is no board roadmap in project no-such-project"))
    let badOrder = try await server.get("/b/demo-app?order=loudest")
    #expect(badOrder.status == 400)
    let badCursor = try await server.get("/b/demo-app?cursor=garbage")
    #expect(badCursor.status == 400)
    #expect(badCursor.body.contains("cursor"))
  }

  @Test func customBoardsHaveTheirOwnPageAndHiddenOnesNone() async throws {
    let server = try await BoardServer.start()
    do { try await customBoardsHaveTheirOwnPageAndHiddenOnesNone(server) } catch {
      Issue.record(error)
    }
    await server.stop()
  }

  func customBoardsHaveTheirOwnPageAndHiddenOnesNone(_ server: BoardServer) async throws {
    _ = try await BoardBrowserTests.seed(server)
    try await server.admin(
      "PUT", "/boards/ideas",
      ["slug": "ideas", "name": "Ideas <&> more", "isPublic": true, "votingEnabled": false])
    try await server.admin(
      "PUT", "/boards/secret", ["slug": "secret", "name": "Secret", "isPublic": false])
    let column = try await server.admin(
      "POST", "/stages", ["name": "Maybe", "board": "ideas", "position": 0])
    try await server.admin(
      "PUT", "/features/ref/idea-1",
      ["ref": "idea-1", "title": "Themes", "board": "ideas", "stage": column["id"] ?? 0])
    try await server.admin(
      "PUT", "/features/ref/secret-1", ["ref": "secret-1", "title": "Hidden", "board": "secret"])

    let ideas = try await server.get("/b/demo-app/ideas")
    #expect(ideas.status == 200)
    #expect(ideas.body.contains("<h1>Ideas &lt;&amp;&gt; more</h1>"))
    #expect(ideas.body.contains("id=\"stage-\(column["id"] as? Int ?? 0)-title\""))
    #expect(ideas.body.contains("Themes"))
    #expect(!ideas.body.contains("Dark mode"), "the roadmap's features stay on the roadmap")
    #expect(ideas.body.contains("Voting is closed on this board."))
    #expect(!ideas.body.contains("class=\"vote-button\""))
    let roadmap = try await server.get("/b/demo-app")
    #expect(roadmap.body.contains("href=\"/b/demo-app/ideas\""))
    #expect(!roadmap.body.contains("Secret") && !roadmap.body.contains("Hidden"))
    let secret = try await server.get("/b/demo-app/secret")
    #expect(secret.status == 404)
  }

  @Test func pagesDrawFromTheReadRateLimit() async throws {
    // --read-limit 2: two reads a minute in bursts of one.
    let server = try await BoardServer.start(limits: ["--read-limit", "2"])
    do { try await pagesDrawFromTheReadRateLimit(server) } catch { Issue.record(error) }
    await server.stop()
  }

  func pagesDrawFromTheReadRateLimit(_ server: BoardServer) async throws {
    let first = try await server.get("/b/demo-app")
    #expect(first.status == 404)
    // The allowance comes back every 30 s, and a loaded machine once took longer than that
    // between two reads: the refusal is looked for among the next few.
    var second = try await server.get("/b/demo-app")
    for _ in 0..<4 where second.status != 429 {
      second = try await server.get("/b/demo-app")
    }
    #expect(second.status == 429)
    #expect(Int(second.headers["retry-after"] ?? "") ?? 0 > 0)
    #expect(second.headers["content-type"] == "text/html; charset=utf-8")
    #expect(second.body.contains("Too many requests"))
  }
}
