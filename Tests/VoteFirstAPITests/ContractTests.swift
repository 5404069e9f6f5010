import Foundation
import Testing
import VoteFirstAPI

/// Paths, counter keys and limits of the contract.
@Suite struct ContractTests {
  @Test func pathsPercentEncodeEverySegment() {
    typealias Op = VoteFirstContract.Operation
    #expect(Op.board.path(project: "demo-app") == "/api/v1/demo-app/board")
    #expect(
      Op.vote.path(project: "demo-app", parameter: "12") == "/api/v1/demo-app/features/12/vote")
    #expect(
      Op.upsertFeature.path(project: "demo.app", parameter: "a/b c?é")
        == "/api/v1/demo.app/features/ref/a%2Fb%20c%3F%C3%A9")
    #expect(Op.unvote.method == "DELETE" && Op.upsertFeature.method == "PUT")
    #expect(Op.batchFeatures.routePattern == "/api/v1/:project/features/batch")
  }

  @Test func everyOperationHasAUniqueMethodAndPattern() {
    let pairs = VoteFirstContract.Operation.allCases.map { "\($0.method) \($0.pattern)" }
    #expect(Set(pairs).count == pairs.count)
  }

  @Test func counterKeys() {
    let settings = ProjectSettings()
    #expect(VoteFirstContract.counterKey(ref: "1", id: 9, settings: settings) == "feature1")
    var dashed = settings
    dashed.voteKeyTemplate = "feature-{id}"
    #expect(VoteFirstContract.counterKey(ref: "1", id: 9, settings: dashed) == "feature-1")
    let refLess = VoteFirstContract.counterKey(ref: nil, id: 9, settings: settings)
    #expect(refLess == "\u{1F}vf9")
    // No valid ref can produce it, whatever the template: refs hold no control characters.
    #expect(!VoteFirstLimits.isValidRef(refLess))
    var bare = settings
    bare.voteKeyTemplate = "{id}"
    #expect(VoteFirstLimits.isValidVoteKeyTemplate("{id}"))
    #expect(!VoteFirstLimits.isValidVoteKeyTemplate("feature"))
    #expect(!VoteFirstLimits.isValidVoteKeyTemplate("{id}{id}"))
    #expect(!VoteFirstLimits.isValidVoteKeyTemplate("f\u{1F}{id}"))
  }

  @Test func suggestionLimitsNameTheField() {
    #expect(VoteFirstLimits.problems(in: SuggestionDraft(title: "a", description: "b")).isEmpty)
    #expect(
      VoteFirstLimits.problems(in: SuggestionDraft(title: "", description: "b")).map(\.field)
        == ["title"])
    let long = String(repeating: "é", count: 2001)
    #expect(
      VoteFirstLimits.problems(in: SuggestionDraft(title: "a", description: long)).map(\.field)
        == ["description"])
    let exact = SuggestionDraft(
      title: String(repeating: "x", count: 254), description: String(repeating: "y", count: 2000))
    #expect(VoteFirstLimits.problems(in: exact).isEmpty)
    #expect(
      VoteFirstLimits.problems(
        in: SuggestionDraft(title: String(repeating: "x", count: 255), description: "d")
      ).map(\.code) == ["validation_failed"])
  }

  @Test func featureLimits() {
    var content = FeatureContent(ref: "ok", title: "t")
    #expect(VoteFirstLimits.problems(in: content).isEmpty)
    content.ref = "bad\nref"
    content.due = "2027-13"
    content.progress = 101
    content.board = "Bad Slug"
    content.comments = -1
    #expect(
      VoteFirstLimits.problems(in: content, at: "features[2]").map(\.field)
        == [
          "features[2].ref", "features[2].board", "features[2].due", "features[2].comments",
          "features[2].progress",
        ])
  }

  @Test func monthsAndSlugs() {
    #expect(VoteFirstLimits.isValidMonth("2026-01") && VoteFirstLimits.isValidMonth("2026-12"))
    #expect(!VoteFirstLimits.isValidMonth("2026-00") && !VoteFirstLimits.isValidMonth("26-01"))
    #expect(!VoteFirstLimits.isValidMonth("2026-1") && !VoteFirstLimits.isValidMonth("2026-01-01"))
    #expect(VoteFirstLimits.isValidSlug("roadmap") && VoteFirstLimits.isValidSlug("ios-2"))
    #expect(!VoteFirstLimits.isValidSlug("-x") && !VoteFirstLimits.isValidSlug("A"))
    #expect(!VoteFirstLimits.isValidSlug(""))
  }
}
