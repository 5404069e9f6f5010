import Testing
import VoteFirstAPI
import WebBoard

/// The stylesheet and script served from the binary.
@Suite struct AssetTests {
  @Test func pathsAreVersionedByContent() {
    for asset in WebAsset.all {
      let version = WebAsset.hash(asset.body)
      #expect(version.count == 12)
      #expect(
        [".css", ".js", ".svg"].contains { asset.path.hasSuffix("-\(version)\($0)") },
        "\(asset.path)")
      #expect(asset.etag == "\"\(version)\"")
      #expect(WebAsset.named(asset.path) == asset)
    }
    #expect(WebAsset.named("/assets/board.css") == nil)
    #expect(WebAsset.hash(Array("a".utf8)) != WebAsset.hash(Array("b".utf8)))
    // FNV-1a 64 of "a" is af63dc4c8601ec8c.
    #expect(WebAsset.hash(Array("a".utf8)) == "af63dc4c8601")
  }

  @Test func assetsReachNoOtherHost() {
    for asset in WebAsset.all {
      // An SVG's namespace name is a name, never fetched.
      let text = String(decoding: asset.body, as: UTF8.self)
        .replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
      #expect(!text.contains("http://") && !text.contains("https://"))
      #expect(!text.contains("url("))
      #expect(!text.contains("@import"))
    }
  }

  /// Every page, problem pages too, links the served icon, so no browser asks for
  /// `/favicon.ico` (a 404 that took a read from the rate limit on every view).
  @Test func everyPageLinksTheIcon() async {
    let link = "<link rel=\"icon\" href=\"\(WebAsset.icon.path)\" type=\"image/svg+xml\">"
    for target in ["/b/demo-app", "/b/demo-app/features/1", "/b/demo-app/changelog", "/b/nope"] {
      #expect(RouteTests.body(await RouteTests.get(target)).contains(link), "\(target)")
    }
    let icon = await RouteTests.get(WebAsset.icon.path)
    #expect(icon.status == 200 && icon.headers["Content-Type"] == "image/svg+xml")
    #expect(RouteTests.body(icon).hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
  }

  @Test func scriptUsesTheContractsHeaderAndRoutes() {
    let js = String(decoding: WebAsset.script.body, as: UTF8.self)
    #expect(js.contains("\"\(VoteFirstContract.Header.voterID)\""))
    #expect(js.contains("\"/features/\" + id + \"/vote\""))
    #expect(js.contains("\"/suggestions\""))
    #expect(js.contains("waiting for approval"))
    #expect(
      js.contains("\(VoteFirstLimits.maxTitle)") && js.contains("\(VoteFirstLimits.maxDescription)")
    )
  }

  /// The voter cookie names this browser's votes: on a board served over HTTPS it is written
  /// `Secure`, so no plain `http://` request to the host (an old link, a redirecting port 80)
  /// carries it in clear. Before, it was written without, whatever the page's scheme.
  @Test func voterCookieIsSecureOverHTTPS() {
    let js = String(decoding: WebAsset.script.body, as: UTF8.self)
    // The one statement that writes the cookie, up to its end.
    let writes = js.components(separatedBy: "document.cookie = ").dropFirst()
    #expect(writes.count == 1)
    for write in writes {
      let statement = write.components(separatedBy: ");").first ?? ""
      #expect(statement.contains("SameSite=Lax"))
      #expect(statement.contains("window.location.protocol === \"https:\" ? \"; Secure\" : \"\""))
    }
  }
}
