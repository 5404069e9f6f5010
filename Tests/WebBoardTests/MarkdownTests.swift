import Testing
import WebBoard

/// The release-notes renderer, as a table: Markdown in, exact HTML out.
@Suite struct MarkdownTests {
  struct Case: CustomTestStringConvertible, Sendable {
    var markdown: String
    var html: String
    var testDescription: String { markdown.debugDescription }
  }

  static let cases: [Case] = [
    Case(markdown: "", html: ""),
    Case(markdown: "Hello", html: "<p>Hello</p>"),
    Case(markdown: "one\ntwo\n\nthree", html: "<p>one\ntwo</p>\n<p>three</p>"),
    Case(markdown: "# Big", html: "<h3>Big</h3>"),
    Case(markdown: "### Small ###", html: "<h5>Small</h5>"),
    Case(markdown: "###### Six", html: "<h6>Six</h6>"),
    Case(markdown: "####### Seven", html: "<p>####### Seven</p>"),
    Case(markdown: "#NoSpace", html: "<p>#NoSpace</p>"),
    Case(markdown: "- a\n- b", html: "<ul><li>a</li><li>b</li></ul>"),
    Case(markdown: "* a\n+ b", html: "<ul><li>a</li><li>b</li></ul>"),
    Case(markdown: "1. a\n2) b", html: "<ol><li>a</li><li>b</li></ol>"),
    Case(markdown: "- a\n  more\n- b", html: "<ul><li>a more</li><li>b</li></ul>"),
    Case(markdown: "- a\n1. b", html: "<ul><li>a</li></ul>\n<ol><li>b</li></ol>"),
    Case(markdown: "Text\n- item", html: "<p>Text</p>\n<ul><li>item</li></ul>"),
    Case(
      markdown: "**bold** and *em* and _em_",
      html: "<p><strong>bold</strong> and <em>em</em> and <em>em</em></p>"),
    Case(markdown: "**bold *both***", html: "<p><strong>bold <em>both</em></strong></p>"),
    // A delimiter after a space opens, never closes: strong inside emphasis and the reverse.
    Case(
      markdown: "*a **b** c*", html: "<p><em>a <strong>b</strong> c</em></p>"),
    Case(markdown: "_a **b** c_", html: "<p><em>a <strong>b</strong> c</em></p>"),
    Case(markdown: "*a *", html: "<p>*a *</p>"),
    Case(markdown: "*a * b*", html: "<p><em>a * b</em></p>"),
    Case(markdown: "snake_case_name", html: "<p>snake_case_name</p>"),
    Case(markdown: "2 * 3 * 4", html: "<p>2 * 3 * 4</p>"),
    Case(markdown: "**unclosed", html: "<p>**unclosed</p>"),
    Case(markdown: "`<code>` here", html: "<p><code>&lt;code&gt;</code> here</p>"),
    Case(markdown: "\\*not em\\*", html: "<p>*not em*</p>"),
    Case(
      markdown: "[site](https://example.org/a?b=1&c=2)",
      html:
        "<p><a href=\"https://example.org/a?b=1&amp;c=2\" rel=\"nofollow noopener\">site</a></p>"),
    Case(
      markdown: "[Mail](mailto:team@example.org)",
      html: "<p><a href=\"mailto:team@example.org\" rel=\"nofollow noopener\">Mail</a></p>"),
    // Balanced parentheses belong to the address, as in CommonMark: nothing is left over.
    Case(markdown: "[x](javascript:alert(1))", html: "<p>x</p>"),
    Case(
      markdown: "See [Swift](https://en.wikipedia.org/wiki/Swift_(programming_language)).",
      html:
        "<p>See <a href=\"https://en.wikipedia.org/wiki/Swift_(programming_language)\" "
        + "rel=\"nofollow noopener\">Swift</a>.</p>"),
    Case(
      markdown: "([x](https://a.example/p))",
      html: "<p>(<a href=\"https://a.example/p\" rel=\"nofollow noopener\">x</a>)</p>"),
    Case(markdown: "[x](JavaScript:alert`1`)", html: "<p>x</p>"),
    Case(markdown: "[x](data:text/html,hi)", html: "<p>x</p>"),
    Case(markdown: "[x](/relative)", html: "<p>x</p>"),
    Case(
      markdown: "[x]( https://ok.example )",
      html: "<p><a href=\"https://ok.example\" rel=\"nofollow noopener\">x</a></p>"),
    Case(markdown: "[x](https://a b)", html: "<p>x</p>"),
    // A title after the address, in "…", '…' or (…), is the link's title.
    Case(
      markdown: "[x](https://a.example \"Docs & more\")",
      html:
        "<p><a href=\"https://a.example\" title=\"Docs &amp; more\" rel=\"nofollow noopener\">x</a></p>"
    ),
    Case(
      markdown: "[x](https://a.example 'T')",
      html: "<p><a href=\"https://a.example\" title=\"T\" rel=\"nofollow noopener\">x</a></p>"),
    Case(
      markdown: "[x](https://a.example (T))",
      html: "<p><a href=\"https://a.example\" title=\"T\" rel=\"nofollow noopener\">x</a></p>"),
    Case(markdown: "[x](https://a.example \"a\"b\")", html: "<p>x</p>"),
    Case(markdown: "[x](https://a.example T)", html: "<p>x</p>"),
    Case(markdown: "[x](javascript:alert(1) \"t\")", html: "<p>x</p>"),
    Case(
      markdown: "[**bold** link](http://a.example)",
      html:
        "<p><a href=\"http://a.example\" rel=\"nofollow noopener\"><strong>bold</strong> link</a></p>"
    ),
    Case(markdown: "![logo](https://a.example/x.png)", html: "<p>logo</p>"),
    // A label is read in place: emphasis at its start, an image's alt text as typed.
    Case(
      markdown: "a[_b_](https://x.example)",
      html: "<p>a<a href=\"https://x.example\" rel=\"nofollow noopener\"><em>b</em></a></p>"),
    Case(markdown: "![alt *x*](https://i.example)", html: "<p>alt *x*</p>"),
    // No <a> inside an <a> (not HTML): a link in a drawn link's label is its label alone.
    Case(
      markdown: "[a [b](https://x.example) c](https://y.example)",
      html: "<p><a href=\"https://y.example\" rel=\"nofollow noopener\">a b c</a></p>"),
    // A label drawn as text (its address is not safe) keeps a safe link inside it.
    Case(
      markdown: "[a [b](https://x.example) c](javascript:x)",
      html: "<p>a <a href=\"https://x.example\" rel=\"nofollow noopener\">b</a> c</p>"),
    Case(
      markdown: "[[x]](https://z.example/(a)b))",
      html: "<p><a href=\"https://z.example/(a)b\" rel=\"nofollow noopener\">[x]</a>)</p>"),
    Case(markdown: "[x](https://a.example/(b)", html: "<p>[x](https://a.example/(b)</p>"),
    Case(
      markdown: "[`code]`](https://c.example)",
      html: "<p>[<code>code]</code>](https://c.example)</p>"),
    Case(
      markdown: "[a\\](https://x.example)",
      html: "<p><a href=\"https://x.example\" rel=\"nofollow noopener\">a\\</a></p>"),
    Case(markdown: "[not a link]", html: "<p>[not a link]</p>"),
    Case(markdown: "<b>raw</b>", html: "<p>&lt;b&gt;raw&lt;/b&gt;</p>"),
    Case(
      markdown: "<script>alert(1)</script>", html: "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"),
    Case(markdown: "# <i>head</i>", html: "<h3>&lt;i&gt;head&lt;/i&gt;</h3>"),
    Case(markdown: "```\n<b>\n  x\n```", html: "<pre><code>&lt;b&gt;\n  x</code></pre>"),
    Case(markdown: "```\nunclosed", html: "<pre><code>unclosed</code></pre>"),
    Case(markdown: "a\r\n\r\nb", html: "<p>a</p>\n<p>b</p>"),
    Case(
      markdown: "\"quotes\" & 'apostrophes'",
      html: "<p>&quot;quotes&quot; &amp; &#39;apostrophes&#39;</p>"),
  ]

  @Test(arguments: cases)
  func renders(_ example: Case) {
    #expect(Markdown.render(example.markdown).text == example.html)
  }

  @Test(
    arguments: [(String, Bool)]([
      ("https://a.example", true), ("HTTP://A.EXAMPLE", true), ("mailto:a@b.c", true),
      ("javascript:alert(1)", false), (" javascript:x", false), ("java\tscript:x", false),
      ("https://a.example/\u{0}", false), ("vbscript:x", false), ("data:text/html,x", false),
      ("//evil.example", false), ("ftp://a.example", false), ("", false),
    ]))
  func safeLinks(_ address: String, _ safe: Bool) {
    #expect(Markdown.isSafeLink(address) == safe)
  }

  /// Release notes are up to 20,000 characters and drawn at every view of the changelog, so
  /// their rendering must stay linear and within the stack whatever they hold. Each input is
  /// 200,000 characters: when every `[` or `(` scanned ahead for its closer, or a label was
  /// copied for each level of nesting, these took hours in a debug build (a second at 20,000
  /// in release); `*_*_…` nested one call per character and ran the stack out.
  @Test(
    .timeLimit(.minutes(5)),
    arguments: [
      ("[", 200_000), ("![", 100_000), ("[a](", 50_000), ("](", 100_000), ("(", 200_000),
    ])
  func unclosedLinksAreReadInLinearTime(_ unit: String, _ count: Int) {
    let text = String(repeating: unit, count: count)
    #expect(Markdown.render(text).text == "<p>\(text)</p>")
  }

  @Test(.timeLimit(.minutes(5)))
  func nestedLabelsAreReadInPlace() {
    let depth = 20_000
    let text =
      String(repeating: "[", count: depth) + "a"
      + String(repeating: "](https://x.example)", count: depth)
    let html = Markdown.render(text).text
    // The outermost link is drawn, and nothing inside it is a link of its own.
    #expect(html.hasPrefix("<p><a href=\"https://x.example\" rel=\"nofollow noopener\">"))
    #expect(html.components(separatedBy: "<a ").count == 2)
  }

  @Test(.timeLimit(.minutes(5)), arguments: ["*_", "**__", "*a _a ", "[*"])
  func deepNestingStaysWithinTheStack(_ unit: String) {
    let text = String(repeating: unit, count: 200_000 / unit.count)
    let html = Markdown.render(text).text
    var open = 0
    var deepest = 0
    var rest = Substring(html)
    while let tag = rest.firstRange(of: "<") {
      rest = rest[tag.upperBound...]
      if rest.hasPrefix("em>") || rest.hasPrefix("strong>") { open += 1 }
      if rest.hasPrefix("/em>") || rest.hasPrefix("/strong>") { open -= 1 }
      deepest = max(deepest, open)
    }
    #expect(open == 0)
    #expect(deepest <= 32)
    #expect(html.hasPrefix("<p>") && html.hasSuffix("</p>"))
  }
}
