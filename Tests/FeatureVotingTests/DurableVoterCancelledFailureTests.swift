import Foundation
import RoadmapFormat
import Testing

@testable import FeatureVoting

/// A voter whose writes count once however often they are sent, which cancels the task that
/// calls it and then fails with `error`, as a base voter does when the cancel meets a failure
/// of its own.
private struct CancellingVoter: FeatureVoter, RepeatableWrites {
  let error: VotingError
  var writesAreRepeatable: Bool { true }

  func fetch(for feature: RoadmapFeature) async -> Int { 0 }
  func vote(for feature: RoadmapFeature) async -> Int? { nil }
  func unvote(for feature: RoadmapFeature) async -> Int? { nil }
  func castVote(for feature: RoadmapFeature) async throws(VotingError) -> Int {
    withUnsafeCurrentTask { $0?.cancel() }
    throw error
  }
  func withdrawVote(for feature: RoadmapFeature) async throws(VotingError) -> Int {
    withUnsafeCurrentTask { $0?.cancel() }
    throw error
  }
}

/// A cancelled vote waits in the queue only when the failure is the cancel itself: a failure
/// that sending again cannot cure (a URL that cannot be built) would stay at the queue's head
/// and hold every later vote of the namespace there, shown as cast and never sent.
@Suite struct DurableVoterCancelledFailureTests {
  fileprivate func cast(_ error: VotingError, directory: URL) async -> (
    DurableVoter<CancellingVoter>, Bool
  ) {
    let voter = DurableVoter(
      base: CancellingVoter(error: error), namespace: "ns1", directory: directory)
    let failed = await Task { () -> Bool in
      do throws(VotingError) {
        _ = try await voter.castVote(for: RoadmapFeature(id: "1"))
        return false
      } catch {
        return true
      }
    }.value
    return (voter, failed)
  }

  @Test func aFailureSendingAgainCannotCureIsNotQueuedWhenTheTaskIsCancelled() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("cancelled-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let (voter, failed) = await cast(
      .invalidRequest("cannot build a URL from the server http://[x"), directory: directory)
    #expect(failed)
    #expect(try voter.pendingVotes().isEmpty)
  }

  @Test func theCancelItselfIsQueued() async throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("cancelled-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let (voter, failed) = await cast(
      .invalidRequest("the request to http://127.0.0.1:1/hit/ns1/1 was cancelled"),
      directory: directory)
    #expect(!failed)
    #expect(try voter.pendingVotes().map(\.featureID) == ["1"])
  }
}
