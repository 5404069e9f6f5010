import Testing
import VoteFirstAPI

@testable import CounterService

/// A feature's references (board, stage, tags) are checked through indexes of the project's
/// lists: a batch may carry millions of tag references within the body limit, in a project
/// of thousands of tags.
@Suite struct ReferenceCheckTests {
  static func project(tags: Int) -> BoardProject {
    BoardProject(
      id: "demo-app", settings: ProjectSettings(), createdAt: 0,
      boards: [Board(slug: "roadmap", name: "Roadmap"), Board(slug: "ideas", name: "Ideas")],
      stages: [Stage(id: 4, name: "Planned", position: 0)],
      tags: (1...tags).map { FeatureTag(id: $0, name: "tag \($0)") })
  }

  @Test func everyMissingReferenceIsNamedAtItsPlace() {
    let project = Self.project(tags: 3)
    var content = FeatureContent(title: "T", board: "ideas", stage: 4, tags: [3, 9, 1, 0])
    content.release = 2
    let problems = project.referenceProblems(content, releases: [1], at: "features[7]")
    #expect(
      problems.map(\.field) == [
        "features[7].stage", "features[7].tags[1]", "features[7].tags[3]", "features[7].release",
      ])
    #expect(problems[0].message == "stage 4 belongs to board roadmap, not ideas")
    #expect(problems[1].message == "there is no tag 9")
    content.board = "roadmap"
    content.tags = [1, 2, 3]
    content.release = 1
    #expect(project.referenceProblems(content, releases: [1]).isEmpty)
    content.board = "nowhere"
    #expect(project.referenceProblems(content, releases: [1]).map(\.field) == ["board", "stage"])
  }

  @Test(.timeLimit(.minutes(5))) func millionsOfTagReferencesAreCheckedInLinearTime() {
    let project = Self.project(tags: 10_000)
    let content = FeatureContent(title: "T", tags: Array(repeating: 10_000, count: 1_000_000))
    #expect(project.referenceProblems(content, releases: []).isEmpty)
    let missing = FeatureContent(title: "T", tags: Array(repeating: 10_001, count: 3))
    #expect(project.referenceProblems(missing, releases: []).count == 3)
  }
}
