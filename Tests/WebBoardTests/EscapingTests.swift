import Foundation
import Testing
import VoteFirstAPI
import WebBoard

/// Hostile text in every field the pages show: nothing in the output executes, and everything
/// reads back exactly as typed.
@Suite struct EscapingTests {
  static let hostile: [String] = [
    "<script>alert(1)</script>",
    "\" onmouseover=\"alert(1)",
    "' onfocus='alert(1)' autofocus x='",
    "<img src=x onerror=alert(1)>",
    "</textarea><script>alert(2)</script>",
    "javascript:alert(1)",
    "<a href=\"javascript:alert(1)\">click</a>",
    "&lt;already escaped&gt; & ampersands &amp;",
    "<style>body{display:none}</style>",
    "<!-- comment --><![CDATA[x]]>",
  ]

  /// Every element name the pages may contain.
  static let allowedElements: Set<String> = [
    "html", "head", "meta", "title", "link", "script", "body", "a", "header", "nav", "ul", "ol",
    "li", "p", "main", "footer", "noscript", "h1", "h2", "h3", "h4", "h5", "h6", "section",
    "div", "span", "article", "form", "label", "input", "select", "option", "button",
    "fieldset", "legend", "textarea", "dl", "dt", "dd", "time", "progress", "strong", "em",
    "code", "pre", "br",
  ]

  /// Fails unless `html` is free of anything that could run: no element outside the allowed
  /// set, no `on…` attribute, no `style` attribute, scripts only from our own asset, every link
  /// relative, `#…`, http(s) or mailto.
  static func expectInert(_ html: String, sourceLocation: SourceLocation = #_sourceLocation) {
    for tag in MarkupScanner.tags(html) {
      #expect(
        allowedElements.contains(tag.name), "element <\(tag.name)>", sourceLocation: sourceLocation)
      for attribute in tag.attributes {
        #expect(
          !attribute.name.hasPrefix("on"), "attribute \(attribute.name) on <\(tag.name)>",
          sourceLocation: sourceLocation)
        #expect(
          attribute.name != "style", "style attribute on <\(tag.name)>",
          sourceLocation: sourceLocation)
        #expect(
          attribute.name != "srcdoc" && attribute.name != "formaction",
          sourceLocation: sourceLocation)
      }
      if tag.name == "script" {
        #expect(tag.attribute("src") == WebAsset.script.path, sourceLocation: sourceLocation)
      }
      for name in ["href", "action", "src"] {
        guard let value = tag.attribute(name) else { continue }
        let lower = value.lowercased()
        let safe =
          lower.hasPrefix("/") || lower.hasPrefix("#") || lower.hasPrefix("http://")
          || lower.hasPrefix("https://") || lower.hasPrefix("mailto:")
        #expect(safe, "\(name)=\(value) on <\(tag.name)>", sourceLocation: sourceLocation)
      }
    }
    #expect(!html.contains("<script>"), sourceLocation: sourceLocation)
    #expect(!html.contains("<style"), sourceLocation: sourceLocation)
  }

  @Test(
    arguments: [String: String](
      [
        ("<", "&lt;"), (">", "&gt;"), ("&", "&amp;"), ("\"", "&quot;"), ("'", "&#39;"),
        ("plain text", "plain text"), ("a\u{0}b", "a\u{FFFD}b"),
        ("tab\tnew\nline", "tab\tnew\nline"),
        ("\u{7F}\u{85}", "\u{FFFD}\u{FFFD}"),
        ("émoji 🚀 中文", "émoji 🚀 中文"),
      ], uniquingKeysWith: { a, _ in a }))
  func escaper(_ example: (key: String, value: String)) {
    #expect(HTML.escape(example.key) == example.value)
  }

  @Test func noncharactersBecomeReplacementCharacters() {
    let text = String(
      String.UnicodeScalarView([0xFDD0, 0xFFFE, 0x1FFFF, 0x41].compactMap(Unicode.Scalar.init)))
    #expect(HTML.escape(text) == "\u{FFFD}\u{FFFD}\u{FFFD}A")
  }

  @Test func interpolationEscapesValuesAndKeepsMarkup() {
    let value = "<b title=\"x\">"
    let inner: HTML = "<em>\(value)</em>"
    let outer: HTML = "<p data-x=\"\(value)\">\(inner)</p>"
    #expect(
      outer.text
        == "<p data-x=\"&lt;b title=&quot;x&quot;&gt;\"><em>&lt;b title=&quot;x&quot;&gt;</em></p>")
  }

  @Test(arguments: hostile)
  func hostileBoardPage(_ text: String) {
    let settings = ProjectSettings(name: text)
    let snapshot = Fixtures.snapshot(
      settings: settings,
      stages: [Stage(id: 3, name: text, position: 0)],
      tags: [FeatureTag(id: 1, name: text)],
      boards: [Board(slug: "ideas", name: text)])
    let feature = Fixtures.feature(
      7, text, description: text + "\n\n" + text, response: text, tags: [1])
    let html = Fixtures.boardPage(
      snapshot: snapshot, features: [feature],
      query: FeatureQuery(search: text, cursor: text))
    Self.expectInert(html)
    let readable = MarkupScanner.text(html)
    #expect(readable.components(separatedBy: text).count - 1 >= 4, "title, name, stage, tag")
    // The search box holds the query exactly as typed.
    let search = MarkupScanner.tags(html).first { $0.attribute("id") == "filter-q" }
    #expect(search?.attribute("value") == text)
  }

  @Test(arguments: hostile)
  func hostileFeaturePage(_ text: String) {
    let snapshot = Fixtures.snapshot(settings: ProjectSettings(name: text))
    let release = Release(id: 4, title: text, notes: text, date: Fixtures.date)
    let feature = Fixtures.feature(
      7, text, description: text, response: text + "\n" + text, tags: [1], progress: 50,
      release: 4)
    let html = WebBoardPages.feature(
      FeaturePageContent(snapshot: snapshot, feature: feature, release: release)
    ).text
    Self.expectInert(html)
    let escaped = HTML.escape(text)
    #expect(html.contains("Response from the team</h2>\n<p>\(escaped)<br>\(escaped)</p>"))
    #expect(MarkupScanner.text(html).contains(text))
    let heading = html.components(separatedBy: "<h1 id=\"feature-title\">")[1]
      .components(separatedBy: "</h1>")[0]
    #expect(MarkupScanner.unescape(heading) == text)
  }

  @Test(arguments: hostile)
  func hostileChangelog(_ text: String) {
    let notes = """
      # \(text)

      \(text) [\(text)](javascript:alert(1)) [ok](https://example.org/?a="b"&c=<d>)

      - \(text)
      ![\(text)](https://evil.example/x.png)
      """
    let releases = [Release(id: 1, title: text, notes: notes, date: Fixtures.date, features: [7])]
    let html = WebBoardPages.changelog(
      ChangelogPageContent(
        snapshot: Fixtures.snapshot(), releases: releases,
        features: [7: Fixtures.feature(7, text)])
    ).text
    Self.expectInert(html)
    #expect(!html.lowercased().contains("javascript:alert(1)\""))
    #expect(!html.contains("<img"))
    #expect(MarkupScanner.text(html).contains(text))
    let links = MarkupScanner.tags(html).filter { $0.name == "a" }.compactMap {
      $0.attribute("href")
    }
    #expect(links.contains("https://example.org/?a=\"b\"&c=<d>"))
    #expect(!links.contains { $0.lowercased().hasPrefix("javascript") })
  }

  @Test func problemPageEscapes() {
    let html = WebBoardPages.problem(
      status: 404, title: "<script>x</script>", message: "\" onload=\"x"
    ).text
    Self.expectInert(html)
    #expect(MarkupScanner.text(html).contains("<script>x</script>"))
  }
}
