import Foundation

/// Splits Swift source into lines of code with comments and string literals blanked out, each
/// with the `#if` conditions it is under, for checks over the sources.
///
/// Handles `//` and nested `/* */` comments, `"…"`, `"""…"""` and raw `#"…"#` strings (their
/// contents are blanked, so a doc comment or a message that mentions `Duration` is not code).
enum SwiftSourceLines {
  struct Line: Sendable {
    /// 1-based.
    var number: Int
    /// The line with comments and string contents removed.
    var code: String
    /// The comments of the line (for exemption markers).
    var comment: String
    /// The conditions of the enclosing `#if`/`#elseif` branches, outermost first (`#else`
    /// branches appear as `!` followed by the `#if` condition).
    var conditions: [String]
  }

  /// Whether `quotes` quote marks followed by `hashes` `#` start at `index`.
  private static func closes(_ characters: [Character], at index: Int, quotes: Int, hashes: Int)
    -> Bool
  {
    let end = index + quotes + hashes
    guard end <= characters.count else { return false }
    return characters[index..<(index + quotes)].allSatisfy { $0 == "\"" }
      && characters[(index + quotes)..<end].allSatisfy { $0 == "#" }
  }

  static func lines(of source: String) -> [Line] {
    var result: [Line] = []
    var conditions: [String] = []
    var blockDepth = 0
    var string: (hashes: Int, multiline: Bool)? = nil
    for (index, raw) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      let characters = Array(raw)
      var code = ""
      var comment = ""
      var i = 0
      while i < characters.count {
        let c = characters[i]
        let next = i + 1 < characters.count ? characters[i + 1] : nil
        if blockDepth > 0 {
          if c == "*", next == "/" {
            blockDepth -= 1
            i += 2
          } else if c == "/", next == "*" {
            blockDepth += 1
            i += 2
          } else {
            comment.append(c)
            i += 1
          }
          continue
        }
        if let open = string {
          if c == "\\", open.hashes == 0 {
            i += 2
            continue
          }
          let quotes = open.multiline ? 3 : 1
          if Self.closes(characters, at: i, quotes: quotes, hashes: open.hashes) {
            code += String(repeating: "\"", count: quotes)
            code += String(repeating: "#", count: open.hashes)
            i += quotes + open.hashes
            string = nil
          } else {
            i += 1
          }
          continue
        }
        if c == "/", next == "/" {
          comment += String(characters[(i + 2)...])
          break
        }
        if c == "/", next == "*" {
          blockDepth += 1
          i += 2
          continue
        }
        if c == "#" || c == "\"" {
          var hashes = 0
          var j = i
          while j < characters.count, characters[j] == "#" {
            hashes += 1
            j += 1
          }
          if j < characters.count, characters[j] == "\"" {
            let multiline =
              j + 2 < characters.count && characters[j + 1] == "\"" && characters[j + 2] == "\""
            string = (hashes, multiline)
            code += String(repeating: "#", count: hashes) + (multiline ? "\"\"\"" : "\"")
            i = j + (multiline ? 3 : 1)
            continue
          }
        }
        code.append(c)
        i += 1
      }
      if string?.multiline == false { string = nil }  // an unterminated one-line string
      let trimmed = code.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("#if ") {
        conditions.append(String(trimmed.dropFirst(4)))
      } else if trimmed.hasPrefix("#elseif "), !conditions.isEmpty {
        conditions[conditions.count - 1] = String(trimmed.dropFirst(8))
      } else if trimmed.hasPrefix("#else"), !conditions.isEmpty {
        conditions[conditions.count - 1] = "!" + conditions[conditions.count - 1]
      } else if trimmed.hasPrefix("#endif"), !conditions.isEmpty {
        conditions.removeLast()
      }
      result.append(Line(number: index + 1, code: code, comment: comment, conditions: conditions))
    }
    return result
  }
}
