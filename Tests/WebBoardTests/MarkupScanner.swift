import Foundation

/// A small HTML tag scanner for the tests: every start tag with its attributes, as a browser's
/// tokenizer would read them from our output (values double-quoted, text escaped).
struct MarkupScanner {
  struct Tag: Equatable {
    var name: String
    var attributes: [(name: String, value: String)]
    static func == (a: Tag, b: Tag) -> Bool {
      a.name == b.name && a.attributes.map(\.name) == b.attributes.map(\.name)
        && a.attributes.map(\.value) == b.attributes.map(\.value)
    }
    func attribute(_ name: String) -> String? { attributes.first { $0.name == name }?.value }
  }

  /// The start tags of `html`, in order.
  static func tags(_ html: String) -> [Tag] {
    let c = Array(html.unicodeScalars)
    var tags: [Tag] = []
    var i = 0
    func isNameChar(_ s: Unicode.Scalar) -> Bool {
      s.properties.isAlphabetic || ("0"..."9").contains(s) || s == "-" || s == "_" || s == ":"
    }
    while i < c.count {
      guard c[i] == "<", i + 1 < c.count, c[i + 1].properties.isAlphabetic else {
        i += 1
        continue
      }
      i += 1
      var name = ""
      while i < c.count, isNameChar(c[i]) {
        name.unicodeScalars.append(c[i])
        i += 1
      }
      var attributes: [(String, String)] = []
      while i < c.count, c[i] != ">" {
        if c[i] == " " || c[i] == "\n" || c[i] == "/" {
          i += 1
          continue
        }
        var attribute = ""
        while i < c.count, c[i] != "=", c[i] != " ", c[i] != ">" {
          attribute.unicodeScalars.append(c[i])
          i += 1
        }
        var value = ""
        if i < c.count, c[i] == "=" {
          i += 1
          if i < c.count, c[i] == "\"" || c[i] == "'" {
            let quote = c[i]
            i += 1
            while i < c.count, c[i] != quote {
              value.unicodeScalars.append(c[i])
              i += 1
            }
            i += 1
          } else {
            while i < c.count, c[i] != " ", c[i] != ">" {
              value.unicodeScalars.append(c[i])
              i += 1
            }
          }
        }
        attributes.append((attribute.lowercased(), unescape(value)))
      }
      tags.append(Tag(name: name.lowercased(), attributes: attributes))
    }
    return tags
  }

  /// The text of `html` outside tags, character references decoded.
  static func text(_ html: String) -> String {
    var out = ""
    var inTag = false
    let c = Array(html.unicodeScalars)
    for (i, s) in c.enumerated() {
      if s == "<", i + 1 < c.count,
        c[i + 1].properties.isAlphabetic || c[i + 1] == "/"
          || c[i + 1] == "!"
      {
        inTag = true
      } else if s == ">", inTag {
        inTag = false
      } else if !inTag {
        out.unicodeScalars.append(s)
      }
    }
    return unescape(out)
  }

  static func unescape(_ text: String) -> String {
    text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
      .replacingOccurrences(of: "&amp;", with: "&")
  }
}
