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
