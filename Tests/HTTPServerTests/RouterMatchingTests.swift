import Testing

@testable import HTTPServer

/// The router matches a path's bytes in place (no string per segment). These pin that it
/// matches exactly what comparing the decoded segments as strings matches: escapes in
/// literals, case, non-ASCII literals (`==` on strings is canonical equivalence), runs of
/// slashes, queries, and the parameters' decoded values.
@Suite struct RouterMatchingTests {
  static let patterns = [
    "/hit/:ns/:key", "/hit/:key", "/get/:ns/:key", "/v1/:ns/:name/up", "/caf\u{E9}/:x", "/K",
    "/a b/:x", "/",
  ]

  static let targets = [
    "/hit/bench/feature1", "/hit/bench/feature1?x=/y/z", "//hit//bench///feature1/",
    "/h%69t/bench/feature1", "/HIT/bench/feature1", "/hit/my%2Dns/a%2Fb", "/hit/feature1",
    "/hit/bench/feature1/extra", "/get/bench/feature1", "/v1/ns/name/up", "/v1/ns/name/UP",
    "/caf%C3%A9/1", "/cafe%CC%81/2", "/cafe/3", "/K", "/%E2%84%AA", "/k", "/a%20b/1",
    "/a+b/1", "/", "", "?/hit/a/b", "/hit/%ZZ/%", "/hit/%E2%9C%93/x",
    "/" + String(repeating: "s/", count: 40),
  ]

  /// What the route `pattern` gives for `target` when every segment is compared as a
  /// decoded string: nil for no match, else the parameters in order.
  static func reference(_ pattern: String, _ target: String) -> [String]? {
    let segments = pattern.split(separator: "/").map(String.init)
    let parts = Router.segments(ofTarget: target)
    guard segments.count == parts.count else { return nil }
    var parameters: [String] = []
    for (segment, part) in zip(segments, parts) {
      if segment.hasPrefix(":") {
        parameters.append(segment.dropFirst() + "=" + part)
      } else if segment != part {
        return nil
      }
    }
    return parameters
  }

  static func names(_ pattern: String) -> [String] {
    pattern.split(separator: "/").filter { $0.hasPrefix(":") }.map { String($0.dropFirst()) }
  }

  @Test(arguments: patterns)
  func routesMatchAsTheDecodedSegmentsCompare(_ pattern: String) async {
    let names = Self.names(pattern)
    var router = Router()
    router.get(pattern) { request in
      .json(names.map { "\($0)=\(request.parameter($0) ?? "?")" }.joined(separator: "|"))
    }
    for target in Self.targets {
      let response = await router.respond(to: HTTPRequest(method: .get, target: target))
      let expected = Self.reference(pattern, target)
      if let expected {
        #expect(response.status == 200, "\(pattern) \(target)")
        #expect(
          String(decoding: response.body, as: UTF8.self) == expected.joined(separator: "|"),
          "\(pattern) \(target)")
      } else {
        #expect(response.status == 404, "\(pattern) \(target)")
      }
    }
  }

  @Test(arguments: patterns)
  func immediateRoutesMatchAsTheDecodedSegmentsCompare(_ pattern: String) {
    let names = Self.names(pattern)
    var router = Router()
    router.immediate(pattern) { request, _ in
      .response(
        .json(names.map { "\($0)=\(request.parameter($0) ?? "?")" }.joined(separator: "|")))
    }
    let responder = HTTPResponder { _ in }
    for target in Self.targets {
      let answer = router.respondImmediately(
        to: HTTPRequest(method: .get, target: target), responder: responder)
      switch (answer, Self.reference(pattern, target)) {
      case (.response(let response)?, let expected?):
        #expect(
          String(decoding: response.body, as: UTF8.self) == expected.joined(separator: "|"),
          "\(pattern) \(target)")
      case (nil, nil):
        break
      default:
        Issue.record("\(pattern) \(target): \(String(describing: answer))")
      }
    }
  }

  /// A path that matches a route of another method still gets 405 with every such method.
  @Test func otherMethodsOfAMatchingPathAreAllowed() async {
    var router = Router()
    router.post("/h%69t/:x") { _ in .json("{}") }
    router.on(.put, "/hit/:y") { _ in .json("{}") }
    router.get("/other/:x") { _ in .json("{}") }
    let r = await router.respond(to: HTTPRequest(method: .get, target: "//hit/1?a=/b"))
    #expect(r.status == 405)
    #expect(r.headers["allow"] == "PUT")
    let head = await router.respond(to: HTTPRequest(method: .head, target: "/other/1"))
    #expect(head.status == 200)
  }

  /// A parameter named twice in a pattern reads as its last segment.
  @Test func aParameterNamedTwiceReadsAsTheLast() async {
    var router = Router()
    router.get("/a/:x/:x") { request in .json(request.parameter("x") ?? "-") }
    let r = await router.respond(to: HTTPRequest(method: .get, target: "/a/first/second"))
    #expect(String(decoding: r.body, as: UTF8.self) == "second")
  }

  /// Header names compare without case over ASCII letters only, in every kind of string.
  @Test func caseInsensitiveEqualityIsASCIIOnly() {
    #expect("Content-Length".caseInsensitiveEquals("content-length"))
    #expect("HOST".caseInsensitiveEquals("host"))
    #expect(!"Host".caseInsensitiveEquals("Hos"))
    #expect(!"Hosu".caseInsensitiveEquals("Host"))
    #expect(!"\u{C9}".caseInsensitiveEquals("\u{E9}"))
    #expect("x-\u{E9}t\u{E9}".caseInsensitiveEquals("X-\u{E9}T\u{E9}"))
    #expect(!"[".caseInsensitiveEquals("{"))
    let long = String(repeating: "Abc", count: 20)
    #expect(long.caseInsensitiveEquals(long.lowercased()))
    #expect(!long.caseInsensitiveEquals(long.lowercased() + "d"))
    #expect("".caseInsensitiveEquals(""))
  }
}
