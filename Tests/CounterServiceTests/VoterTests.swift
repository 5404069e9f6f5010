import Foundation
import HTTPServer
import Testing

@testable import CounterService

/// Voter identity: idempotent votes, own-vote unvotes, `requireVoter`.
@Suite struct VoterTests {
  @Test func hitIsIdempotentPerVoterAndUnvoteRemovesOnlyOwnVote() async throws {
    let h = try ServiceHarness()
    let alice: HTTPHeaders = ["X-Voter-ID": "alice-0001"]
    let bob: HTTPHeaders = ["X-Voter-ID": "bob:42@example.com"]
    let carol: HTTPHeaders = ["X-Voter-ID": "carol"]
    await h.run([
      Step("/hit/ns1/feature1", 200, #"{"value":1}"#, headers: alice),
      Step("/hit/ns1/feature1", 200, #"{"value":1}"#, headers: alice),
      Step("/hit/ns1/feature1", 200, #"{"value":2}"#, headers: bob),
      Step("/hit/ns1/feature1?voter=alice-0001", 200, #"{"value":2}"#),
      Step("/update/ns1/feature1?amount=-1", 200, #"{"value":2}"#, headers: carol),
      Step("/update/ns1/feature1?amount=-1", 200, #"{"value":2}"#, headers: carol),
      Step("/update/ns1/feature1?amount=-1&voter=bob:42@example.com", 200, #"{"value":1}"#),
      Step("/update/ns1/feature1?amount=-1", 200, #"{"value":1}"#, headers: bob),
      Step("/update/ns1/feature1?amount=1", 200, #"{"value":2}"#, headers: bob),
      Step("/update/ns1/feature1?amount=1", 200, #"{"value":2}"#, headers: bob),
      Step("/update/ns1/feature1?amount=-1", 200, #"{"value":1}"#, headers: alice),
      Step("/update/ns1/feature1?amount=-1", 200, #"{"value":1}"#, headers: alice),
    ])
    await h.tearDown()
  }

  @Test(arguments: [
    "has space", String(repeating: "v", count: 129), "tab\there", "ä-voter", "a<b>",
  ])
  func invalidVoterIdsAre400(voter: String) async throws {
    let h = try ServiceHarness()
    let answer = await h.call("/hit/ns1/feature1", headers: ["X-Voter-ID": voter])
    #expect(answer.status == 400)
    #expect(answer.body.contains("invalid voter id"))
    #expect(await h.call("/get/ns1/feature1").status == 404)
    await h.tearDown()
  }

  @Test func requireVoterRefusesAnonymousWritesOnly() async throws {
    let h = try ServiceHarness { $0.requireVoter = true }
    let why =
      #"{"error":"this server refuses anonymous votes: send a voter id in the X-Voter-ID header or the voter= query parameter"}"#
    await h.run([
      Step("/hit/ns1/feature1", 403, why),
      Step("/update/ns1/feature1?amount=-1", 403, why),
      Step("/get/ns1/feature1", 404, #"{"value":null}"#),
      Step("/hit/ns1/feature1?voter=dave", 200, #"{"value":1}"#),
      Step("/update/ns1/feature1?amount=0", 200, #"{"value":1}"#),
      Step("/v1/ns1/feature1/up", 403, nil),
      Step("/v1/ns1/feature1/down", 403, nil),
    ])
    let v1 = await h.call("/v1/ns1/feature1/up")
    #expect(v1.object["code"] as? Int == 403)
    #expect((v1.object["message"] as? String ?? "").contains("X-Voter-ID"))
    await h.tearDown()
  }
}
