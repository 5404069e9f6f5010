import Foundation
import Testing
import VoteFirstAPI

@testable import CounterService

/// Deleting a release takes it off its features, so the project's export stays one an
/// import takes (it refuses a feature naming a release it does not hold).
@Suite struct ReleaseDeletionTests {
  @Test func aDeletedReleaseLeavesNoFeatureInIt() async throws {
    try await BoardHarness.with { harness in
      await harness.admin(.put, "/settings", #"{"name":"Demo"}"#)
      for (version, day) in [("1.0", "01"), ("1.1", "02")] {
        await harness.admin(
          .post, "/releases", #"{"title":"\#(version)","date":"2026-11-\#(day)T00:00:00Z"}"#)
      }
      await harness.admin(.put, "/features/ref/one", #"{"title":"One","release":1}"#)
      await harness.admin(.put, "/features/ref/two", #"{"title":"Two","release":2}"#)
      await harness.admin(.put, "/features/ref/three", #"{"title":"Three"}"#)
      await harness.admin(.delete, "/releases/1")

      let features = await harness.get("/features").list("features")
      let releases = Dictionary(
        uniqueKeysWithValues: features.map { ($0["title"] as? String ?? "", $0["release"]) })
      #expect(releases["One"].map { $0 == nil } == true, "\(features)")
      #expect(releases["Two"] as? Int == 2, "\(features)")
      #expect(releases["Three"].map { $0 == nil } == true)

      // The export goes into another project whole.
      let export = await harness.admin(.get, "/export")
      let copy = await harness.call(
        .post, "/api/v1/demo-copy/import", json: export.body, admin: true)
      #expect(copy.status == 200, "\(copy.body)")
      #expect(copy.object["features"] as? Int == 3)
    }
  }
}
