import Foundation
import Testing

@testable import CounterService

/// A listing of one stage (each column of the web board) reads that stage's features only,
/// through the model's index by stage, and answers exactly what a filter over every feature
/// would: archived stages listed when asked for by id and left out otherwise, every order,
/// after writes that move features between stages.
@Suite struct StageListingTests {
  /// Feature `n` (1…30): in stage `n % 4` (0: none), `n % 7` imported votes.
  static func seed(_ harness: BoardHarness) async {
    for name in ["Planned", "Doing", "Old"] {
      await harness.admin(.post, "/stages", #"{"name":"\#(name)","position":0}"#)
    }
    await harness.admin(.put, "/stages/3", #"{"name":"Old","position":0,"isArchived":true}"#)
    for n in 1...30 {
      let stage = n % 4 == 0 ? "" : #","stage":\#(n % 4)"#
      await harness.admin(
        .put, "/features/ref/r\(n)",
        #"{"title":"f\#(n)","importedVotes":\#(n % 7)\#(stage)}"#)
    }
  }

  /// The titles `expected` lists for stage `stage` (nil: every stage but the archived one).
  static func expected(stage: Int?, order: String, moved: [Int: Int] = [:]) -> [String] {
    let features = (1...30).filter { n in
      let at = moved[n] ?? n % 4
      return stage.map { at == $0 } ?? (at != 3)
    }
    let sorted =
      switch order {
      case "newest": features.sorted { $0 > $1 }  // created in id order: newest is the highest
      case "top": features.sorted { ($0 % 7, -$0) > ($1 % 7, -$1) }
      default: features
      }
    return sorted.prefix(100).map { "f\($0)" }
  }

  @Test func oneStagesListingIsTheFilterOverEveryFeature() async throws {
    try await BoardHarness.with { harness in
      await Self.seed(harness)
      for order in ["top", "newest"] {
        for stage in [1, 2, 3] {
          let answer = await harness.get("/features?stage=\(stage)&order=\(order)&limit=100")
          #expect(answer.status == 200, "\(answer.body)")
          #expect(
            answer.titles == Self.expected(stage: stage, order: order), "stage \(stage) \(order)")
        }
        let all = await harness.get("/features?order=\(order)&limit=100")
        #expect(all.titles == Self.expected(stage: nil, order: order), "all \(order)")
      }
      // A stage without features, and one that does not exist.
      await harness.admin(.post, "/stages", #"{"name":"Empty","position":4}"#)
      #expect((await harness.get("/features?stage=4")).titles == [])
      #expect((await harness.get("/features?stage=99")).titles == [])

      // Moving features between stages moves them between the listings.
      await harness.admin(.put, "/features/ref/r1", #"{"title":"f1","stage":2}"#)
      await harness.admin(.put, "/features/ref/r2", #"{"title":"f2"}"#)
      let moved = [1: 2, 2: 0]
      for stage in [1, 2] {
        let answer = await harness.get("/features?stage=\(stage)&order=newest&limit=100")
        #expect(answer.titles == Self.expected(stage: stage, order: "newest", moved: moved))
      }
    }
  }
}
