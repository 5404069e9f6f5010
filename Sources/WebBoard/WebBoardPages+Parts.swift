import Foundation
import RoadmapFormat
import VoteFirstAPI

extension WebBoardPages {
  /// Which page of the navigation is the current one.
  enum Current: Equatable {
    case board(String)
    case feature
    case changelog
  }

  /// What a card needs besides its feature.
  struct CardContext {
    var snapshot: BoardSnapshot
    var stages: [Int: Stage]
    var tags: [Int: FeatureTag]
    /// The reader's languages, nil when the request named none.
    var resolver: LanguageResolver? = nil
  }

  /// A feature with its title, description and status as the reader sees them: each localized
  /// field in the first of the reader's languages it has (``LanguageResolver``'s BCP 47
  /// fallback, as `roadmapctl show`), else the plain field; with the language each was taken
  /// from (nil: the plain field, in the page's language).
  struct Shown {
    var feature: Feature
    var titleLanguage: String?
    var descriptionLanguage: String?
    var statusLanguage: String?
  }

  /// `feature` as the reader of `languages` sees it. A localized text that shows nothing
  /// (translation tools leave untranslated strings empty) gives way to the next of the
  /// reader's languages, then to the plain field.
  static func shown(_ feature: Feature, _ resolver: LanguageResolver?) -> Shown {
    guard let resolver else { return Shown(feature: feature) }
    var shown = Shown(feature: feature)
    let content = feature.content
    func choose(_ items: [LocalizedText]?) -> LocalizedText? {
      resolver.choose(items?.filter { !showsNothing($0.value) }, language: \.language)
    }
    if let title = choose(content.localizedTitle) {
      shown.feature.content.title = title.value
      shown.titleLanguage = title.language
    }
    if let text = choose(content.localizedDescription) {
      shown.feature.content.description = text.value
      shown.descriptionLanguage = text.language
    }
    if let status = choose(content.localizedStatus) {
      shown.feature.content.status = status.value
      shown.statusLanguage = status.language
    }
    return shown
  }

  /// A resolver for `languages`, nil for none.
  static func resolver(_ languages: [String]) -> LanguageResolver? {
    languages.isEmpty ? nil : LanguageResolver.fallback(preferredLanguages: languages)
  }

  /// ` lang="TAG"` for a text in another language than the page's, or nothing.
  static func lang(_ tag: String?) -> HTML {
    guard let tag, !tag.isEmpty else { return .empty }
    return HTML(trusted: " lang=\"" + HTML.escape(tag) + "\"")
  }

  /// The whole document around `main`.
  static func document(
    title: String, snapshot: BoardSnapshot, current: Current, main: HTML
  ) -> HTML {
    let project = snapshot.project
    var links: [HTML] = []
    func link(_ href: String, _ name: String, _ isCurrent: Bool) -> HTML {
      isCurrent
        ? "<li><a href=\"\(href)\" aria-current=\"page\">\(name)</a></li>"
        : "<li><a href=\"\(href)\">\(name)</a></li>"
    }
    links.append(
      link(WebBoardPaths.board(project), "Roadmap", current == .board(Board.roadmapSlug)))
    // A board named like a page (`changelog`) is not reachable at its address: not linked.
    for custom in snapshot.boards
    where custom.slug != Board.roadmapSlug && !WebBoardPaths.pageNames.contains(custom.slug) {
      links.append(
        link(
          WebBoardPaths.board(project, board: custom.slug), named(custom.name, custom.slug),
          current == .board(custom.slug)))
    }
    links.append(link(WebBoardPaths.changelog(project), "Changelog", current == .changelog))
    let theme = WebBoardPaths.theme(
      project, board: snapshot.board.slug, version: themeVersion(snapshot))
    return """
      <!doctype html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>\(title)</title>
      <link rel="stylesheet" href="\(WebAsset.stylesheet.path)">
      <link rel="stylesheet" href="\(theme)">
      <link rel="icon" href="\(WebAsset.icon.path)" type="image/svg+xml">
      <script src="\(WebAsset.script.path)" defer></script>
      </head>
      <body data-project="\(project)" data-api="\(VoteFirstContract.prefix + "/" + WebBoardPaths.segment(project))">
      <a class="skip-link" href="#main">Skip to content</a>
      <header class="site-header">
      <p class="project-name"><a href="\(WebBoardPaths.board(project))">\(projectName(snapshot))</a></p>
      <nav aria-label="Board"><ul>\(HTML.join(links))</ul></nav>
      </header>
      <noscript><p class="notice">Voting and suggestions need JavaScript. Everything else on this board reads without it.</p></noscript>
      <p class="vote-status" id="vote-status" role="status" aria-live="polite"></p>
      <main id="main" tabindex="-1">
      \(main)
      </main>
      <footer class="site-footer"><p>Served by RoadmapBridge</p></footer>
      </body>
      </html>

      """
  }

  /// The project's name as the board shows it.
  static func projectName(_ snapshot: BoardSnapshot) -> String {
    if let name = snapshot.settings.name, !showsNothing(name) { return name }
    return snapshot.project
  }

  /// A feature's title, or a placeholder for a feature without one that shows anything (an
  /// empty title, or one of spaces or zero-width characters alone, which drew a link and a
  /// heading with nothing to read, click or announce).
  static func displayTitle(_ feature: Feature) -> String {
    showsNothing(feature.title) ? "Untitled feature \(feature.id)" : feature.title
  }

  /// `name`, or `fallback` when it shows nothing (a stage, tag, board or release named with
  /// spaces alone drew an empty heading, option, tag or link).
  static func named(_ name: String, _ fallback: @autoclosure () -> String) -> String {
    showsNothing(name) ? fallback() : name
  }

  /// A stage's name as the page shows it.
  static func stageName(_ stage: Stage) -> String { named(stage.name, "Stage \(stage.id)") }

  /// Whether `text` draws nothing: empty, or only white space, control characters and
  /// characters that are invisible by default (zero-width spaces and joiners, direction
  /// marks).
  static func showsNothing(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy { scalar in
      scalar.properties.isWhitespace || scalar.properties.isDefaultIgnorableCodePoint
        || scalar.properties.generalCategory == .control
    }
  }

  /// The `lang` of a shown text: its language, unless the text shows nothing (then the page
  /// draws a placeholder in its own words, or another text).
  static func lang(of text: String?, _ language: String?) -> HTML {
    lang(text.map(showsNothing) == false ? language : nil)
  }

  /// The status a feature shows: its own text, else its stage's name.
  static func statusText(_ feature: Feature, _ stage: Stage?) -> String? {
    if let status = feature.status, !showsNothing(status) { return status }
    return stage.map(stageName)
  }

  /// Why voting on `feature` is refused, or nil when it is allowed (the API's order: project,
  /// board, stage, finished).
  static func votingRefusal(_ feature: Feature, _ context: CardContext) -> String? {
    let stage = feature.stage.flatMap { context.stages[$0] }
    if !context.snapshot.settings.votingEnabled { return "Voting is closed for this project." }
    let board =
      feature.board == context.snapshot.board.slug
      ? context.snapshot.board : context.snapshot.boards.first { $0.slug == feature.board }
    if let board, !board.votingEnabled { return "Voting is closed on this board." }
    if let stage, !stage.votingEnabled { return "Voting is closed in this stage." }
    if feature.isFinished(stageFinished: stage?.isFinished ?? false) {
      return "This feature is finished."
    }
    return nil
  }

  /// The vote button of a feature (or its count, when voting is closed). The button is a real
  /// `<button>`, disabled until the script runs (voting needs the browser's voter id).
  static func voteControl(_ feature: Feature, _ context: CardContext, titleID: String) -> HTML {
    let noun = feature.votes == 1 ? "vote" : "votes"
    if let refusal = votingRefusal(feature, context) {
      return """
        <div class="vote closed"><span class="vote-count">\(feature.votes)</span> <span class="vote-noun">\(noun)</span><span class="visually-hidden"> \(refusal)</span></div>
        """
    }
    let pressed = feature.voted ? "true" : "false"
    return """
      <div class="vote"><button type="button" class="vote-button" data-feature="\(feature.id)" aria-pressed="\(pressed)" aria-describedby="\(titleID)" disabled><span class="vote-arrow" aria-hidden="true">▲</span><span class="vote-count">\(feature.votes)</span> <span class="vote-noun">\(noun)</span><span class="visually-hidden">, vote</span></button></div>
      """
  }

  /// A feature as a card in a column or the list.
  static func card(_ original: Feature, _ context: CardContext, headingLevel: Int) -> HTML {
    let shown = shown(original, context.resolver)
    let feature = shown.feature
    let project = context.snapshot.project
    let stage = feature.stage.flatMap { context.stages[$0] }
    let titleID = "f\(feature.id)-\(headingLevel)-title"
    let tag = HTML(trusted: "h\(headingLevel)")
    var meta: [HTML] = []
    if let status = statusText(feature, stage) {
      let language = lang(of: feature.status, shown.statusLanguage)
      meta.append(
        "<span class=\"stage-badge stage-\(stage?.id ?? 0)\"\(language)>\(status)</span>")
    }
    if let due = feature.due {
      meta.append("<span>Due <time datetime=\"\(due)\">\(monthText(due))</time></span>")
    }
    if context.snapshot.settings.commentsEnabled {
      meta.append(
        "<span>\(feature.comments) \(feature.comments == 1 ? "comment" : "comments")</span>")
    }
    if let progress = feature.progress {
      meta.append("<span>\(min(max(progress, 0), 100))% done</span>")
    }
    let excerpt = excerpt(feature.description)
    let description: HTML =
      excerpt.isEmpty
      ? .empty : "<p class=\"excerpt\"\(lang(shown.descriptionLanguage))>\(excerpt)</p>"
    return """
      <article class="card" data-feature-card="\(feature.id)" aria-labelledby="\(titleID)">
      \(voteControl(feature, context, titleID: titleID))
      <div class="card-body">
      <\(tag) class="card-title" id="\(titleID)"><a href="\(WebBoardPaths.feature(project, id: feature.id))"\(lang(of: feature.title, shown.titleLanguage))>\(displayTitle(feature))</a></\(tag)>
      \(description)\(tagList(feature, context))
      <p class="meta">\(HTML.join(meta, separator: " "))</p>
      </div>
      </article>
      """
  }

  /// A feature's tags as a list, or nothing.
  static func tagList(_ feature: Feature, _ context: CardContext) -> HTML {
    let tags = feature.tags.compactMap { context.tags[$0] }
    guard !tags.isEmpty else { return .empty }
    let items = HTML.join(
      tags.map {
        "<li class=\"tag tag-\($0.id)\"><span class=\"tag-dot\" aria-hidden=\"true\"></span>\(named($0.name, "Tag \($0.id)"))</li>"
      })
    return "<ul class=\"tags\" aria-label=\"Tags\">\(items)</ul>"
  }

  /// The feedback list's filters: a plain GET form (search, order, stage, tag).
  static func filters(_ content: BoardPageContent) -> HTML {
    let snapshot = content.snapshot
    let query = content.query
    let orders: [(FeatureOrder, String)] = [
      (.top, "Top"), (.trending, "Trending"), (.newest, "Newest"), (.discussed, "Most discussed"),
    ]
    let orderOptions = HTML.join(
      orders.map { order, name in
        order == query.order
          ? "<option value=\"\(order.rawValue)\" selected>\(name)</option>"
          : "<option value=\"\(order.rawValue)\">\(name)</option>"
      })
    func option(_ value: Int, _ name: String, _ selected: Bool) -> HTML {
      selected
        ? "<option value=\"\(value)\" selected>\(name)</option>"
        : "<option value=\"\(value)\">\(name)</option>"
    }
    let stageOptions = HTML.join(
      snapshot.stages.map { option($0.id, stageName($0), $0.id == query.stage) })
    let tagOptions = HTML.join(
      snapshot.tags.map { option($0.id, named($0.name, "Tag \($0.id)"), $0.id == query.tag) })
    let action = WebBoardPaths.board(snapshot.project, board: snapshot.board.slug) + "#feedback"
    return """
      <form class="filters" method="get" action="\(action)" role="search" aria-label="Filter feedback">
      <div class="field"><label for="filter-q">Search</label><input type="search" id="filter-q" name="q" value="\(query.search ?? "")" maxlength="200"></div>
      <div class="field"><label for="filter-order">Order</label><select id="filter-order" name="order">\(orderOptions)</select></div>
      <div class="field"><label for="filter-stage">Stage</label><select id="filter-stage" name="stage"><option value="">All stages</option>\(stageOptions)</select></div>
      <div class="field"><label for="filter-tag">Tag</label><select id="filter-tag" name="tag"><option value="">All tags</option>\(tagOptions)</select></div>
      <div class="field actions"><button type="submit" class="button">Apply</button></div>
      </form>
      """
  }

  /// The suggestion form, or a line saying suggestions are closed. The script enables it.
  static func suggestionForm(_ snapshot: BoardSnapshot) -> HTML {
    guard snapshot.settings.suggestionsEnabled else {
      return """
        <section class="suggest" aria-labelledby="suggest-title"><h2 id="suggest-title">Suggest a feature</h2><p>This project is not taking suggestions at the moment.</p></section>
        """
    }
    return """
      <section class="suggest" aria-labelledby="suggest-title">
      <h2 id="suggest-title">Suggest a feature</h2>
      <form class="suggest-form" id="suggest-form" method="post" action="\(VoteFirstContract.prefix + "/" + WebBoardPaths.segment(snapshot.project) + "/suggestions")">
      <fieldset disabled>
      <legend class="visually-hidden">Your suggestion</legend>
      <div class="field"><label for="suggest-title-input">Title</label><input id="suggest-title-input" name="title" required maxlength="\(VoteFirstLimits.maxTitle)" aria-describedby="suggest-title-hint"><p class="hint" id="suggest-title-hint">Required, up to \(VoteFirstLimits.maxTitle) characters.</p></div>
      <div class="field"><label for="suggest-description-input">Description</label><textarea id="suggest-description-input" name="description" required maxlength="\(VoteFirstLimits.maxDescription)" rows="4" aria-describedby="suggest-description-hint"></textarea><p class="hint" id="suggest-description-hint">Required, up to \(VoteFirstLimits.maxDescription) characters.</p></div>
      <div class="field actions"><button type="submit" class="button" id="suggest-send" disabled>Send</button></div>
      </fieldset>
      <p class="suggest-status" id="suggest-status" role="status" aria-live="polite"></p>
      </form>
      </section>
      """
  }

  /// Plain text as paragraphs: a blank line starts a new one, a line break stays one.
  static func paragraphs(_ text: String) -> HTML {
    let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
    let blocks = normalized.components(separatedBy: "\n\n").map {
      $0.trimmingCharacters(in: .whitespacesAndNewlines)
    }.filter { !$0.isEmpty }
    return HTML.join(
      blocks.map { block in
        let lines = block.split(separator: "\n", omittingEmptySubsequences: false).map {
          HTML.Interpolation.escaped(String($0))
        }
        return "<p>\(HTML.join(lines, separator: "<br>"))</p>"
      })
  }

  /// The start of a description for a card: at most 180 characters, cut at a word.
  static func excerpt(_ text: String) -> String {
    let flat = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).joined(separator: " ")
    guard flat.count > 180 else { return flat }
    var cut = String(flat.prefix(180))
    if let space = cut.lastIndex(of: " ") { cut = String(cut[..<space]) }
    return cut + "…"
  }

  /// `2026-12` as `December 2026`.
  static func monthText(_ month: String) -> String {
    let names = [
      "January", "February", "March", "April", "May", "June", "July", "August", "September",
      "October", "November", "December",
    ]
    let parts = month.split(separator: "-")
    guard parts.count == 2, let m = Int(parts[1]), (1...12).contains(m) else { return month }
    return "\(names[m - 1]) \(parts[0])"
  }

  /// The UTC day of `date`, `2026-11-30`.
  static func isoDay(_ date: Date) -> String {
    let c = utcCalendar.dateComponents([.year, .month, .day], from: date)
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    return "\(c.year ?? 0)-\(two(c.month ?? 0))-\(two(c.day ?? 0))"
  }

  /// The UTC day of `date` in words, `30 November 2026`.
  static func dayText(_ date: Date) -> String {
    let c = utcCalendar.dateComponents([.year, .month, .day], from: date)
    let month = monthText("\(c.year ?? 0)-\(c.month ?? 0)")
    return "\(c.day ?? 0) \(month)"
  }

  private static var utcCalendar: Calendar {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    return calendar
  }
}

extension HTML.Interpolation {
  /// `text` escaped, as markup.
  static func escaped(_ text: String) -> HTML { HTML(trusted: HTML.escape(text)) }
}
