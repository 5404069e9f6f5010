import Foundation
import HTTPServer
import Testing
import VoteFirstAPI

@testable import CounterService

/// `PUT /features/{id}` replaces a feature's content, but a body that leaves `ref` out keeps
/// the ref, and with it the counter that holds the feature's votes.
@Suite struct FeatureReplaceTests {
  /// Bug: `{"title":"A (renamed)"}` took the feature off its counter: its votes read 0, the
  /// live roadmap published it as `vf-1`, and the next migration made a second feature.
  @Test func aBodyWithoutRefKeepsTheRefAndTheVotes() async throws {
    try await BoardHarness.with { harness in
      await harness.admin(.put, "/features/ref/one", #"{"title":"One","description":"d"}"#)
      for voter in ["ann", "bob"] {
        let vote = await harness.call(.post, "/api/v1/demo-app/features/1/vote", voter: voter)
        #expect(vote.status == 200, "\(vote.body)")
      }
      let renamed = await harness.admin(.put, "/features/1", #"{"title":"One, renamed"}"#)
      #expect(renamed.object["ref"] as? String == "one", "\(renamed.body)")
      #expect(renamed.object["votes"] as? Int == 2)
      #expect(renamed.object["title"] as? String == "One, renamed")
      // The rest is replaced: a description left out is the default, empty.
      #expect(renamed.object["description"] as? String == "")
      let read = await harness.get("/features/1", voter: "ann")
      #expect(read.object["voted"] as? Bool == true)

      // `"ref": null` takes it away, as it did.
      let bare = await harness.admin(.put, "/features/1", #"{"title":"Bare","ref":null}"#)
      #expect(bare.object["ref"] == nil, "\(bare.body)")
      #expect(bare.object["votes"] as? Int == 0)
    }
  }
}

/// An `extra` member's JSON text must be one JSON value: stored otherwise, it was dropped
/// without a word from every Roadmap JSON the board was published as.
@Suite struct ExtraMemberTests {
  @Test func anExtraThatIsNotJSONIsRefusedWithItsField() async throws {
    try await BoardHarness.with { harness in
      let refused = await harness.call(
        .put, "/api/v1/demo-app/features/ref/one",
        json:
          #"{"title":"One","extra":[{"key":"url","json":"\"ok\""},{"key":"x","json":"not json"}]}"#,
        admin: true)
      #expect(refused.status == 422, "\(refused.body)")
      #expect(refused.body.contains(#""field":"extra[1].json""#), "\(refused.body)")
      #expect(refused.body.contains("the JSON text of x is not one JSON value"))
      let taken = await harness.admin(
        .put, "/features/ref/one",
        #"{"title":"One","extra":[{"key":"url","json":" \"https://x.example\" "},{"key":"n","json":"1.50"}]}"#
      )
      #expect(taken.status == 201, "\(taken.body)")
    }
  }
}

/// A target whose percent-escapes are broken or not UTF-8 is a 400 naming it: decoded anyway,
/// `PUT …/features/ref/%ff` and `…/ref/%fe` both wrote the feature with the ref "\u{FFFD}".
@Suite struct MalformedTargetTests {
  @Test(arguments: [
    ("/api/v1/demo-app/features/ref/%ff", "path"), ("/api/v1/demo-app/features/ref/x%2", "path"),
    ("/api/v1/demo-app/features/ref/%zz", "path"), ("/api/v1/demo-app/features?q=%ff", "query"),
    ("/api/v1/demo-app/features?q=%e2%82", "query"),
  ])
  func isRefusedWithItsPart(_ target: String, _ field: String) async throws {
    try await BoardHarness.with { harness in
      let answer = await harness.call(.put, target, json: #"{"title":"x"}"#, admin: true)
      #expect(answer.status == 400, "\(target): \(answer.body)")
      #expect(answer.body.contains(#""code":"invalid_parameter""#), "\(answer.body)")
      #expect(answer.body.contains(#""field":"\#(field)""#), "\(answer.body)")
    }
  }

  @Test func wellFormedEscapesPass() async throws {
    try await BoardHarness.with { harness in
      let made = await harness.admin(.put, "/features/ref/caf%C3%A9%20au%2Flait", #"{"title":"x"}"#)
      #expect(made.object["ref"] as? String == "café au/lait", "\(made.body)")
      #expect(
        HTTPRequest(method: .get, target: "/api/v1/p/features?q=%E2%82%AC&x=1")
          .percentEncodingProblem == nil)
    }
  }
}

/// A tag listed twice is refused with its place: stored, the feature showed it twice.
@Suite struct DuplicateTagTests {
  @Test func aTagListedTwiceIsRefused() async throws {
    try await BoardHarness.with { harness in
      await harness.admin(.post, "/tags", #"{"name":"iOS"}"#)
      await harness.admin(.post, "/tags", #"{"name":"Mac"}"#)
      let refused = await harness.call(
        .put, "/api/v1/demo-app/features/ref/one", json: #"{"title":"One","tags":[1,2,1]}"#,
        admin: true)
      #expect(refused.status == 422, "\(refused.body)")
      #expect(refused.body.contains(#""field":"tags[2]""#), "\(refused.body)")
      let taken = await harness.admin(.put, "/features/ref/one", #"{"title":"One","tags":[2,1]}"#)
      #expect(taken.object["tags"] as? [Int] == [2, 1], "\(taken.body)")
    }
  }
}

/// Ids in a path are written as the server writes them; a ref left out is named as one.
@Suite struct PathIDTests {
  @Test func anIdIsItsDigitsAndAMissingRefIsNamed() async throws {
    try await BoardHarness.with { harness in
      await harness.admin(.put, "/features/ref/one", #"{"title":"One"}"#)
      #expect(await harness.get("/features/1").status == 200)
      for spelling in ["+1", "01", "1.0", "%2B1"] {
        let answer = await harness.get("/features/\(spelling)")
        #expect(answer.status == 400, "\(spelling): \(answer.body)")
        #expect(answer.body.contains(#""field":"id""#), "\(answer.body)")
      }
      let missing = await harness.call(
        .put, "/api/v1/demo-app/features/ref/", json: #"{"title":"x"}"#, admin: true)
      #expect(missing.status == 400, "\(missing.body)")
      #expect(missing.body.contains(#""field":"ref""#), "\(missing.body)")
      #expect(missing.body.contains("the ref is missing"), "\(missing.body)")
    }
  }
}
