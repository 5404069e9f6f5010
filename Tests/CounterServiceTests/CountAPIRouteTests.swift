import Foundation
import HTTPServer
import Testing

@testable import CounterService

/// countapi.xyz routes, in process, over a real SQLite store.
@Suite struct CountAPIRouteTests {
  static let nameError = #"{"error":"namespace and key must match ^[A-Za-z0-9_\\-.]{3,64}$"}"#
  static let admin: HTTPHeaders = ["Authorization": "Bearer \(ServiceHarness.token)"]

  @Test func getHitUpdateTable() async throws {
    let h = try ServiceHarness()
    await h.run([
      Step("/get/ns1/feature1", 404, #"{"value":null}"#),
      Step("/hit/ns1/feature1", 200, #"{"value":1}"#),
      Step("/hit/ns1/feature1", 200, #"{"value":2}"#),
      Step("/get/ns1/feature1", 200, #"{"value":2}"#),
      Step("/update/ns1/feature1?amount=-1", 200, #"{"value":1}"#),
      Step("/update/ns1/feature1?amount=2", 403, #"{"value":1}"#),
      Step("/update/ns1/feature1?amount=-2", 403, #"{"value":1}"#),
      Step("/update/ns1/feature1?amount=+1", 200, #"{"value":2}"#),
      Step("/update/ns1/feature1?amount=-1", 200, #"{"value":1}"#),
      Step("/update/ns1/feature1?amount=-1", 200, #"{"value":0}"#),
      Step("/update/ns1/feature1?amount=-1", 200, #"{"value":0}"#),
      Step("/update/ns1/feature1?amount=0", 200, #"{"value":0}"#),
      Step("/update/ns1/nothere?amount=1", 404, #"{"value":null}"#),
      Step("/update/ns1/feature1?amount=x", 400, #"{"error":"amount must be an integer"}"#),
      Step("/update/ns1/feature1", 400, #"{"error":"amount must be an integer"}"#),
      Step(
        "/update/ns1/feature1?amount=99999999999999999999", 400,
        #"{"error":"amount must be an integer from -9007199254740991 to 9007199254740991"}"#),
    ])
    await h.tearDown()
  }

  @Test func namespaceIsOptionalAndMeansDefault() async throws {
    let h = try ServiceHarness()
    await h.run([
      Step("/hit/feature9", 200, #"{"value":1}"#),
      Step("/get/default/feature9", 200, #"{"value":1}"#),
      Step("/get/feature9", 200, #"{"value":1}"#),
      Step("/update/feature9?amount=-1", 200, #"{"value":0}"#),
      Step("/set/feature9?value=4", 200, #"{"old_value":0,"value":4}"#, headers: Self.admin),
      Step("/info/feature9", 200, nil),
      Step("/get/nothing9", 404, #"{"value":null}"#),
    ])
    let answer = await h.call("/hit/feature9")
    #expect(answer.headers["X-Path"] == "/default/feature9")
    await h.tearDown()
  }

  @Test(arguments: [
    "/get/ab/feature1", "/get/ns1/ab", "/get/ns1/bad%20key",
    "/hit/ns1/" + String(repeating: "k", count: 65), "/update/ns1/a%C3%A9b?amount=1",
    "/set/ns1/x?value=1", "/info/n/feature1", "/get/xy",
  ])
  func invalidNamesAre400(target: String) async throws {
    let h = try ServiceHarness()
    let answer = await h.call(target, headers: Self.admin)
    #expect(answer.status == 400)
    #expect(answer.body == Self.nameError)
    #expect(answer.headers["Access-Control-Allow-Origin"] == "*")
    #expect(answer.headers["X-Path"] != nil)
    await h.tearDown()
  }

  /// An empty namespace or key (`/hit//feature1`, what a client with an empty namespace
  /// sends) is refused, not read as `/hit/feature1` on `default`; slashes at the ends pass.
  @Test func anEmptySegmentIsRefusedNotReadAsAnotherCounter() async throws {
    let h = try ServiceHarness()
    let empty = #"{"error":"a namespace or key is empty: the path has an empty segment (//)"}"#
    await h.run([
      Step("/hit//feature1", 400, empty),
      Step("/get//feature1", 400, empty),
      Step("/update/ns1//feature1?amount=1", 400, empty),
      Step("/info//feature1", 400, empty),
      Step("/get/default/feature1", 404, #"{"value":null}"#),
      Step("//hit/ns1/feature1", 200, #"{"value":1}"#),
      Step("/hit/ns1/feature1/", 200, #"{"value":2}"#),
      Step("/get/ns1/feature1//", 200, #"{"value":2}"#),
    ])
    let v1 = await h.call("/v1/ns1//likes/up")
    #expect(v1.status == 400)
    #expect(v1.body.contains("the path has an empty segment"))
    #expect(NameRules.hasEmptyInnerSegment("/hit/a//b?x=//"))
    #expect(!NameRules.hasEmptyInnerSegment("/hit/a/b?x=//"))
    #expect(!NameRules.hasEmptyInnerSegment("///"))
    await h.tearDown()
  }

  /// Bug: under `--require-voter`, `/create?…&enable_reset=1&value=500` and then `/set` wrote
  /// counts without any voter id (and wiped the identified votes): both need the token now.
  @Test func requireVoterClosesTheOtherAnonymousWrites() async throws {
    let h = try ServiceHarness { $0.requireVoter = true }
    let refusesVotes = "this server refuses anonymous votes"
    let starting = await h.call("/create?namespace=rv1&key=feature50&value=500")
    #expect(starting.status == 403)
    #expect(starting.body.contains(refusesVotes), "\(starting.body)")
    let resettable = await h.call("/create?namespace=rv1&key=feature50&enable_reset=1")
    #expect(resettable.status == 403)
    // A plain one is a write too: it needs a voter id, as a vote does.
    let anonymous = await h.call("/create?namespace=rv1&key=feature50")
    #expect(anonymous.status == 403)
    #expect(anonymous.body.contains("send a voter id"), "\(anonymous.body)")
    #expect(await h.call("/create?namespace=rv1&key=feature50&voter=ann").status == 200)
    #expect(await h.call("/hit/rv1/feature50?voter=ann").body == #"{"value":1}"#)
    let set = await h.call("/set/rv1/feature50?value=0")
    #expect(set.status == 403)
    #expect(set.body.contains("setting a count needs the admin token"), "\(set.body)")
    #expect(await h.call("/get/rv1/feature50").body == #"{"value":1}"#)
    // With the token, all of it works.
    let admin = await h.call(
      "/create?namespace=rv1&key=feature51&value=5&enable_reset=1", headers: Self.admin)
    #expect(admin.status == 200)
    #expect(await h.call("/set/rv1/feature51?value=7", headers: Self.admin).status == 200)
    await h.tearDown()
  }

  @Test func namesAtTheLimitsAreAccepted() async throws {
    let h = try ServiceHarness()
    let long = String(repeating: "k", count: 64)
    await h.run([
      Step("/hit/a-b/\(long)", 200, #"{"value":1}"#),
      Step("/hit/com.example.App_1/feature-1.2", 200, #"{"value":1}"#),
    ])
    await h.tearDown()
  }

  /// A server started without an admin token says so when `/set` needs one (no token sent
  /// could do), in both dialects, as the board's admin calls do.
  @Test func setOnAServerWithoutAnAdminTokenSaysItHasNone() async throws {
    let h = try ServiceHarness { $0.adminToken = nil }
    let none = CounterService.noAdminTokenMessage
    await h.run([
      Step("/hit/ns1/feature1", 200, #"{"value":1}"#),
      Step(
        "/set/ns1/feature1?value=5&token=anything", 403,
        #"{"error":"this key was not created with enable_reset; setting it needs the admin token ("#
          + none + #")"}"#),
      Step(
        "/v1/ns1/likes/set?count=3", 401,
        #"{"code":401,"message":"setting a count needs the admin token (Authorization: Bearer T or token=T) ("#
          + none + #")"}"#),
    ])
    await h.tearDown()
  }

  @Test func setNeedsTheAdminTokenOrEnableReset() async throws {
    let h = try ServiceHarness()
    let wrong: HTTPHeaders = ["Authorization": "Bearer nope"]
    let resetError =
      #"{"error":"this key was not created with enable_reset; setting it needs the admin token"}"#
    await h.run([
      Step("/hit/ns1/feature1", 200, #"{"value":1}"#),
      Step("/set/ns1/feature1?value=5", 403, resetError),
      Step("/set/ns1/feature1?value=5", 403, resetError, headers: wrong),
      Step("/set/ns1/feature1?value=5&token=nope", 403, resetError),
      Step("/set/ns1/none1?value=5", 404, #"{"value":null}"#),
      Step("/set/ns1/feature1?value=5", 200, #"{"old_value":1,"value":5}"#, headers: Self.admin),
      Step(
        "/set/ns1/feature1?value=6", 200, #"{"old_value":5,"value":6}"#,
        headers: ["authorization": "bearer \(ServiceHarness.token)"]),
      Step(
        "/set/ns1/feature1?value=7&token=\(ServiceHarness.token)", 200,
        #"{"old_value":6,"value":7}"#),
      Step("/set/ns1/created?value=3", 200, #"{"old_value":0,"value":3}"#, headers: Self.admin),
      Step("/get/ns1/created", 200, #"{"value":3}"#),
      Step(
        "/set/ns1/feature1?value=-1", 400, #"{"error":"value must be a non-negative integer"}"#,
        headers: Self.admin),
      Step(
        "/set/ns1/feature1", 400, #"{"error":"value must be a non-negative integer"}"#,
        headers: Self.admin),
    ])
    await h.tearDown()
  }

  @Test func setWithoutAConfiguredTokenNeverGrantsAdmin() async throws {
    let h = try ServiceHarness { $0.adminToken = nil }
    await h.run([
      Step("/hit/ns1/feature1", 200, #"{"value":1}"#),
      Step("/set/ns1/feature1?value=5&token=", 403, nil),
      Step("/set/ns1/feature1?value=5", 403, nil, headers: ["Authorization": "Bearer "]),
    ])
    await h.tearDown()
  }

  @Test func createTable() async throws {
    let h = try ServiceHarness()
    let boundsError =
      #"{"error":"update_lowerbound must be an integer <= 0 and update_upperbound one >= 0"}"#
    await h.run([
      Step(
        "/create?namespace=ns1&key=resettable&value=3&enable_reset=1", 200,
        #"{"namespace":"ns1","key":"resettable","value":3}"#),
      Step(
        "/create?namespace=ns1&key=resettable", 409,
        #"{"namespace":null,"key":null,"value":null}"#),
      Step("/set/ns1/resettable?value=7", 200, #"{"old_value":3,"value":7}"#),
      Step(
        "/create?namespace=ns1&key=wide&update_lowerbound=-5&update_upperbound=5", 200,
        #"{"namespace":"ns1","key":"wide","value":0}"#),
      Step("/update/ns1/wide?amount=5", 200, #"{"value":5}"#),
      Step("/update/ns1/wide?amount=6", 403, #"{"value":5}"#),
      Step("/update/ns1/wide?amount=-5", 200, #"{"value":0}"#),
      Step("/create?key=indefault", 200, #"{"namespace":"default","key":"indefault","value":0}"#),
      Step("/create?namespace=ns1&key=bad&update_lowerbound=2", 400, boundsError),
      Step("/create?namespace=ns1&key=bad&update_upperbound=-1", 400, boundsError),
      Step("/create?namespace=ns1&key=bad&update_upperbound=x", 400, boundsError),
      Step(
        "/create?namespace=ns1&key=bad&enable_reset=maybe", 400,
        #"{"error":"enable_reset must be 0, 1, true or false"}"#),
      Step(
        "/create?namespace=ns1&key=bad&value=-3", 400,
        #"{"error":"value must be a non-negative integer"}"#),
      Step("/create?namespace=n&key=bad", 400, Self.nameError),
      Step("/create?namespace=ns1&key=b%20d", 400, Self.nameError),
    ])
    let random = await h.call("/create?namespace=ns1")
    #expect(random.status == 200)
    let key = try #require(random.object["key"] as? String)
    #expect(key.count == 36)
    await h.tearDown()
  }

  @Test func infoAndStats() async throws {
    let h = try ServiceHarness()
    _ = await h.call("/create?namespace=ns1&key=info1&value=2&enable_reset=true")
    _ = await h.call("/hit/ns1/info1")
    let info = await h.call("/info/ns1/info1")
    #expect(info.status == 200)
    let o = info.object
    #expect(o["namespace"] as? String == "ns1")
    #expect(o["key"] as? String == "info1")
    #expect(o["ttl"] as? Int == -1)
    #expect((o["created"] as? Int ?? 0) > 1_700_000_000_000)
    #expect(o["value"] as? Int == 3)
    #expect(o["enable_reset"] as? Bool == true)
    #expect(o["update_lowerbound"] as? Int == -1)
    #expect(o["update_upperbound"] as? Int == 1)
    #expect(info.body.hasPrefix(#"{"namespace":"ns1","key":"info1","ttl":-1,"created":"#))
    await h.run([Step("/info/ns1/missing", 404, #"{"value":null}"#)])

    let stats = await h.call("/stats")
    #expect(stats.status == 200)
    #expect(stats.object["keys_created"] as? Int == 1)
    #expect((stats.object["keys_updated"] as? Int ?? 0) >= 1)
    #expect((stats.object["requests"] as? Int ?? 0) >= 4)
    #expect(stats.object["version"] as? String == "0.1.0")
    await h.tearDown()
  }

  @Test func strictCountapiGivesTheOriginalBounds() async throws {
    let h = try ServiceHarness { $0.strictCountapi = true }
    await h.run([
      Step("/hit/ns1/feature1", 200, #"{"value":1}"#),
      Step("/update/ns1/feature1?amount=-1", 403, #"{"value":1}"#),
      Step("/get/ns1/feature1", 200, #"{"value":1}"#),
    ])
    let info = await h.call("/info/ns1/feature1")
    #expect(info.object["update_lowerbound"] as? Int == 0)
    await h.tearDown()
  }
}
