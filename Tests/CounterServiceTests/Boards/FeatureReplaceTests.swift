import Foundation
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
