import Foundation
import Testing
import VoteFirstAPI
import WebBoard

/// What each page shows and how it is built: order, filters, vote buttons, landmarks, labels.
@Suite struct PageTests {
  static func ids(_ html: String) -> [String] {
    MarkupScanner.tags(html).compactMap { $0.attribute("id") }
  }

  @Test func columnsComeInTheOwnersOrder() {
    let html = Fixtures.boardPage(features: [
      Fixtures.feature(1, "Alpha", stage: 2), Fixtures.feature(2, "Beta", stage: 3),
    ])
    let columnIDs = Self.ids(html).filter { $0.hasPrefix("stage-") }
    #expect(columnIDs == ["stage-3-title", "stage-1-title", "stage-2-title"])
    let planned = html.components(separatedBy: "id=\"stage-3-title\"")[1]
      .components(separatedBy: "</section>")[0]
    #expect(planned.contains("Beta") && !planned.contains("Alpha"))
  }

  @Test func everyIDIsUniqueAndEveryControlLabelled() {
    let html = Fixtures.boardPage(features: [
      Fixtures.feature(1, "Alpha", stage: 3), Fixtures.feature(2, "Beta", stage: 1),
    ])
    let ids = Self.ids(html)
    #expect(Set(ids).count == ids.count, "duplicate ids: \(ids)")
    let tags = MarkupScanner.tags(html)
    let labelled = Set(tags.filter { $0.name == "label" }.compactMap { $0.attribute("for") })
    for control in tags where ["input", "select", "textarea"].contains(control.name) {
      let id = control.attribute("id") ?? ""
      #expect(labelled.contains(id), "control \(id) has a label")
    }
    for landmark in ["header", "nav", "main", "footer"] {
      #expect(tags.contains { $0.name == landmark }, "landmark \(landmark)")
    }
    #expect(tags.first?.name == "html" && tags.first?.attribute("lang") == "en")
    // The skip link is the first focusable element and points at main.
    let firstLink = tags.first { $0.name == "a" }
    #expect(firstLink?.attribute("href") == "#main")
    #expect(!html.contains("tabindex=\"1"), "no positive tabindex changes the focus order")
  }

  @Test func columnsAndTheListNameTheListingTheyWereDrawnFrom() {
    var query = FeatureQuery(board: "roadmap", search: "a&b", order: .newest)
    query.cursor = "c1"
    let html = Fixtures.boardPage(features: [], query: query)
    let sources = MarkupScanner.tags(html).compactMap { $0.attribute("data-votes") }
    #expect(
      sources == [
        "?board=roadmap&stage=3&order=top&limit=50", "?board=roadmap&stage=1&order=top&limit=50",
        "?board=roadmap&stage=2&order=top&limit=50",
        "?board=roadmap&q=a%26b&order=newest&limit=20&cursor=c1",
      ])
  }

  @Test func anEmptyListSaysWhyTruthfully() {
    let none = MarkupScanner.text(Fixtures.boardPage(features: []))
    #expect(none.contains("There are no features on this board yet."))
    #expect(!none.contains("No features match these filters."))
    for query in [
      FeatureQuery(search: "x"), FeatureQuery(stage: 3), FeatureQuery(tag: 1),
      FeatureQuery(cursor: "c"),
    ] {
      let filtered = MarkupScanner.text(Fixtures.boardPage(features: [], query: query))
      #expect(filtered.contains("No features match these filters."), "\(query)")
    }
  }

  @Test func voteButtonsAreRealButtonsWithTheirState() {
    let html = Fixtures.boardPage(features: [
      Fixtures.feature(1, "Alpha", stage: 3, votes: 5, voted: true),
      Fixtures.feature(2, "Closed", stage: 2, votes: 9),
    ])
    let buttons = MarkupScanner.tags(html).filter {
      $0.name == "button" && $0.attribute("class") == "vote-button"
    }
    // Alpha appears in its column and in the list: two buttons, both pressed, both disabled
    // until the script runs. The finished feature in a no-voting stage has no button.
    #expect(buttons.count == 2)
    #expect(buttons.allSatisfy { $0.attribute("data-feature") == "1" })
    #expect(buttons.allSatisfy { $0.attribute("aria-pressed") == "true" })
    #expect(
      buttons.allSatisfy { $0.attribute("type") == "button" && $0.attribute("disabled") != nil })
    #expect(html.contains("<span class=\"vote-count\">9</span>"))
    #expect(MarkupScanner.text(html).contains("Voting is closed in this stage."))
  }

  @Test(arguments: [
    (
      ProjectSettings(votingEnabled: false), Board(slug: "roadmap", name: "Roadmap"),
      "Voting is closed for this project."
    ),
    (
      ProjectSettings(), Board(slug: "roadmap", name: "Roadmap", votingEnabled: false),
      "Voting is closed on this board."
    ),
  ])
  func votingOffLeavesCountsWithoutButtons(
    _ settings: ProjectSettings, _ board: Board, _ reason: String
  ) {
    let html = Fixtures.boardPage(
      snapshot: Fixtures.snapshot(settings: settings, board: board),
      features: [Fixtures.feature(1, "Alpha", stage: 3, votes: 3)])
    #expect(!html.contains("class=\"vote-button\""))
    #expect(MarkupScanner.text(html).contains(reason))
  }

  @Test func filtersKeepTheirValuesAndTheMoreLinkCarriesThem() {
    let snapshot = Fixtures.snapshot()
    let query = FeatureQuery(stage: 1, tag: 2, search: "dark mode", order: .trending)
    let html = WebBoardPages.board(
      BoardPageContent(
        snapshot: snapshot, columns: [], query: query,
        list: FeaturePage(features: [Fixtures.feature(1, "A", stage: 1)], next: "CUR/+="))
    )
    .text
    let tags = MarkupScanner.tags(html)
    let form = tags.first { $0.name == "form" && $0.attribute("class") == "filters" }
    #expect(form?.attribute("method") == "get")
    #expect(form?.attribute("action") == "/b/demo-app#feedback")
    #expect(tags.first { $0.attribute("id") == "filter-q" }?.attribute("value") == "dark mode")
    let selected = tags.filter { $0.name == "option" && $0.attribute("selected") != nil }
      .compactMap { $0.attribute("value") }
    #expect(selected == ["trending", "1", "2"])
    let next = tags.first { $0.attribute("rel") == "next" }?.attribute("href")
    #expect(
      next == "/b/demo-app?q=dark%20mode&order=trending&stage=1&tag=2&cursor=CUR%2F%2B%3D#feedback")
  }

  @Test func customBoardNavigationAndPaths() {
    let custom = Board(slug: "ideas", name: "Ideas")
    let html = Fixtures.boardPage(
      snapshot: Fixtures.snapshot(board: custom, boards: [custom]), features: [])
    let links = MarkupScanner.tags(html).filter { $0.name == "a" }
    let current = links.first { $0.attribute("aria-current") == "page" }
    #expect(current?.attribute("href") == "/b/demo-app/ideas")
    #expect(links.contains { $0.attribute("href") == "/b/demo-app/changelog" })
    #expect(html.contains("href=\"/b/demo-app/theme.css?board=ideas&amp;v="))
  }

  @Test func suggestionFormIsDisabledUntilTheScriptRunsAndHasLimits() {
    let html = Fixtures.boardPage(features: [])
    let tags = MarkupScanner.tags(html)
    #expect(tags.contains { $0.name == "fieldset" && $0.attribute("disabled") != nil })
    let title = tags.first { $0.attribute("name") == "title" }
    #expect(title?.attribute("maxlength") == "254" && title?.attribute("required") != nil)
    let description = tags.first { $0.attribute("name") == "description" }
    #expect(description?.attribute("maxlength") == "2000")
    #expect(tags.first { $0.attribute("id") == "suggest-send" }?.attribute("disabled") != nil)
    let closed = Fixtures.boardPage(
      snapshot: Fixtures.snapshot(settings: ProjectSettings(suggestionsEnabled: false)),
      features: [])
    #expect(!closed.contains("suggest-form"))
    #expect(closed.contains("not taking suggestions"))
  }

  @Test func featurePageShowsEverything() {
    let feature = Fixtures.feature(
      7, "Widgets", stage: 1, votes: 12, description: "First.\n\nSecond line\nthird",
      response: "We are on it.", tags: [1, 2], progress: 140, release: 2)
    var withDue = feature
    withDue.content.due = "2027-03"
    let html = WebBoardPages.feature(
      FeaturePageContent(
        snapshot: Fixtures.snapshot(settings: ProjectSettings(commentsEnabled: true)),
        feature: withDue, release: Release(id: 2, title: "2.0", date: Fixtures.date))
    ).text
    #expect(html.contains("<p>First.</p><p>Second line<br>third</p>"))
    #expect(
      html.contains("<h2 id=\"response-title\">Response from the team</h2>\n<p>We are on it.</p>"))
    #expect(html.contains("<progress max=\"100\" value=\"100\""), "progress clamped")
    #expect(html.contains("href=\"/b/demo-app/changelog#release-2\">2.0</a>"))
    #expect(html.contains("<time datetime=\"2027-03\">March 2027</time>"))
    #expect(MarkupScanner.text(html).contains("In progress"))
    #expect(MarkupScanner.text(html).contains("iOS") && MarkupScanner.text(html).contains("Mac"))
    #expect(html.contains("<dt>Comments</dt><dd>0</dd>"))
    #expect(html.contains("<title>Widgets · demo-app</title>"))
  }

  @Test func finishedFeatureSaysSoAndUntitledGetsAName() {
    let html = WebBoardPages.feature(
      FeaturePageContent(snapshot: Fixtures.snapshot(), feature: Fixtures.feature(5, "", stage: 2))
    ).text
    #expect(html.contains("<dd>Finished</dd>"))
    #expect(html.contains("Untitled feature 5"))
    #expect(!html.contains("vote-button"))
  }

  /// Bug: a title of spaces or zero-width characters alone (the API keeps it, as it keeps an
  /// empty one) drew a link and a heading with nothing to read, click or announce, and a
  /// project name of spaces left the header's link empty.
  @Test func aTitleThatShowsNothingGetsANameToo() {
    let blank = ["   ", "\u{200B}", "\n\t", "\u{200E}\u{2060} "]
    let features = blank.enumerated().map { Fixtures.feature($0.offset + 1, $0.element) }
    let board = Fixtures.boardPage(
      snapshot: Fixtures.snapshot(settings: ProjectSettings(name: "  ")), features: features)
    for id in 1...blank.count {
      #expect(board.contains("<a href=\"/b/demo-app/features/\(id)\">Untitled feature \(id)</a>"))
    }
    #expect(board.contains("<a href=\"/b/demo-app\">demo-app</a>"))
    let page = WebBoardPages.feature(
      FeaturePageContent(snapshot: Fixtures.snapshot(), feature: Fixtures.feature(9, " \u{200B} "))
    ).text
    #expect(page.contains("<h1 id=\"feature-title\">Untitled feature 9</h1>"))
    #expect(page.contains("<title>Untitled feature 9 · Demo App</title>"))
    // Visible text with invisible characters around it is kept as it is.
    let kept = WebBoardPages.feature(
      FeaturePageContent(snapshot: Fixtures.snapshot(), feature: Fixtures.feature(9, "\u{200B}A"))
    ).text
    #expect(kept.contains("<h1 id=\"feature-title\">\u{200B}A</h1>"))
  }

  /// Bug: a stage, tag, board or release named with spaces alone (the API takes such a name)
  /// drew an empty column heading, filter option, tag, navigation link and release heading.
  @Test func namesThatShowNothingGetOneToo() {
    let snapshot = Fixtures.snapshot(
      stages: [Stage(id: 3, name: "  ", position: 0)],
      tags: [FeatureTag(id: 1, name: "\u{200B}")],
      boards: [Board(slug: "ideas", name: " ")])
    let board = Fixtures.boardPage(
      snapshot: snapshot, features: [Fixtures.feature(1, "Alpha", tags: [1])])
    #expect(board.contains("</span>Stage 3 <span class=\"column-count\">1</span></h3>"))
    #expect(board.contains("<option value=\"3\">Stage 3</option>"))
    #expect(board.contains("<option value=\"1\">Tag 1</option>"))
    #expect(board.contains("</span>Tag 1</li>"))
    #expect(board.contains("<span class=\"stage-badge stage-3\">Stage 3</span>"))
    #expect(board.contains(">ideas</a>"), "the custom board's link")
    let changelog = WebBoardPages.changelog(
      ChangelogPageContent(
        snapshot: Fixtures.snapshot(),
        releases: [Release(id: 4, title: " ", date: Fixtures.date)], features: [:])
    ).text
    #expect(changelog.contains("<h2 id=\"release-4-title\">Release 4</h2>"))
  }

  @Test func changelogListsReleasesAsGivenWithDatesAndFeatures() {
    let releases = [
      Release(
        id: 2, title: "2.0", notes: "## New\n- Widgets",
        date: Date(timeIntervalSince1970: 1_796_000_000), features: [7, 99]),
      Release(id: 1, title: "1.0", notes: "", date: Date(timeIntervalSince1970: 1_700_000_000)),
    ]
    let html = WebBoardPages.changelog(
      ChangelogPageContent(
        snapshot: Fixtures.snapshot(), releases: releases,
        features: [7: Fixtures.feature(7, "Widgets")])
    ).text
    let order = Self.ids(html).filter { $0.hasPrefix("release-") && !$0.hasSuffix("title") }
    #expect(order == ["release-2", "release-1"])
    #expect(html.contains("<h4>New</h4>\n<ul><li>Widgets</li></ul>"))
    #expect(html.contains("<time datetime=\"2026-11-30\">30 November 2026</time>"))
    #expect(html.contains("<time datetime=\"2023-11-14\">14 November 2023</time>"))
    #expect(html.contains("<a href=\"/b/demo-app/features/7\">Widgets</a>"))
    let empty = WebBoardPages.changelog(
      ChangelogPageContent(snapshot: Fixtures.snapshot(), releases: [])
    ).text
    #expect(empty.contains("No releases yet."))
  }

  @Test func pagesLoadOnlyOwnAssets() {
    let html = Fixtures.boardPage(features: [])
    let tags = MarkupScanner.tags(html)
    let stylesheets = tags.filter { $0.name == "link" }.compactMap { $0.attribute("href") }
    #expect(stylesheets.first == WebAsset.stylesheet.path)
    #expect(stylesheets.allSatisfy { $0.hasPrefix("/") && !$0.hasPrefix("//") })
    let scripts = tags.filter { $0.name == "script" }
    #expect(scripts.count == 1 && scripts[0].attribute("defer") != nil)
  }
}
