import Testing

@testable import HTTPServer

@Suite struct RouterTests {
  @Test func matchesParametersAndDecodesQuery() async {
    var router = Router()
    router.get("/get/:ns/:key") { req in
      .json("\(req.parameter("ns")!)|\(req.parameter("key")!)|\(req.query("amount") ?? "-")")
    }
    let r = await router.respond(
      to: HTTPRequest(method: .get, target: "/get/my%2Dns/feature1?amount=-1&x=a+b"))
    #expect(r.status == 200)
    #expect(String(decoding: r.body, as: UTF8.self) == "my-ns|feature1|-1")
  }

  @Test func encodedSlashStaysInsideItsSegment() async {
    var router = Router()
    router.get("/get/:ns/:key") { req in .json(req.parameter("key")!) }
    let r = await router.respond(to: HTTPRequest(method: .get, target: "/get/ns/a%2Fb?x=/y"))
    #expect(r.status == 200)
    #expect(String(decoding: r.body, as: UTF8.self) == "a/b")
    #expect(Router.segments(ofTarget: "//a///b%20c/") == ["a", "b c"])
    #expect(Router.segments(ofTarget: "/") == [])
  }

  /// The segments are what splitting the path at every `/` and dropping the empty pieces
  /// gives, each decoded: for targets with runs of slashes, queries, escapes and none.
  @Test func segmentsAreThePathsNonEmptyPiecesDecoded() {
    let targets = [
      "", "/", "//", "a", "/a", "a/b", "/a/b/", "///a//b///c", "/hit/bench/feature1",
      "/hit/bench/feature1?x=/y/z", "/?q", "?/a", "/a%2Fb/c%20d?e=%2F", "/%E2%9C%93/x",
      "/" + String(repeating: "s/", count: 40),
    ]
    for target in targets {
      let path =
        target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        .first.map(String.init) ?? ""
      let expected = path.split(separator: "/").map {
        URLComponentsDecoder.percentDecode(Array($0.utf8), plusAsSpace: false)
      }
      #expect(Router.segments(ofTarget: target) == expected, "\(target)")
    }
  }

  @Test func wrongMethodIs405WithAllow() async {
    var router = Router()
    router.get("/a") { _ in .json("{}") }
    let r = await router.respond(to: HTTPRequest(method: .post, target: "/a"))
    #expect(r.status == 405)
    #expect(r.headers["allow"] == "GET")
  }

  @Test func unknownPathIs404() async {
    let r = await Router().respond(to: HTTPRequest(method: .get, target: "/nope"))
    #expect(r.status == 404)
  }
}

/// A request is a value: a copy changed (its box copied on write) leaves the original as it
/// was, and path parameters read back as they were set.
@Suite struct HTTPRequestValueTests {
  @Test func aChangedCopyLeavesTheOriginalAlone() {
    var headers = HTTPHeaders()
    headers.replaceOrAdd(name: "X-One", value: "1")
    let original = HTTPRequest(
      method: .get, target: "/a/b?x=1", headers: headers, body: [1, 2], remoteAddress: "127.0.0.1")
    var copy = original
    copy.target = "/c"
    copy.path = "/c"
    copy.queryItems = []
    copy.headers.replaceOrAdd(name: "X-One", value: "2")
    copy.body = [3]
    copy.remoteAddress = "::1"
    #expect(original.target == "/a/b?x=1" && original.path == "/a/b")
    #expect(original.query("x") == "1")
    #expect(original.headers["X-One"] == "1")
    #expect(original.body == [1, 2] && original.remoteAddress == "127.0.0.1")
    #expect(copy.target == "/c" && copy.path == "/c" && copy.query("x") == nil)
    #expect(copy.headers["X-One"] == "2" && copy.body == [3] && copy.remoteAddress == "::1")
  }

  @Test func pathParametersReadBackAsSet() {
    var request = HTTPRequest(method: .get, target: "/p")
    request.pathParameters = ["project": "demo", "id": "7"]
    #expect(request.parameter("project") == "demo" && request.parameter("id") == "7")
    request.pathParameters["id"] = "8"
    #expect(request.pathParameters == ["project": "demo", "id": "8"])
    #expect(request.parameter("missing") == nil)
  }
}
