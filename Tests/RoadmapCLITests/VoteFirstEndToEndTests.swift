import Foundation
import Testing
import VoteFirstAPI

/// The VoteFirst client against the real `roadmapctl serve`, end to end.
@Suite struct VoteFirstEndToEndTests {
  typealias Code = VoteFirstContract.ErrorCode

  /// A board with stages (one archived, one finished), tags, a public and a private custom
  /// board, and 45 features with different votes, comments, stages and tags.
  struct Seeded {
    var planned: Stage
    var done: Stage
    var archived: Stage
    var ios: FeatureTag
    var mac: FeatureTag
    var ideaColumn: Stage
  }

  static func seed(_ admin: VoteFirstHTTPClient, features count: Int = 45) async throws -> Seeded {
    var settings = ProjectSettings(name: "Demo")
    settings.theme = Theme(accent: ThemeColor(css: "#36f"), radius: ThemeRadius(css: "8px"))
    _ = try await admin.putSettings(settings)
    let planned = try await admin.createStage(Stage(name: "Planned", position: 0))
    let done = try await admin.createStage(Stage(name: "Done", position: 2, isFinished: true))
    let archived = try await admin.createStage(Stage(name: "Old", position: 3, isArchived: true))
    let ios = try await admin.createTag(FeatureTag(name: "iOS", color: ThemeColor(css: "#f90")))
    let mac = try await admin.createTag(FeatureTag(name: "Mac"))
    _ = try await admin.putBoard(Board(slug: "ideas", name: "Ideas"))
    _ = try await admin.putBoard(Board(slug: "internal", name: "Internal", isPublic: false))
    let ideaColumn = try await admin.createStage(Stage(board: "ideas", name: "New"))
    var upserts: [FeatureUpsert] = []
    for n in 1...count {
      let board = n % 9 == 0 ? "ideas" : (n == 44 ? "internal" : "roadmap")
      let stage =
        board == "ideas"
        ? ideaColumn.id
        : board == "internal"
          ? nil
          : [planned.id, done.id, archived.id, planned.id][n % 4]
      upserts.append(
        FeatureUpsert(
          content: FeatureContent(
            ref: String(n), title: n % 5 == 0 ? "Dark mode \(n)" : "Feature \(n)",
            description: n % 7 == 0 ? "a darker theme" : "plain", board: board, stage: stage,
            tags: n % 2 == 0 ? [ios.id] : (n % 3 == 0 ? [ios.id, mac.id] : []),
            comments: (n * 7) % 11),
          importedVotes: (n * 13) % 17))
    }
    let result = try await admin.upsertFeatures(upserts)
    #expect(result.created == count)
    return Seeded(
      planned: planned, done: done, archived: archived, ios: ios, mac: mac,
      ideaColumn: ideaColumn)
  }

  @Test(arguments: BoardBackend.allCases)
  func boardFiltersOrdersAndPagingToTheEnd(backend: BoardBackend) async throws {
    try await VoteFirstServer.with(backend) { server in
      let admin = server.admin()
      let seeded = try await Self.seed(admin)
      let client = server.client()

      let board = try await client.board()
      #expect(board.project == "demo-app")
      #expect(board.settings.name == "Demo")
      #expect(board.settings.theme.accent?.css == "#3366FF")
      #expect(board.settings.theme.radius?.css == "8px")
      #expect(board.stages.map(\.name) == ["Planned", "Done", "Old"])
      #expect(board.tags.map(\.name) == ["iOS", "Mac"])
      #expect(board.boards.map(\.slug) == ["ideas"])
      #expect(try await client.board(slug: "ideas").stages.map(\.name) == ["New"])
      await expectFailure(.notFound, code: Code.boardNotFound) {
        try await client.board(slug: "internal")
      }

      let all = try await client.allFeatures()
      let visibleRefs = Set(all.compactMap(\.ref))
      // Not the archived stage (n % 4 == 2 on the roadmap board), not the private board.
      let visibleNumbers = (1...45).filter { n in n != 44 && (n % 9 == 0 || n % 4 != 2) }
      let expected = Set(visibleNumbers.map(String.init))
      #expect(visibleRefs == expected)

      func refs(_ query: FeatureQuery) async throws -> Set<String> {
        Set(try await client.allFeatures(query).compactMap(\.ref))
      }
      let archivedNumbers = (1...45).filter { $0 % 4 == 2 && $0 % 9 != 0 && $0 != 44 }
      let inArchive = try await refs(FeatureQuery(stage: seeded.archived.id))
      #expect(inArchive == Set(archivedNumbers.map(String.init)))
      let ideas = try await refs(FeatureQuery(board: "ideas"))
      #expect(ideas == Set((1...45).filter { $0 % 9 == 0 }.map(String.init)))
      let numbers = expected.compactMap { Int($0) }
      func matching(_ rule: (Int) -> Bool) -> Set<String> {
        Set(numbers.filter(rule).map(String.init))
      }
      let mac = try await refs(FeatureQuery(tag: seeded.mac.id))
      #expect(mac == matching { $0 % 3 == 0 && $0 % 2 != 0 })
      let dark = try await refs(FeatureQuery(search: "DARK"))
      #expect(dark == matching { $0 % 5 == 0 || $0 % 7 == 0 })
      let plannedIOS = try await refs(FeatureQuery(stage: seeded.planned.id, tag: seeded.ios.id))
      #expect(
        plannedIOS
          == matching {
            ($0 % 4 == 0 || $0 % 4 == 3) && ($0 % 2 == 0 || $0 % 3 == 0) && $0 % 9 != 0
          })

      for order in FeatureOrder.allCases {
        let one = try await client.features(FeatureQuery(order: order, limit: 100))
        #expect(one.next == nil)
        #expect(one.features.count == expected.count)
        var paged: [Feature] = []
        var query = FeatureQuery(order: order, limit: 7)
        var pages = 0
        while true {
          let page = try await client.features(query)
          #expect(page.features.count <= 7)
          paged += page.features
          pages += 1
          guard let next = page.next, pages <= expected.count else { break }
          query.cursor = next
        }
        #expect(pages == (expected.count + 6) / 7, "\(order)")
        #expect(paged.map(\.id) == one.features.map(\.id), "\(order)")
        #expect(Set(paged.map(\.id)).count == paged.count, "\(order): a feature seen twice")
        let features = one.features
        for (a, b) in zip(features, features.dropFirst()) {
          switch order {
          case .top, .trending:
            // Created together, so trending ranks like votes.
            #expect(a.votes > b.votes || (a.votes == b.votes && a.id < b.id), "\(order)")
          case .discussed:
            #expect(
              a.comments > b.comments || (a.comments == b.comments && a.id < b.id), "\(order)")
          default:
            #expect(
              a.createdAt > b.createdAt || (a.createdAt == b.createdAt && a.id > b.id),
              "\(order)")
          }
        }
      }

      let top = try await client.features(FeatureQuery(order: .top, limit: 2))
      await expectFailure(.refused, code: Code.invalidCursor) {
        try await client.features(FeatureQuery(order: .newest, cursor: top.next))
      }
      await expectFailure(.refused, code: Code.invalidCursor) {
        try await client.features(FeatureQuery(cursor: "not-a-cursor"))
      }
      await expectFailure(.refused, code: Code.invalidParameter, field: "limit") {
        try await client.features(FeatureQuery(limit: 101))
      }
      await expectFailure(.refused, code: Code.invalidParameter, field: "order") {
        try await client.features(FeatureQuery(order: FeatureOrder(rawValue: "best")))
      }

      let one = try #require(all.first { $0.ref == "5" })
      let fetched = try await client.feature(id: one.id)
      #expect(fetched.title == "Dark mode 5" && fetched.votes == (5 * 13) % 17)
      await expectFailure(.notFound, code: Code.featureNotFound) {
        try await client.feature(id: 9999)
      }
    }
  }

  @Test(arguments: BoardBackend.allCases)
  func votesByTwoVotersAndACountapiHitMoveOneCount(backend: BoardBackend) async throws {
    try await VoteFirstServer.with(backend) { server in
      let admin = server.admin()
      let made = try await admin.upsertFeature(
        ref: "7", FeatureUpsert(content: FeatureContent(title: "Widgets"), importedVotes: 3))
      #expect(made.votes == 3)
      let a = server.client(voter: "voter-a")
      let b = server.client(voter: "voter-b")

      #expect(try await a.upvote(featureID: made.id) == VoteState(votes: 4, voted: true))
      #expect(try await a.upvote(featureID: made.id) == VoteState(votes: 4, voted: true))
      #expect(try await b.upvote(featureID: made.id) == VoteState(votes: 5, voted: true))
      #expect(try await a.feature(id: made.id).voted)
      #expect(try await b.unvote(featureID: made.id) == VoteState(votes: 4, voted: false))
      #expect(try await b.unvote(featureID: made.id) == VoteState(votes: 4, voted: false))
      #expect(!(try await b.feature(id: made.id).voted))

      // The countapi routes count in the same counter, feature{ref}: a hit by voter A (who
      // voted through the API) counts nothing; an anonymous hit and one by voter C count once.
      var hit = try await server.serve.get(
        "/hit/demo-app/feature7", headers: ["X-Voter-ID": "voter-a"])
      #expect(hit.body == #"{"value":4}"#)
      hit = try await server.serve.get("/hit/demo-app/feature7")
      #expect(hit.body == #"{"value":5}"#)
      hit = try await server.serve.get(
        "/hit/demo-app/feature7", headers: ["X-Voter-ID": "voter-c"])
      #expect(hit.body == #"{"value":6}"#)
      let c = server.client(voter: "voter-c")
      #expect(try await c.feature(id: made.id).voted)
      #expect(try await c.feature(id: made.id).votes == 6)
      #expect(try await c.upvote(featureID: made.id) == VoteState(votes: 6, voted: true))
      #expect(try await server.serve.get("/get/demo-app/feature7").body == #"{"value":6}"#)

      // Importing 10 where 3 were imported moves the anonymous part by 7: the anonymous hit
      // and the voters' votes stay (4 + 7 anonymous, voters A and C).
      #expect(try await admin.setImportedVotes(featureID: made.id, count: 10).votes == 13)
      #expect(try await a.feature(id: made.id).votes == 13)
      #expect(try await admin.setImportedVotes(featureID: made.id, count: 10).votes == 13)
      #expect(try await admin.exportProject().features.map(\.importedVotes) == [10])

      // forget(): the client votes as a new voter from now on.
      await a.forget()
      #expect(!(try await a.feature(id: made.id).voted))
      #expect(try await a.upvote(featureID: made.id).votes == 14)

      // A feature without a ref counts in a key no countapi route can reach.
      let bare = try await admin.upsertFeature(
        ref: "tmp", FeatureUpsert(content: FeatureContent(title: "No ref yet")))
      let unref = try await admin.updateFeature(id: bare.id, FeatureContent(title: "No ref"))
      #expect(unref.ref == nil)
      #expect(try await b.upvote(featureID: unref.id) == VoteState(votes: 1, voted: true))
      #expect(try await server.serve.get("/get/demo-app/featuretmp").status == 404)
    }
  }

  @Test(arguments: BoardBackend.allCases)
  func refusalsForEachReason(backend: BoardBackend) async throws {
    try await VoteFirstServer.with(backend) { server in
      let client = server.client()
      await expectFailure(.notFound, code: Code.projectNotFound) { try await client.board() }

      let admin = server.admin()
      let seeded = try await Self.seed(admin, features: 10)
      let all = try await client.allFeatures()
      let planned = try #require(
        all.first { $0.stage == seeded.planned.id && $0.board == "roadmap" })
      let done = try #require(all.first { $0.stage == seeded.done.id })
      await expectFailure(.refused, code: Code.votingDisabledStage) {
        try await client.upvote(featureID: done.id)
      }
      var closed = seeded.planned
      closed.votingEnabled = false
      _ = try await admin.updateStage(closed)
      await expectFailure(.refused, code: Code.votingDisabledStage) {
        try await client.upvote(featureID: planned.id)
      }
      _ = try await admin.putBoard(Board(slug: "roadmap", name: "Roadmap", votingEnabled: false))
      await expectFailure(.refused, code: Code.votingDisabledBoard) {
        try await client.upvote(featureID: planned.id)
      }
      var settings = try await admin.settings()
      settings.votingEnabled = false
      _ = try await admin.putSettings(settings)
      await expectFailure(.refused, code: Code.votingDisabledProject) {
        try await client.upvote(featureID: planned.id)
      }

      // No voter id: a 400 with its code (the client always sends one, so a raw request).
      let raw = try await server.serve.get(
        "/api/v1/demo-app/features/\(planned.id)/vote", method: "POST")
      #expect(raw.status == 400)
      #expect(raw.body.contains(#""code":"missing_voter""#))
      let badVoter = try await server.serve.get(
        "/api/v1/demo-app/features/\(planned.id)/vote", method: "POST",
        headers: ["X-Voter-ID": "no spaces"])
      #expect(badVoter.status == 400 && badVoter.body.contains(#""code":"invalid_voter""#))

      // Admin calls: without a token 401, with a wrong one 403; both are "unauthorized".
      await expectFailure(.unauthorized, code: Code.unauthorized) {
        try await server.admin(token: nil).settings()
      }
      await expectFailure(.unauthorized, code: Code.forbidden) {
        try await server.admin(token: "wrong").settings()
      }
      #expect(
        try await server.serve.get("/api/v1/demo-app/settings").status == 401)
      #expect(
        try await server.serve.get(
          "/api/v1/demo-app/settings", headers: ["Authorization": "Bearer nope"]
        ).status == 403)

      // Validation names the field.
      await expectFailure(.refused, code: Code.validationFailed, field: "title") {
        try await client.submit(
          SuggestionDraft(title: String(repeating: "t", count: 255), description: "d"))
      }
      await expectFailure(.refused, code: Code.validationFailed, field: "description") {
        try await client.submit(SuggestionDraft(title: "t", description: ""))
      }
      await expectFailure(.refused, code: Code.validationFailed, field: "features[1].stage") {
        try await admin.upsertFeatures([
          FeatureUpsert(content: FeatureContent(ref: "a", title: "a")),
          FeatureUpsert(content: FeatureContent(ref: "b", title: "b", stage: 999)),
        ])
      }
      await expectFailure(.refused, code: Code.refConflict) {
        try await admin.upsertFeatures([
          FeatureUpsert(content: FeatureContent(ref: "a", title: "a")),
          FeatureUpsert(content: FeatureContent(ref: "a", title: "b")),
        ])
      }
      // A refused batch stored nothing of itself.
      #expect(try await admin.exportProject().features.count == 10)
      await expectFailure(.refused, code: Code.stageInUse) {
        try await admin.deleteStage(id: seeded.planned.id)
      }
      await expectFailure(.refused, code: Code.validationFailed, field: "voteKeyTemplate") {
        var bad = settings
        bad.voteKeyTemplate = "feature"
        return try await admin.putSettings(bad)
      }

      // Not the contract's answer: a bad answer. Nobody listening: offline.
      let wrongBase = VoteFirstHTTPClient(
        configuration: VoteFirstClientConfiguration(
          baseURL: server.baseURL.appendingPathComponent("get"), project: "demo-app"))
      await expectFailure(.badAnswer) { try await wrongBase.board() }
      let nobody = VoteFirstHTTPClient(
        configuration: VoteFirstClientConfiguration(
          baseURL: URL(string: "http://127.0.0.1:9")!, project: "demo-app", timeout: 5))
      await expectFailure(.offline) { try await nobody.board() }
    }
  }

  @Test(arguments: BoardBackend.allCases)
  func rateLimitedVotesSayWhenToRetry(backend: BoardBackend) async throws {
    let directory = try TemporaryDirectory()
    let serve = try await ServeProcess.start(
      dataDirectory: directory.url,
      try await backend.arguments() + [
        "--admin-token", VoteFirstServer.token, "--read-limit", "0", "--write-limit", "1",
      ])
    let server = VoteFirstServer(serve: serve, directory: directory)
    do {
      let admin = server.admin()
      // 1 a minute is a burst of 1, refilled after 60 s. Admin calls (the token) are not
      // limited, so the first vote takes the one write and the second right after it is
      // refused.
      let made = try await admin.upsertFeature(
        ref: "1", FeatureUpsert(content: FeatureContent(title: "One")))
      let client = server.client()
      #expect(try await client.feature(id: made.id).votes == 0)  // reads are not limited
      _ = try await client.upvote(featureID: made.id)
      do {
        _ = try await client.upvote(featureID: made.id)
        Issue.record("a second write within the minute was allowed")
      } catch {
        #expect(error.kind == .rateLimited)
        #expect(error.code == Code.rateLimited)
        #expect((error.retryAfter ?? 0) >= 1)
      }
    } catch {
      try? await server.stop()
      throw error
    }
    try await server.stop()
  }

  /// The client reads a list longer than a page whole, page by page, and a project whose
  /// queue is full refuses a voter's suggestion with `suggestions_full` until one is decided.
  @Test(arguments: BoardBackend.allCases)
  func suggestionListsArePagedAndTheQueueIsBounded(backend: BoardBackend) async throws {
    try await VoteFirstServer.with(backend) { server in
      let admin = server.admin()
      _ = try await admin.settings()
      var document = try await admin.exportProject()
      let limit = VoteFirstLimits.maxPendingSuggestions
      document.suggestions = (1...limit + 50).map { id in
        Suggestion(
          id: id, title: "Idea \(id)", description: "Please",
          state: id <= 50 ? .rejected : .pending,
          createdAt: Date(timeIntervalSince1970: 1_800_000_000 + Double(id)))
      }
      _ = try await admin.importProject(document)

      #expect(try await admin.suggestions().map(\.id) == Array(1...limit + 50))
      #expect(try await admin.suggestions(state: .pending).map(\.id) == Array(51...limit + 50))
      let first = try await admin.suggestionPage(state: .rejected, limit: 30)
      #expect(first.suggestions.map(\.id) == Array(1...30))
      let second = try await admin.suggestionPage(state: .rejected, limit: 30, cursor: first.next)
      #expect(second.suggestions.map(\.id) == Array(31...50))
      #expect(second.next == nil)

      let client = server.client()
      await expectFailure(.rateLimited, code: Code.suggestionsFull) {
        try await client.submit(SuggestionDraft(title: "One more", description: "Please"))
      }
      _ = try await admin.rejectSuggestion(id: 51)
      let receipt = try await client.submit(
        SuggestionDraft(title: "One more", description: "Please"))
      #expect(receipt.id == limit + 51)
      await expectFailure(.rateLimited, code: Code.suggestionsFull) {
        try await client.submit(SuggestionDraft(title: "Yet another", description: "Please"))
      }
    }
  }

  @Test(arguments: BoardBackend.allCases)
  func suggestionsAreInvisibleUntilApproved(backend: BoardBackend) async throws {
    try await VoteFirstServer.with(backend) { server in
      let admin = server.admin()
      _ = try await admin.settings()
      let client = server.client()
      let receipt = try await client.submit(
        SuggestionDraft(title: "Sync with iCloud", description: "Please"))
      #expect(receipt.state == .pending)
      let other = try await client.submit(SuggestionDraft(title: "Spam", description: "x"))
      #expect(try await client.allFeatures().isEmpty)
      #expect(try await client.board().stages.isEmpty)
      #expect(try await admin.suggestions(state: .pending).map(\.id) == [receipt.id, other.id])

      let approved = try await admin.approveSuggestion(id: receipt.id)
      #expect(approved.state == .approved)
      let featureID = try #require(approved.feature)
      let visible = try await client.allFeatures()
      #expect(visible.map(\.id) == [featureID])
      #expect(visible.first?.title == "Sync with iCloud")
      #expect(visible.first?.description == "Please")
      await expectFailure(.refused, code: Code.alreadyDecided) {
        try await admin.approveSuggestion(id: receipt.id)
      }
      #expect(try await admin.rejectSuggestion(id: other.id).state == .rejected)
      #expect(try await client.allFeatures().count == 1)
      #expect(try await admin.suggestions(state: .pending).isEmpty)
      await expectFailure(.notFound, code: Code.suggestionNotFound) {
        try await admin.rejectSuggestion(id: 999)
      }

      var settings = try await admin.settings()
      settings.suggestionsEnabled = false
      _ = try await admin.putSettings(settings)
      await expectFailure(.refused, code: Code.suggestionsDisabled) {
        try await client.submit(SuggestionDraft(title: "t", description: "d"))
      }
    }
  }

  @Test(arguments: BoardBackend.allCases)
  func aTenThousandFeatureBatchRunTwiceCreatesNothingTwice(backend: BoardBackend) async throws {
    try await VoteFirstServer.with(backend) { server in
      // A shared, busy machine: the batch gets more than the default 30 s.
      let admin = server.admin(timeout: 300)
      let upserts = (1...10_000).map { n in
        FeatureUpsert(
          content: FeatureContent(ref: String(n), title: "Feature \(n)"), importedVotes: n % 5)
      }
      let first = try await admin.upsertFeatures(upserts)
      #expect(first.created == 10_000 && first.updated == 0 && first.unchanged == 0)
      #expect(first.features.map(\.ref) == upserts.map { $0.ref! })
      let second = try await admin.upsertFeatures(upserts)
      #expect(second.created == 0 && second.updated == 0 && second.unchanged == 10_000)
      #expect(second.features.map(\.id) == first.features.map(\.id))

      var changed = upserts
      changed[0].content.title = "Renamed"
      changed[1].importedVotes = 40
      let third = try await admin.upsertFeatures(changed)
      #expect(third.updated == 2 && third.unchanged == 9_998)

      let all = try await server.client().allFeatures()
      #expect(all.count == 10_000)
      let total = all.reduce(0) { $0 + $1.votes }
      let imported: Int = (3...10_000).reduce(0) { $0 + $1 % 5 }
      #expect(total == imported + 1 + 40)
      #expect(try await server.serve.get("/get/demo-app/feature2").body == #"{"value":40}"#)
    }
  }

  @Test(arguments: BoardBackend.allCases)
  func anExportReimportedIntoAnEmptyProjectRecreatesIt(backend: BoardBackend) async throws {
    try await VoteFirstServer.with(backend) { server in
      let admin = server.admin()
      let seeded = try await Self.seed(admin, features: 20)
      let client = server.client()
      let first = try #require(
        try await client.allFeatures().first { $0.stage == seeded.planned.id })
      _ = try await client.upvote(featureID: first.id)
      _ = try await admin.createRelease(
        Release(
          title: "2.0", notes: "**new**", date: Date(timeIntervalSince1970: 1_700_000_000),
          features: [first.id]))
      _ = try await client.submit(SuggestionDraft(title: "Later", description: "maybe"))
      let original = try await admin.exportProject()
      #expect(original.features.count == 20)

      let copyAdmin = server.admin("demo-copy")
      let result = try await copyAdmin.importProject(original)
      #expect(result.features == 20 && result.stages == 4 && result.tags == 2)
      #expect(result.releases == 1 && result.suggestions == 1)
      let copy = try await copyAdmin.exportProject()
      #expect(copy.project == "demo-copy")
      #expect(copy.settings == original.settings)
      #expect(copy.boards == original.boards)
      #expect(copy.stages == original.stages)
      #expect(copy.tags == original.tags)
      #expect(copy.releases == original.releases)
      #expect(copy.suggestions == original.suggestions)
      #expect(copy.features.map(\.feature) == original.features.map(\.feature))
      // The copy's counters are new: every vote came over as an anonymous one, and each keeps
      // what the original's last import set.
      #expect(copy.features.map(\.importedVotes) == original.features.map(\.importedVotes))
      #expect(original.features.map(\.importedVotes) != original.features.map(\.feature.votes))
      #expect(try await server.client("demo-copy").releases().map(\.title) == ["2.0"])

      // Ids continue after the imported ones.
      let next = try await copyAdmin.createStage(Stage(name: "Later"))
      #expect(next.id == 5)

      await expectFailure(.refused, code: Code.projectNotEmpty) {
        try await copyAdmin.importProject(original)
      }
      #expect(try await copyAdmin.exportProject().features.count == 20)
    }
  }
}
