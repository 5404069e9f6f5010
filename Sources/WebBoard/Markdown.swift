/// A small, safe Markdown renderer for release notes.
///
/// It knows ATX headings (`#` to `######`, drawn one level below the page's own: `#` is an
/// `<h3>`), paragraphs, bullet lists (`-`, `*`, `+`), numbered lists (`1.`, `1)`), fenced code
/// blocks, and inline `**strong**`, `*emphasis*` / `_emphasis_` (a delimiter after a space
/// opens, never closes, so they nest: `*a **b** c*`), `` `code` `` and `[links](url "title")`
/// (the title optional). Everything else is text: raw HTML is shown as typed, an image
/// (`![alt](src)`) is its alt text, and a link whose address is not `http:`, `https:` or
/// `mailto:` is its text only. Every character of the notes is escaped on the way out. A link
/// inside a drawn link's label is its label alone, and emphasis or labels nested more than 32
/// deep are text. Its time is linear in the text's length.
public enum Markdown {
  /// The HTML of `text`.
  public static func render(_ text: String) -> HTML {
    var out: [HTML] = []
    var paragraph: [String] = []
    var list: (ordered: Bool, items: [String])? = nil
    var fence: [String]? = nil

    func flushParagraph() {
      guard !paragraph.isEmpty else { return }
      let joined = paragraph.map { $0.trimmingSpaces() }.joined(separator: "\n")
      out.append("<p>\(inline(joined))</p>")
      paragraph = []
    }
    func flushList() {
      guard let current = list else { return }
      let items = HTML.join(current.items.map { "<li>\(inline($0))</li>" })
      out.append(current.ordered ? "<ol>\(items)</ol>" : "<ul>\(items)</ul>")
      list = nil
    }

    let lines = text.replacingOccurrences(of: "\r\n", with: "\n").split(
      separator: "\n", omittingEmptySubsequences: false
    ).map(String.init)
    for line in lines {
      if var code = fence {
        if line.trimmingSpaces().hasPrefix("```") {
          out.append("<pre><code>\(code.joined(separator: "\n"))</code></pre>")
          fence = nil
        } else {
          code.append(line)
          fence = code
        }
        continue
      }
      let trimmed = line.trimmingSpaces()
      if trimmed.isEmpty {
        flushParagraph()
        flushList()
        continue
      }
      if trimmed.hasPrefix("```") {
        flushParagraph()
        flushList()
        fence = []
        continue
      }
      if let (level, title) = heading(trimmed) {
        flushParagraph()
        flushList()
        let tag = "h\(min(level + 2, 6))"
        out.append(HTML(trusted: "<\(tag)>") + inline(title) + HTML(trusted: "</\(tag)>"))
        continue
      }
      if let (ordered, item) = listItem(trimmed) {
        flushParagraph()
        if let current = list, current.ordered != ordered { flushList() }
        if list == nil { list = (ordered, []) }
        list?.items.append(item)
        continue
      }
      if var current = list, line.first == " " || line.first == "\t" {
        // An indented line continues the list item above it.
        current.items[current.items.count - 1] += " " + trimmed
        list = current
        continue
      }
      flushList()
      paragraph.append(trimmed)
    }
    if let code = fence {
      out.append("<pre><code>\(code.joined(separator: "\n"))</code></pre>")
    }
    flushParagraph()
    flushList()
    return HTML.join(out, separator: "\n")
  }

  /// `(level, text)` of an ATX heading line, or nil.
  static func heading(_ line: String) -> (Int, String)? {
    let hashes = line.prefix { $0 == "#" }.count
    guard (1...6).contains(hashes) else { return nil }
    let rest = line.dropFirst(hashes)
    guard rest.isEmpty || rest.first == " " else { return nil }
    var title = rest.trimmingSpaces()
    while title.hasSuffix("#") { title.removeLast() }
    return (hashes, title.trimmingSpaces())
  }

  /// `(ordered, text)` of a list item line, or nil.
  static func listItem(_ line: String) -> (Bool, String)? {
    if let first = line.first, "-*+".contains(first), line.dropFirst().first == " " {
      return (false, String(line.dropFirst(2)).trimmingSpaces())
    }
    let digits = line.prefix { $0.isASCII && $0.isNumber }
    guard (1...9).contains(digits.count) else { return nil }
    let rest = line.dropFirst(digits.count)
    guard let marker = rest.first, marker == "." || marker == ")", rest.dropFirst().first == " "
    else { return nil }
    return (true, String(rest.dropFirst(2)).trimmingSpaces())
  }

  /// The inline markup of `text`: emphasis, code, links; everything else escaped.
  static func inline(_ text: String) -> HTML {
    var parser = InlineParser(Array(text))
    return parser.parse(until: nil)
  }

  /// Whether `address` may be a link: `http:`, `https:` or `mailto:` (case-insensitive), with
  /// nothing before the scheme and no control characters or spaces anywhere.
  public static func isSafeLink(_ address: String) -> Bool {
    let lower = address.lowercased()
    guard lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("mailto:")
    else { return false }
    return !address.unicodeScalars.contains { $0.value <= 0x20 || $0.value == 0x7F }
  }
}

/// Reads inline Markdown from an array of characters.
///
/// Its time grows linearly with the text: where a link's label and address end is looked up
/// in ``LinkBounds``, found in one pass over the whole text, instead of scanning ahead from
/// every `[` and `(` (20,000 `[` took a second that way), and a link's label is read in place,
/// as a range of the same characters, instead of as a copy (nested labels were quadratic).
private struct InlineParser {
  let chars: [Character]
  let bounds: LinkBounds
  /// Where this parser's text starts: 0, or just after a link's `[`.
  let lower: Int
  /// Where this parser's text ends: the end, or a link's `]`.
  let upper: Int
  /// Whether this is the label of a link drawn as one: a link inside it is drawn as its label
  /// alone, since an `<a>` inside an `<a>` is not HTML (browsers end the outer link there).
  let inLink: Bool
  var index: Int
  /// How many emphases and labels this text is inside.
  var depth: Int
  /// The most emphases and labels drawn one inside another; a delimiter or `[` past that is
  /// text. Each level is a call on the stack, so without it `*_*_…` (20,000 characters) ran
  /// a thread's stack out.
  static let maximumDepth = 32

  init(_ chars: [Character]) {
    self.init(chars, LinkBounds(chars), chars.startIndex..<chars.endIndex, inLink: false, depth: 0)
  }

  private init(
    _ chars: [Character], _ bounds: LinkBounds, _ range: Range<Int>, inLink: Bool, depth: Int
  ) {
    self.chars = chars
    self.bounds = bounds
    lower = range.lowerBound
    upper = range.upperBound
    self.inLink = inLink
    index = range.lowerBound
    self.depth = depth
  }

  /// The inline markup of a link's label, `range` of the same text; `inLink`: whether it is
  /// drawn inside an `<a>`.
  func label(_ range: Range<Int>, inLink: Bool) -> HTML {
    var parser = InlineParser(
      chars, bounds, range, inLink: self.inLink || inLink, depth: depth + 1)
    return parser.parse(until: nil)
  }

  /// Parses until `closer` (a delimiter such as `**`) or the end.
  mutating func parse(until closer: String?) -> HTML {
    var out = HTML.empty
    var text = ""
    func flush() {
      if !text.isEmpty {
        out += "\(text)"
        text = ""
      }
    }
    while index < upper {
      // A delimiter closes only right after text (right-flanking, as in CommonMark): in
      // `*a **b** c*` the `**` after the space opens a strong emphasis inside the emphasis
      // instead of ending it.
      if let closer, matches(closer), index > lower, !chars[index - 1].isWhitespace {
        flush()
        return out
      }
      let c = chars[index]
      if c == "\\", index + 1 < upper, chars[index + 1].isASCII,
        chars[index + 1].isPunctuation || chars[index + 1].isSymbol
      {
        text.append(chars[index + 1])
        index += 2
      } else if c == "`", let end = find("`", from: index + 1) {
        flush()
        out += "<code>\(String(chars[(index + 1)..<end]))</code>"
        index = end + 1
      } else if c == "*" || c == "_" {
        let strong = index + 1 < upper && chars[index + 1] == c
        let delimiter = strong ? String([c, c]) : String(c)
        let start = index + delimiter.count
        if depth < Self.maximumDepth, start < upper, chars[start] != " ",
          find(delimiter, from: start + 1) != nil, c == "*" || isWordBoundary(before: index)
        {
          flush()
          index = start
          depth += 1
          let inner = parse(until: delimiter)
          depth -= 1
          if matches(delimiter) {
            index += delimiter.count
            out += strong ? "<strong>\(inner)</strong>" : "<em>\(inner)</em>"
          } else {
            out += "\(delimiter)" + inner
          }
        } else {
          text.append(contentsOf: delimiter)
          index += delimiter.count
        }
      } else if c == "!" || c == "[", depth < Self.maximumDepth, let link = link(at: index) {
        flush()
        index = link.end
        if c == "!" {
          out += "\(String(chars[link.label]))"
        } else if !inLink && Markdown.isSafeLink(link.address) {
          let title: HTML = link.title.map { " title=\"\($0)\"" } ?? .empty
          out +=
            "<a href=\"\(link.address)\"\(title) rel=\"nofollow noopener\">\(label(link.label, inLink: true))</a>"
        } else {
          out += label(link.label, inLink: false)
        }
      } else {
        text.append(c)
        index += 1
      }
    }
    flush()
    return out
  }

  /// Whether `delimiter` (one or two characters) starts at the current index.
  func matches(_ delimiter: String) -> Bool { occurs(delimiter, at: index) }

  private func occurs(_ delimiter: String, at position: Int) -> Bool {
    var i = position
    for d in delimiter {
      guard i < upper, chars[i] == d else { return false }
      i += 1
    }
    return true
  }

  /// The first position from `start` where `delimiter` occurs, or nil.
  func find(_ delimiter: String, from start: Int) -> Int? {
    var i = start
    while i < upper {
      if occurs(delimiter, at: i) { return i }
      i += 1
    }
    return nil
  }

  func isWordBoundary(before position: Int) -> Bool {
    position == lower || !(chars[position - 1].isLetter || chars[position - 1].isNumber)
  }

  /// `[label](address)` or `![label](address)` at `start`, the address optionally followed by
  /// a title in `"…"`, `'…'` or `(…)`: its label's range, its address, its title and where it
  /// ends.
  func link(at start: Int) -> (label: Range<Int>, address: String, title: String?, end: Int)? {
    var i = start
    if chars[i] == "!" {
      i += 1
      guard i < upper, chars[i] == "[" else { return nil }
    }
    guard let labelEnd = bounds.closingBracket(of: i), labelEnd + 1 < upper,
      chars[labelEnd + 1] == "(", let close = bounds.closingParenthesis(of: labelEnd + 1),
      close < upper
    else { return nil }
    let inside = String(chars[(labelEnd + 2)..<close]).trimmingSpaces()
    let (address, title) = Self.addressAndTitle(inside)
    return ((i + 1)..<labelEnd, address, title, close + 1)
  }

  /// `https://a.example "Title"` as its address and title; anything else (no title, or words
  /// after the address that are not one quoted title) as it is, with no title.
  static func addressAndTitle(_ inside: String) -> (String, String?) {
    guard let gap = inside.firstIndex(where: { $0 == " " || $0 == "\t" || $0 == "\n" }) else {
      return (inside, nil)
    }
    var rest = inside[gap...]
    let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" }
    while let c = rest.first, blank(c) { rest.removeFirst() }
    while let c = rest.last, blank(c) { rest.removeLast() }
    guard rest.count >= 2, let first = rest.first, let last = rest.last,
      (first == "\"" && last == "\"") || (first == "'" && last == "'")
        || (first == "(" && last == ")")
    else { return (inside, nil) }
    let title = rest.dropFirst().dropLast()
    // The title ends at its closing quote: the same quote inside it would end it sooner.
    let closing: Character = first == "(" ? ")" : last
    guard !title.contains(closing) else { return (inside, nil) }
    return (String(inside[..<gap]), String(title))
  }
}

/// Where each `[` and each `(` of a text closes, found in one pass.
///
/// - A `[` closes at the first `]` after it where as many `]` as `[` were seen (backslashes
///   do not count here).
/// - A `(` closes at the first `)` after it where the parentheses between are balanced, those
///   after a backslash left out, as in CommonMark: `…/Swift_(programming_language)` and
///   `javascript:alert(1)` are one address each. A backslash takes the character after it
///   out of the count, itself included; a `(` right after a `]` is never taken out that way.
///
/// A label read in place ends at its own `]`, and every `[` inside it closes inside it, so
/// the one table serves every label; a `(` whose `)` lies past the label's end has none there.
private struct LinkBounds {
  private var brackets: [Int: Int] = [:]
  private var parentheses: [Int: Int] = [:]

  init(_ chars: [Character]) {
    var openBrackets: [Int] = []
    var openParentheses: [Int] = []
    var escaped = false
    for (i, c) in chars.enumerated() {
      switch c {
      case "[": openBrackets.append(i)
      case "]": if let open = openBrackets.popLast() { brackets[open] = i }
      default: break
      }
      if escaped {
        escaped = false
        continue
      }
      switch c {
      case "\\": escaped = true
      case "(": openParentheses.append(i)
      case ")": if let open = openParentheses.popLast() { parentheses[open] = i }
      default: break
      }
    }
  }

  /// The `]` that closes the `[` at `position`, or nil.
  func closingBracket(of position: Int) -> Int? { brackets[position] }

  /// The `)` that closes the `(` at `position`, or nil.
  func closingParenthesis(of position: Int) -> Int? { parentheses[position] }
}

extension StringProtocol {
  /// The text without leading and trailing spaces and tabs.
  func trimmingSpaces() -> String {
    var s = Substring(self)
    while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
    while let l = s.last, l == " " || l == "\t" { s.removeLast() }
    return String(s)
  }
}
