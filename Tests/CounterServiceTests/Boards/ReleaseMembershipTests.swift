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

/// `POST /import` refuses what no admin call stores: a release listing a feature the export
/// does not hold (it showed a dangling id), and negative counts (stored as 0 without a word).
@Suite struct ImportConsistencyTests {
  @Test func danglingReleaseMembersAndNegativeCountsAreRefused() async throws {
    try await BoardHarness.with { harness in
      await harness.admin(.put, "/features/ref/one", #"{"title":"One"}"#)
      await harness.admin(
        .post, "/releases", #"{"title":"1.0","date":"2026-11-30T00:00:00Z","features":[1]}"#)
      let export = await harness.admin(.get, "/export").body
      let cases: [(String, String, String)] = [
        (#""features":[1]"#, #""features":[1,10]"#, "releases[0].features[1]"),
        (#""votes":0"#, #""votes":-5"#, "features[0].votes"),
        (#""importedVotes":0"#, #""importedVotes":-1"#, "features[0].importedVotes"),
      ]
      for (index, (original, broken, field)) in cases.enumerated() {
        #expect(export.contains(original), "\(original) in \(export)")
        let answer = await harness.call(
          .post, "/api/v1/copy-\(index)/import",
          json: export.replacingOccurrences(of: original, with: broken), admin: true)
        #expect(answer.status == 422, "\(field): \(answer.body)")
        #expect(answer.body.contains(#""field":"\#(field)""#), "\(answer.body)")
      }
      let whole = await harness.call(.post, "/api/v1/copy-ok/import", json: export, admin: true)
      #expect(whole.status == 200, "\(whole.body)")
    }
  }

  /// Bug: an id near Int64.max was imported, and reserving the id after it overflowed: the
  /// trap ended `roadmapctl serve`. Counts past the counters' bound were refused by the
  /// store, without a `field`.
  @Test func idsAndCountsPastTheirBoundsAreRefusedWithTheirField() async throws {
    try await BoardHarness.with { harness in
      await harness.seed()
      let export = await harness.admin(.get, "/export").body
      let top = "9223372036854775807"
      let cases: [(String, String, String)] = [
        (#""id":1,"importedVotes""#, #""id":\#(top),"importedVotes""#, "features[0].id"),
        (#""id":1,"isArchived""#, #""id":\#(top),"isArchived""#, "stages[0].id"),
        (#""id":1,"name":"iOS""#, #""id":\#(top),"name":"iOS""#, "tags[0].id"),
        (#""features":[1],"id":1"#, #""features":[1],"id":\#(top)"#, "releases[0].id"),
        (
          #""description":"Please","id":1"#, #""description":"Please","id":\#(top)"#,
          "suggestions[0].id"
        ),
        (
          #""id":1,"importedVotes":0"#, #""id":1,"importedVotes":9007199254740992"#,
          "features[0].importedVotes"
        ),
        (#""votes":0"#, #""votes":4611686018427387904"#, "features[0].votes"),
      ]
      for (index, (original, broken, field)) in cases.enumerated() {
        guard export.contains(original) else {
          Issue.record("\(original) not in \(export)")
          continue
        }
        let answer = await harness.call(
          .post, "/api/v1/copy-\(index)/import",
          json: export.replacingOccurrences(of: original, with: broken), admin: true)
        #expect(answer.status == 422, "\(field): \(answer.body)")
        #expect(answer.body.contains(#""field":"\#(field)""#), "\(answer.body)")
      }
      let most = export.replacingOccurrences(
        of: #""id":1,"importedVotes""#, with: #""id":9007199254740991,"importedVotes""#
      ).replacingOccurrences(
        of: #""features":[1],"id":1"#, with: #""features":[9007199254740991],"id":1"#)
      let taken = await harness.call(.post, "/api/v1/copy-most/import", json: most, admin: true)
      #expect(taken.status == 200, "\(taken.body)")
    }
  }

  /// Bug: an export whose two sides of the release relation disagree (as builds before the
  /// relation was kept wrote them: a release listing a feature that names no release, a
  /// feature naming a release that does not list it) was imported as it was, so
  /// `GET /features/{id}` and `GET /releases/{id}` disagreed for good.
  @Test func anExportWhoseReleaseSidesDisagreeIsImportedAsOneRelation() async throws {
    try await BoardHarness.with { harness in
      for ref in ["one", "two", "three", "four"] {
        await harness.admin(.put, "/features/ref/\(ref)", #"{"title":"\#(ref)"}"#)
      }
      let date = #""date":"2026-11-30T00:00:00Z""#
      await harness.admin(.post, "/releases", #"{"title":"1.0",\#(date),"features":[1,4]}"#)
      await harness.admin(.post, "/releases", #"{"title":"2.0",\#(date),"features":[2]}"#)
      let export = await harness.admin(.get, "/export").body
      // Feature 4 names no release (release 1 lists it); feature 3 names release 2, which
      // does not list it; release 2 lists feature 1 too, which names release 1.
      let changes = [
        (#""ref":"four","release":1,"#, #""ref":"four","#),
        (#""ref":"three","#, #""ref":"three","release":2,"#),
        (#""features":[2]"#, #""features":[2,1]"#),
      ]
      var broken = export
      for (original, changed) in changes {
        #expect(broken.contains(original), "\(original) in \(export)")
        broken = broken.replacingOccurrences(of: original, with: changed)
      }
      let answer = await harness.call(.post, "/api/v1/copy/import", json: broken, admin: true)
      #expect(answer.status == 200, "\(answer.body)")
      func release(_ id: Int) async -> [Int] {
        await harness.get("/releases/\(id)", project: "copy").object["features"] as? [Int] ?? []
      }
      func feature(_ id: Int) async -> Int? {
        await harness.get("/features/\(id)", project: "copy").object["release"] as? Int
      }
      #expect(await release(1) == [1, 4])
      #expect(await release(2) == [2, 3])
      #expect(await feature(1) == 1)
      #expect(await feature(2) == 2)
      #expect(await feature(3) == 2)
      #expect(await feature(4) == 1)
    }
  }

  /// Bug: names no admin call stores (empty, longer than 254) and a stage on a board the
  /// export does not hold were imported; the board drew them, and `roadmapctl restore`
  /// refused every backup of the project after ("stage 1 … is on board nope, which the
  /// project does not have").
  @Test func namesPastTheirLimitsAndAStageOnNoBoardAreRefused() async throws {
    try await BoardHarness.with { harness in
      await harness.seed()
      await harness.admin(.put, "/boards/ideas", #"{"slug":"ideas","name":"Ideas"}"#)
      await harness.admin(.post, "/stages", #"{"name":"Later","position":1,"board":"ideas"}"#)
      let export = await harness.admin(.get, "/export").body
      let long = String(repeating: "x", count: 255)
      let cases: [(String, String, String)] = [
        (#""name":"Planned""#, #""name":"""#, "stages[0].name"),
        (#""name":"Planned""#, #""name":"\#(long)""#, "stages[0].name"),
        (#""board":"ideas","id":2"#, #""board":"nope","id":2"#, "stages[1].board"),
        (#""name":"iOS""#, #""name":"""#, "tags[0].name"),
        (#""name":"Ideas""#, #""name":"""#, "boards[1].name"),
        (#""title":"1.0""#, #""title":"""#, "releases[0].title"),
        (#""title":"Dark mode""#, #""title":"""#, "suggestions[0].title"),
        (#""description":"Please""#, #""description":"""#, "suggestions[0].description"),
      ]
      for (index, (original, broken, field)) in cases.enumerated() {
        #expect(export.contains(original), "\(original) in \(export)")
        let answer = await harness.call(
          .post, "/api/v1/copy-\(index)/import",
          json: export.replacingOccurrences(of: original, with: broken), admin: true)
        #expect(answer.status == 422, "\(field): \(answer.body)")
        #expect(answer.body.contains(#""field":"\#(field)""#), "\(answer.body)")
        #expect((await harness.get("/board", project: "copy-\(index)")).status == 404)
      }
      let whole = await harness.call(.post, "/api/v1/copy-ok/import", json: export, admin: true)
      #expect(whole.status == 200, "\(whole.body)")
    }
  }
}

/// Readers see a release's features that are on public boards only: a feature on a board that
/// is not public is not found for them, and its id is not theirs to see in a release either.
@Suite struct ReleaseVisibilityTests {
  /// Bug: `GET /releases` and `GET /releases/{id}` listed the ids of features on a board that
  /// is not public (each a 404 for the reader who followed it).
  @Test(arguments: [true, false])
  func aReleaseListsOnlyWhatReadersMaySee(memoryCache: Bool) async throws {
    try await BoardHarness.with(memoryCache: memoryCache) { harness in
      await harness.admin(
        .put, "/boards/inside", #"{"slug":"inside","name":"Inside","isPublic":false}"#)
      await harness.admin(.put, "/features/ref/one", #"{"title":"One"}"#)
      await harness.admin(.put, "/features/ref/two", #"{"title":"Two","board":"inside"}"#)
      await harness.admin(.put, "/features/ref/three", #"{"title":"Three"}"#)
      let date = #""date":"2026-11-30T00:00:00Z""#
      let created = await harness.admin(
        .post, "/releases", #"{"title":"1.0",\#(date),"features":[1,2,3]}"#)
      #expect(created.object["features"] as? [Int] == [1, 2, 3], "the admin sees them all")

      let one = await harness.get("/releases/1")
      #expect(one.object["features"] as? [Int] == [1, 3], "\(one.body)")
      let all = await harness.get("/releases")
      #expect(all.list("releases").first?["features"] as? [Int] == [1, 3], "\(all.body)")

      // The export keeps the whole relation, and the board made public shows it again.
      let export = await harness.admin(.get, "/export")
      #expect(export.body.contains(#""features":[1,2,3]"#), "\(export.body)")
      await harness.admin(
        .put, "/boards/inside", #"{"slug":"inside","name":"Inside","isPublic":true}"#)
      let shown = await harness.get("/releases/1")
      #expect(shown.object["features"] as? [Int] == [1, 2, 3], "\(shown.body)")
    }
  }
}
