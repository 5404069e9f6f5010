// libFuzzer entry point for the web board's Markdown renderer (release notes, drawn on a public
// page). Not a package target: `Fuzz/run.sh markdown` compiles it with
// Sources/WebBoard/Markdown.swift and HTML.swift using `swiftc -sanitize=fuzzer,address`.

import Foundation

/// The elements the renderer may write, each with the attributes it may carry.
private let allowedTags: Set<String> = [
  "p", "h3", "h4", "h5", "h6", "ul", "ol", "li", "pre", "code", "strong", "em", "a",
]

/// Checks one input against the renderer's promises, trapping where one is broken:
/// - it never traps, however the notes nest (the stack is bounded);
/// - every `<` of the output opens or closes an allowed element, elements are balanced and
///   properly nested, and no `<a>` is inside another;
/// - a link's only attributes are an `href` of `http:`, `https:` or `mailto:` and
///   `rel="nofollow noopener"`;
/// - outside tags there is no `>` or `"`, every `&` starts an entity the escaper writes, and
///   no character HTML forbids (controls but tab, line feed, form feed and carriage return;
///   noncharacters) is left.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let html = Array(Markdown.render(text).text.unicodeScalars)
  var open: [String] = []
  var i = 0
  while i < html.count {
    switch html[i] {
    case "<":
      guard let end = html[i...].firstIndex(of: ">") else {
        preconditionFailure("a < that opens no tag in \(String(String.UnicodeScalarView(html)))")
      }
      let tag = String(String.UnicodeScalarView(html[(i + 1)..<end]))
      if tag.hasPrefix("/") {
        let name = String(tag.dropFirst())
        precondition(open.popLast() == name, "</\(name)> closes no open <\(name)>: \(tag)")
      } else {
        let name = String(tag.prefix { $0 != " " })
        precondition(allowedTags.contains(name), "an element the renderer may not write: <\(tag)>")
        if name == "a" {
          precondition(!open.contains("a"), "an <a> inside an <a>")
          let prefix = "a href=\""
          let suffix = "\" rel=\"nofollow noopener\""
          precondition(
            tag.hasPrefix(prefix) && tag.hasSuffix(suffix), "a link's attributes: \(tag)")
          let address = tag.dropFirst(prefix.count).dropLast(suffix.count)
          precondition(!address.contains("\""), "a quote inside href: \(tag)")
          precondition(
            Markdown.isSafeLink(String(address).replacingOccurrences(of: "&amp;", with: "&")),
            "a link that is not http:, https: or mailto: \(tag)")
        } else {
          precondition(name == tag, "attributes on <\(name)>: \(tag)")
        }
        open.append(name)
      }
      i = end + 1
    case ">", "\"":
      preconditionFailure("an unescaped \(html[i]) outside a tag")
    case "&":
      // Compared scalar by scalar, as HTML reads it: as Swift strings, "&amp;" and a
      // combining mark after it are one character, which hasPrefix("&amp;") would not match.
      let rest = html[i...]
      precondition(
        ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"].contains {
          rest.starts(with: $0.unicodeScalars)
        },
        "an & that starts no entity: \(String(String.UnicodeScalarView(rest.prefix(6))))")
      i += 1
    default:
      let v = html[i].value
      let allowedControl = v == 0x09 || v == 0x0A || v == 0x0C || v == 0x0D
      precondition(
        allowedControl || !(v < 0x20 || (0x7F...0x9F).contains(v)), "a control character: \(v)")
      precondition(
        !(0xFDD0...0xFDEF).contains(v) && v & 0xFFFE != 0xFFFE, "a noncharacter: \(v)")
      i += 1
    }
  }
  precondition(open.isEmpty, "elements left open: \(open)")
  return 0
}
