import Foundation
import VoteFirstAPI

/// The web board's pages as HTML documents: pure functions from board values to one document
/// each, with no I/O.
///
/// Every value is escaped (``HTML``); the documents load one stylesheet, the project's theme
/// stylesheet and one deferred script, all from the server itself, and hold no inline script
/// or style, so a `Content-Security-Policy` of `default-src 'self'` allows them. They read
/// fully without JavaScript: the script adds voting and the suggestion form (see
/// `docs/web-board.md`).
public enum WebBoardPages {
  /// The page of a board: its columns, then the feedback list with its filters, then the
  /// suggestion form.
  public static func board(_ content: BoardPageContent) -> HTML {
    let snapshot = content.snapshot
    let project = snapshot.project
    let board = snapshot.board
    let stagesByID = Dictionary(
      snapshot.stages.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    let tagsByID = Dictionary(snapshot.tags.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    let context = CardContext(
      snapshot: snapshot, stages: stagesByID, tags: tagsByID, resolver: resolver(content.languages))

    var columns = HTML.empty
    for column in content.columns {
      let stage = column.stage
      let cards = HTML.join(
        column.features.map { "<li>\(card($0, context, headingLevel: 4))</li>" })
      let more: HTML =
        column.hasMore
        ? """
        <p class="more"><a href="\(WebBoardPaths.board(project, board: board.slug, query: FeatureQuery(stage: stage.id)))#feedback">All of \(stageName(stage))</a></p>
        """ : .empty
      let empty: HTML =
        column.features.isEmpty ? "<p class=\"empty\">Nothing here yet.</p>" : .empty
      columns += """
        <section class="column stage-\(stage.id)" aria-labelledby="stage-\(stage.id)-title" data-votes="\(WebBoardPaths.apiQueryString(FeatureQuery(board: board.slug, stage: stage.id, limit: WebBoardRoutes.columnLimit)))">
        <h3 id="stage-\(stage.id)-title"><span class="stage-dot" aria-hidden="true"></span>\(stageName(stage)) <span class="column-count">\(column.features.count)\(column.hasMore ? "+" : "")</span></h3>
        \(empty)<ol class="cards">\(cards)</ol>\(more)
        </section>

        """
    }

    let listItems = HTML.join(
      content.list.features.map { "<li>\(card($0, context, headingLevel: 3))</li>" })
    let query = content.query
    let filtered =
      query.search != nil || query.stage != nil || query.tag != nil || query.cursor != nil
    let listBody: HTML =
      !content.list.features.isEmpty
      ? "<ol class=\"feature-list\">\(listItems)</ol>"
      : filtered
        ? "<p class=\"empty\" id=\"no-results\">No features match these filters.</p>"
        : "<p class=\"empty\" id=\"no-results\">There are no features on this board yet.</p>"
    var next = HTML.empty
    if let cursor = content.list.next {
      var query = content.query
      query.cursor = cursor
      next = """
        <nav class="pager" aria-label="More features"><a rel="next" href="\(WebBoardPaths.board(project, board: board.slug, query: query))#feedback">More features</a></nav>
        """
    }

    let title = board.slug == Board.roadmapSlug ? "Roadmap" : named(board.name, board.slug)
    let main: HTML = """
      <h1>\(title)</h1>
      <section class="roadmap" aria-labelledby="columns-title">
      <h2 id="columns-title" class="visually-hidden">Stages</h2>
      <div class="columns">
      \(columns)</div>
      </section>
      <section class="feedback" id="feedback" aria-labelledby="feedback-title" data-votes="\(WebBoardPaths.apiQueryString(content.query))">
      <h2 id="feedback-title">Feedback</h2>
      \(filters(content))
      \(listBody)
      \(next)
      </section>
      \(suggestionForm(snapshot))
      """
    return document(
      title: "\(title) · \(projectName(snapshot))", snapshot: snapshot,
      current: .board(board.slug), main: main)
  }

  /// The page of one feature: its description, the owner's response, stage, tags, progress,
  /// and the release it shipped in.
  public static func feature(_ content: FeaturePageContent) -> HTML {
    let snapshot = content.snapshot
    let shown = shown(content.feature, resolver(content.languages))
    let feature = shown.feature
    let project = snapshot.project
    let stagesByID = Dictionary(
      snapshot.stages.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    let tagsByID = Dictionary(snapshot.tags.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
    let context = CardContext(
      snapshot: snapshot, stages: stagesByID, tags: tagsByID, resolver: resolver(content.languages))
    let stage = feature.stage.flatMap { stagesByID[$0] }

    var facts: [HTML] = []
    if let status = statusText(feature, stage) {
      facts.append(
        "<div><dt>Stage</dt><dd><span class=\"stage-badge stage-\(stage?.id ?? 0)\"\(lang(of: feature.status, shown.statusLanguage))>\(status)</span></dd></div>"
      )
    }
    if feature.isFinished(stageFinished: stage?.isFinished ?? false) {
      facts.append("<div><dt>State</dt><dd>Finished</dd></div>")
    }
    if let due = feature.due {
      facts.append(
        "<div><dt>Due</dt><dd><time datetime=\"\(due)\">\(monthText(due))</time></dd></div>")
    }
    if let progress = feature.progress {
      let clamped = min(max(progress, 0), 100)
      facts.append(
        """
        <div><dt id="progress-label">Progress</dt><dd><progress max="100" value="\(clamped)" aria-labelledby="progress-label">\(clamped)%</progress> <span class="progress-text">\(clamped)%</span></dd></div>
        """)
    }
    if let release = content.release {
      facts.append(
        """
        <div><dt>Shipped in</dt><dd><a href="\(WebBoardPaths.changelog(project, release: release.id, page: content.releasePage))">\(named(release.title, "Release \(release.id)"))</a></dd></div>
        """)
    }
    if snapshot.settings.commentsEnabled {
      facts.append("<div><dt>Comments</dt><dd>\(feature.comments)</dd></div>")
    }
    if let views = feature.views {
      facts.append("<div><dt>Views</dt><dd>\(views)</dd></div>")
    }
    let tags = tagList(feature, context)
    if tags != .empty { facts.append("<div><dt>Tags</dt><dd>\(tags)</dd></div>") }

    var response = HTML.empty
    if let text = feature.response, !text.isEmpty {
      response = """
        <section class="response" aria-labelledby="response-title">
        <h2 id="response-title">Response from the team</h2>
        \(paragraphs(text))
        </section>
        """
    }
    let description: HTML =
      feature.description.isEmpty
      ? "<p class=\"empty\">No description.</p>" : paragraphs(feature.description)
    let backTarget = feature.board == snapshot.board.slug ? snapshot.board.slug : Board.roadmapSlug
    let main: HTML = """
      <p class="back"><a href="\(WebBoardPaths.board(project, board: backTarget))">Back to \(backTarget == Board.roadmapSlug ? "the roadmap" : named(snapshot.board.name, snapshot.board.slug))</a></p>
      <article class="feature-detail" aria-labelledby="feature-title">
      <div class="detail-head">
      \(voteControl(feature, context, titleID: "feature-title"))
      <h1 id="feature-title"\(lang(of: feature.title, shown.titleLanguage))>\(displayTitle(feature))</h1>
      </div>
      <div class="description"\(lang(feature.description.isEmpty ? nil : shown.descriptionLanguage))>\(description)</div>
      <dl class="facts">\(HTML.join(facts))</dl>
      \(response)
      </article>
      """
    return document(
      title: "\(displayTitle(feature)) · \(projectName(snapshot))", snapshot: snapshot,
      current: .feature, main: main)
  }

  /// The changelog: every release newest first, its notes rendered by ``Markdown``, and the
  /// features it carried.
  public static func changelog(_ content: ChangelogPageContent) -> HTML {
    let snapshot = content.snapshot
    let project = snapshot.project
    let resolver = resolver(content.languages)
    var releases = HTML.empty
    for release in content.releases {
      let carried = release.features.compactMap { content.features[$0] }
      var shipped = HTML.empty
      if !carried.isEmpty {
        let items = HTML.join(
          carried.map {
            let shown = shown($0, resolver)
            let language = lang(of: shown.feature.title, shown.titleLanguage)
            return
              "<li><a href=\"\(WebBoardPaths.feature(project, id: $0.id))\"\(language)>\(displayTitle(shown.feature))</a></li>"
          })
        shipped = """
          <h3 class="shipped-title">Shipped</h3><ul class="shipped">\(items)</ul>
          """
      }
      let anchor = WebBoardPaths.releaseAnchor(release.id)
      releases += """
        <article class="release card" id="\(anchor)" aria-labelledby="\(anchor)-title">
        <h2 id="\(anchor)-title">\(named(release.title, "Release \(release.id)"))</h2>
        <p class="release-date"><time datetime="\(isoDay(release.date))">\(dayText(release.date))</time></p>
        <div class="notes">\(Markdown.render(release.notes))</div>
        \(shipped)
        </article>

        """
    }
    if content.releases.isEmpty {
      releases = "<p class=\"empty\">No releases yet.</p>"
    }
    var pages: [HTML] = []
    if content.page > 1 {
      pages.append(
        "<a rel=\"prev\" href=\"\(WebBoardPaths.changelog(project, page: content.page - 1))\">Newer releases</a>"
      )
    }
    if content.hasOlder {
      pages.append(
        "<a rel=\"next\" href=\"\(WebBoardPaths.changelog(project, page: content.page + 1))\">Older releases</a>"
      )
    }
    let pager: HTML =
      pages.isEmpty
      ? .empty
      : "<nav class=\"pager\" aria-label=\"Changelog pages\">\(HTML.join(pages, separator: " "))</nav>"
    let main: HTML = """
      <h1>Changelog</h1>
      <div class="releases">
      \(releases)</div>
      \(pager)
      """
    return document(
      title: "Changelog · \(projectName(snapshot))", snapshot: snapshot, current: .changelog,
      main: main)
  }

  /// A page that says what went wrong (`status` 404: no such project, board or feature),
  /// without the project's theme.
  public static func problem(status: Int, title: String, message: String) -> HTML {
    """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>\(title)</title>
    <link rel="stylesheet" href="\(WebAsset.stylesheet.path)">
    <link rel="icon" href="\(WebAsset.icon.path)" type="image/svg+xml">
    </head>
    <body>
    <main id="main" class="problem">
    <h1>\(title)</h1>
    <p>\(message)</p>
    <p class="status-code">HTTP \(status)</p>
    </main>
    </body>
    </html>

    """
  }

  /// The version of a board's theme stylesheet: a hash of its text.
  public static func themeVersion(_ snapshot: BoardSnapshot) -> String {
    WebAsset.hash(Array(themeStylesheet(snapshot).utf8))
  }

  /// The theme stylesheet of a board.
  public static func themeStylesheet(_ snapshot: BoardSnapshot) -> String {
    PageStyle(theme: snapshot.settings.theme).stylesheet(
      stages: snapshot.stages, tags: snapshot.tags)
  }
}
