import Foundation
import Testing
import VoteFirstAPI

@testable import CounterService

/// A feature's `release` and a release's `features` are one relation: a write to either side
/// moves the other, and a feature is in one release at most.
@Suite struct ReleaseMembershipTests {
  /// Bug: `POST /releases {"features":[1]}` left feature 1 with no `release`, a second release
  /// listing it put it in two, and `PUT /features/2 {"release":…}` left the release's list.
  @Test func bothSidesAlwaysAgree() async throws {
    try await BoardHarness.with { harness in
      await harness.admin(.put, "/features/ref/one", #"{"title":"One"}"#)
      await harness.admin(.put, "/features/ref/two", #"{"title":"Two"}"#)
      func release(_ id: Int) async -> [Int] {
        await harness.get("/releases/\(id)").object["features"] as? [Int] ?? [-1]
      }
      func feature(_ id: Int) async -> Int? {
        await harness.get("/features/\(id)").object["release"] as? Int
      }
      let date = #""date":"2026-11-30T00:00:00Z""#
      await harness.admin(.post, "/releases", #"{"title":"1.0",\#(date),"features":[1,1]}"#)
      #expect(await release(1) == [1])
      #expect(await feature(1) == 1)

      // Listed by a second release, it moves there.
      await harness.admin(.post, "/releases", #"{"title":"2.0",\#(date),"features":[1]}"#)
      #expect(await feature(1) == 2)
      #expect(await release(1) == [])
      #expect(await release(2) == [1])

      // A feature that names a release joins its list, and leaves the one it was in.
      await harness.admin(.put, "/features/2", #"{"title":"Two","ref":"two","release":2}"#)
      #expect(await release(2) == [1, 2])
      await harness.admin(.put, "/features/ref/one", #"{"title":"One","release":1}"#)
      #expect(await release(1) == [1])
      #expect(await release(2) == [2])
      await harness.admin(
        .post, "/features/batch",
        #"{"features":[{"ref":"one","title":"One"},{"ref":"three","title":"Three","release":2}]}"#)
      #expect(await release(1) == [])
      #expect(await release(2) == [2, 3])

      // A release that lists fewer takes its release off the others.
      await harness.admin(.put, "/releases/2", #"{"title":"2.0",\#(date),"features":[3]}"#)
      #expect(await feature(2) == nil)
      #expect(await feature(3) == 2)

      // The export goes into another project whole.
      let export = await harness.admin(.get, "/export")
      let copy = await harness.call(
        .post, "/api/v1/demo-copy/import", json: export.body, admin: true)
      #expect(copy.status == 200, "\(copy.body)")
    }
  }
}
