import Foundation
import HTTPServer
import Testing
import VoteStore

@testable import CounterService

/// A store failure's 503 says what the request can know: a write that was not made says
/// nothing was changed; a read (GET, HEAD) changes nothing either way, so its answer says only
/// what failed.
@Suite struct StoreFailureWordingTests {
  @Test func theBoardAPIsReadsAndWritesSayWhatTheyCanKnow() async throws {
    try await BoardHarness.with { h in
      await h.seed()
      await h.boards.close()
      await h.store.close()
      // A project no read has loaded yet, so no view answers from memory.
      let read = await h.get("/features", project: "other-app")
      #expect(read.status == 503)
      #expect(read.body.contains(#""message":"the vote store is unavailable""#), "\(read.body)")
      let vote = await h.call(.post, "/api/v1/\(BoardHarness.project)/features/1/vote", voter: "v1")
      #expect(vote.status == 503)
      #expect(
        vote.body.contains(#""message":"the vote store is unavailable; nothing was changed""#),
        "\(vote.body)")
    }
  }

  @Test(arguments: [
    (VoteStoreError.Kind.timedOut, "the vote store did not answer in time"),
    (.outcomeUnknown, "the vote store lost its database connection"),
    (.io, "the vote store is unavailable"), (.closed, "the vote store is unavailable"),
  ])
  func aFailedReadSaysOnlyWhatFailed(kind: VoteStoreError.Kind, message: String) {
    let error = VoteStoreError(kind, "underneath")
    let read = ServiceError.answer(for: error, read: true).reply(in: .countapi)
    #expect(read.status == 503)
    #expect(read.body == #"{"error":"\#(message)"}"#)
    let write = ServiceError.answer(for: error).reply(in: .countapi)
    #expect(write.body.hasPrefix(#"{"error":"\#(message)"#) && write.body != read.body)
  }
}
