import Testing
import VoteFirstAPI
import WebBoard

/// The stylesheet and script served from the binary.
@Suite struct AssetTests {
  @Test func pathsAreVersionedByContent() {
    for asset in WebAsset.all {
      let version = WebAsset.hash(asset.body)
      #expect(version.count == 12)
      #expect(asset.path.hasSuffix("-\(version).css") || asset.path.hasSuffix("-\(version).js"))
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
      let text = String(decoding: asset.body, as: UTF8.self)
      #expect(!text.contains("http://") && !text.contains("https://"))
      #expect(!text.contains("url("))
      #expect(!text.contains("@import"))
    }
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
}
