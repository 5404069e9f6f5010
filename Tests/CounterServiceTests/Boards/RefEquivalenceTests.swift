import Foundation
import HTTPServer
import Testing

@testable import CounterService

/// A ref written in another Unicode form (`é` precomposed, or `e` and a combining accent) is
/// the same ref: Swift compares strings so, and with it the Roadmap package's ids, the batch
/// and the import. Single writes compared the stored bytes.
@Suite struct RefEquivalenceTests {
  static let composed = "\u{E9}t\u{E9}"
  static let decomposed = "e\u{301}te\u{301}"

  static func path(_ ref: String) -> String {
    "/features/ref/" + ref.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
  }

  /// Bug: `PUT …/features/ref/{ref}` made a second feature for the other form; reads then
  /// showed one feature's votes on the other (the counts are looked up by string), and the
  /// project's own export could not be imported (`409 ref_conflict`).
  @Test func anUpsertInTheOtherFormChangesTheSameFeature() async throws {
    try await BoardHarness.with { harness in
      let created = await harness.admin(.put, Self.path(Self.composed), #"{"title":"A"}"#)
      #expect(created.status == 201, "\(created.body)")
      for voter in ["ann", "bob"] {
        let vote = await harness.call(.post, "/api/v1/demo-app/features/1/vote", voter: voter)
        #expect(vote.status == 200, "\(vote.body)")
      }
      let again = await harness.admin(.put, Self.path(Self.decomposed), #"{"title":"A, again"}"#)
      #expect(again.status == 200, "\(again.body)")
      #expect(again.object["id"] as? Int == 1)
      // It keeps the ref it was stored with, and so its counter and votes.
      #expect(again.object["ref"] as? String == Self.composed)
      #expect(Array((again.object["ref"] as? String ?? "").utf8) == Array(Self.composed.utf8))
      #expect(again.object["votes"] as? Int == 2)

      let list = await harness.get("/features")
      #expect(list.titles == ["A, again"], "\(list.body)")

      let export = await harness.admin(.get, "/export")
      let copy = export.body.replacingOccurrences(
        of: #""project":"demo-app""#, with: #""project":"demo-copy""#)
      let imported = await harness.call(
        .post, "/api/v1/demo-copy/import", json: copy, admin: true)
      #expect(imported.status == 200, "\(imported.body)")
    }
  }

  /// The batch found the feature by the other form too, but then stored the new bytes: the
  /// feature moved to an empty counter and showed 0 votes.
  @Test func aBatchInTheOtherFormKeepsTheStoredRefAndItsVotes() async throws {
    try await BoardHarness.with { harness in
      await harness.admin(.put, Self.path(Self.composed), #"{"title":"A"}"#)
      let vote = await harness.call(.post, "/api/v1/demo-app/features/1/vote", voter: "ann")
      #expect(vote.status == 200, "\(vote.body)")
      let batch = await harness.admin(
        .post, "/features/batch", #"{"features":[{"ref":"\#(Self.decomposed)","title":"B"}]}"#)
      #expect(batch.object["updated"] as? Int == 1, "\(batch.body)")
      #expect(batch.object["created"] as? Int == 0)
      let read = await harness.get("/features/1", voter: "ann")
      #expect(read.object["title"] as? String == "B", "\(read.body)")
      #expect(read.object["votes"] as? Int == 1)
      #expect(read.object["voted"] as? Bool == true)
      #expect(Array((read.object["ref"] as? String ?? "").utf8) == Array(Self.composed.utf8))
    }
  }

  /// Giving a feature (or an approved suggestion) a ref another feature has in another form
  /// is the conflict it is with the same bytes.
  @Test func aRefAnotherFeatureHasInAnotherFormIsAConflict() async throws {
    try await BoardHarness.with { harness in
      await harness.admin(.put, Self.path(Self.composed), #"{"title":"A"}"#)
      await harness.admin(.put, "/features/ref/b", #"{"title":"B"}"#)
      let moved = await harness.call(
        .put, "/api/v1/demo-app/features/2", json: #"{"title":"B","ref":"\#(Self.decomposed)"}"#,
        admin: true)
      #expect(moved.status == 409, "\(moved.body)")
      #expect(moved.body.contains(#""code":"ref_conflict""#))

      // The Kelvin sign is the letter K to Swift.
      await harness.admin(.put, "/features/ref/K1", #"{"title":"K"}"#)
      let kelvin = await harness.call(
        .put, "/api/v1/demo-app/features/2", json: #"{"title":"B","ref":"\u212A1"}"#,
        admin: true)
      #expect(kelvin.status == 409, "\(kelvin.body)")

      let suggestion = await harness.call(
        .post, "/api/v1/demo-app/suggestions", json: #"{"title":"S","description":"d"}"#)
      #expect(suggestion.status == 202, "\(suggestion.body)")
      let approved = await harness.call(
        .post, "/api/v1/demo-app/suggestions/1/approve",
        json: #"{"ref":"\#(Self.decomposed)"}"#, admin: true)
      #expect(approved.status == 409, "\(approved.body)")
      #expect(approved.body.contains(#""code":"ref_conflict""#))
    }
  }
}
