/// A small, safe Markdown renderer for release notes.
///
/// It knows ATX headings (`#` to `######`, drawn one level below the page's own: `#` is an
/// `<h3>`), paragraphs, bullet lists (`-`, `*`, `+`), numbered lists (`1.`, `1)`), fenced code
/// blocks, and inline `**strong**`, `*emphasis*` / `_emphasis_`, `` `code` `` and
/// `[links](url)`. Everything else is text: raw HTML is shown as typed, an image
/// (`![alt](src)`) is its alt text, and a link whose address is not `http:`, `https:` or
/// `mailto:` is its text only. Every character of the notes is escaped on the way out.
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
private struct InlineParser {
  let chars: [Character]
  var index = 0

  init(_ chars: [Character]) { self.chars = chars }

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
    while index < chars.count {
      if let closer, matches(closer) {
        flush()
        return out
      }
      let c = chars[index]
      if c == "\\", index + 1 < chars.count, chars[index + 1].isASCII,
        chars[index + 1].isPunctuation || chars[index + 1].isSymbol
      {
        text.append(chars[index + 1])
        index += 2
      } else if c == "`", let end = find("`", from: index + 1) {
        flush()
        out += "<code>\(String(chars[(index + 1)..<end]))</code>"
        index = end + 1
      } else if c == "*" || c == "_" {
        let strong = index + 1 < chars.count && chars[index + 1] == c
        let delimiter = strong ? String([c, c]) : String(c)
        let start = index + delimiter.count
        if start < chars.count, chars[start] != " ", find(delimiter, from: start + 1) != nil,
          c == "*" || isWordBoundary(before: index)
        {
          flush()
          index = start
          let inner = parse(until: delimiter)
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
      } else if c == "!" || c == "[", let link = link(at: index) {
        flush()
        index = link.end
        if c == "!" {
          out += "\(link.label)"
        } else if Markdown.isSafeLink(link.address) {
          var label = InlineParser(Array(link.label))
          out +=
            "<a href=\"\(link.address)\" rel=\"nofollow noopener\">\(label.parse(until: nil))</a>"
        } else {
          var label = InlineParser(Array(link.label))
          out += label.parse(until: nil)
        }
      } else {
        text.append(c)
        index += 1
      }
    }
    flush()
    return out
  }

  func matches(_ delimiter: String) -> Bool {
    let d = Array(delimiter)
    guard index + d.count <= chars.count else { return false }
    return Array(chars[index..<(index + d.count)]) == d
  }

  func find(_ delimiter: String, from start: Int) -> Int? {
    let d = Array(delimiter)
    var i = start
    while i + d.count <= chars.count {
      if Array(chars[i..<(i + d.count)]) == d { return i }
      i += 1
    }
    return nil
  }

  func isWordBoundary(before position: Int) -> Bool {
    position == 0 || !(chars[position - 1].isLetter || chars[position - 1].isNumber)
  }

  /// The `)` that closes a link's address starting at `start`: parentheses inside it count
  /// when balanced (`…/Swift_(programming_language)`, `javascript:alert(1)`), as in CommonMark;
  /// one after a backslash does not count.
  func destinationEnd(from start: Int) -> Int? {
    var depth = 0
    var i = start
    while i < chars.count {
      switch chars[i] {
      case "\\": i += 1
      case "(": depth += 1
      case ")":
        if depth == 0 { return i }
        depth -= 1
      default: break
      }
      i += 1
    }
    return nil
  }

  /// `[label](address)` or `![label](address)` at `start`: its parts and where it ends.
  func link(at start: Int) -> (label: String, address: String, end: Int)? {
    var i = start
    if chars[i] == "!" {
      i += 1
      guard i < chars.count, chars[i] == "[" else { return nil }
    }
    var depth = 0
    var labelEnd: Int? = nil
    var j = i
    while j < chars.count {
      if chars[j] == "[" { depth += 1 }
      if chars[j] == "]" {
        depth -= 1
        if depth == 0 {
          labelEnd = j
          break
        }
      }
      j += 1
    }
    guard let labelEnd, labelEnd + 1 < chars.count, chars[labelEnd + 1] == "(",
      let close = destinationEnd(from: labelEnd + 2)
    else { return nil }
    let label = String(chars[(i + 1)..<labelEnd])
    let address = String(chars[(labelEnd + 2)..<close]).trimmingSpaces()
    return (label, address, close + 1)
  }
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
