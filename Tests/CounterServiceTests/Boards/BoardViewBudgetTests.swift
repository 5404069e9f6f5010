import Foundation
import Testing
import VoteStore

@testable import CounterService

/// The board view holds at most its feature budget across the projects' models: installing
/// one past it drops the least recently read, which load again, current, at their next read.
@Suite struct BoardViewBudgetTests {
  static let projects = ["app-a", "app-b", "app-c"]

  @Test func theLeastRecentlyReadProjectsAreDroppedPastTheBudget() async throws {
    try await BoardHarness.with { h in
      for project in Self.projects { await h.seed(project: project) }  // 2 features each
      let view = BoardView(boards: h.boards, featureBudget: 5)
      _ = try await view.model("app-a")
      _ = try await view.model("app-b")
      #expect(view.residentFeatures == 4)
      // A third project passes the budget: the least recently read (a) goes.
      _ = try await view.model("app-c")
      #expect(view.cached("app-a") == nil)
      #expect(view.cached("app-b") != nil && view.cached("app-c") != nil)
      #expect(view.residentFeatures == 4)
      // b is read again, so c is now the least recent when a comes back.
      _ = try await view.model("app-b")
      let a = try #require(try await view.model("app-a"))
      #expect(a.facts.count == 2)
      #expect(view.cached("app-c") == nil)
      #expect(view.cached("app-a") != nil && view.cached("app-b") != nil)
      #expect(view.residentFeatures == 4)

      // A dropped project loads again with what was written meanwhile.
      await h.admin(.put, "/features/ref/three", #"{"title":"Three"}"#, project: "app-c")
      #expect(try await view.model("app-c")?.facts.count == 3)
      #expect(view.residentFeatures <= 5)
    }
  }

  @Test func aProjectLargerThanTheBudgetIsStillKeptAlone() async throws {
    try await BoardHarness.with { h in
      for project in Self.projects.prefix(2) { await h.seed(project: project) }
      let view = BoardView(boards: h.boards, featureBudget: 1)
      _ = try await view.model("app-a")
      #expect(view.cached("app-a") != nil, "the one just installed is never dropped")
      _ = try await view.model("app-b")
      #expect(view.cached("app-a") == nil)
      #expect(view.cached("app-b") != nil)
      #expect(view.residentFeatures == 2)
    }
  }

  @Test func aWriteToAHeldProjectKeepsTheCountRight() async throws {
    try await BoardHarness.with { h in
      await h.seed(project: "app-a")
      let view = BoardView(boards: h.boards, featureBudget: 100)
      _ = try await view.model("app-a")
      #expect(view.residentFeatures == 2)
      // The write drops the model but keeps it for reuse (still counted) until the next read
      // loads the project: 3 features.
      await h.admin(.put, "/features/ref/three", #"{"title":"Three"}"#, project: "app-a")
      #expect(view.cached("app-a") == nil)
      #expect(view.residentFeatures == 2)
      _ = try await view.model("app-a")
      #expect(view.residentFeatures == 3)
    }
  }

  /// A written project that is not read again keeps its last model only for reuse; the
  /// budget counts it and drops it like any other (a migration writing many projects does
  /// not hold all their old models).
  @Test func aModelKeptAfterAWriteCountsAndIsDroppedPastTheBudget() async throws {
    try await BoardHarness.with { h in
      for project in Self.projects { await h.seed(project: project) }
      let view = BoardView(boards: h.boards, featureBudget: 5)
      _ = try await view.model("app-a")
      await h.admin(.put, "/settings", #"{"name":"Renamed"}"#, project: "app-a")
      _ = try await view.model("app-b")
      #expect(view.residentFeatures == 4)
      _ = try await view.model("app-c")
      #expect(view.residentFeatures == 4, "a's kept model was the least recent: dropped")
      #expect(view.cached("app-b") != nil && view.cached("app-c") != nil)
      #expect(try await view.model("app-a")?.project.settings.name == "Renamed")
    }
  }
}
