import Foundation

/// The relative links of a Markdown file and the anchors its headings get on GitHub, for
/// `LinkTests`.
enum MarkdownLinks {
  /// One link: its target as written and the 1-based line it is on.
  struct Link: Sendable, Equatable {
    var target: String
    var line: Int
  }

  /// Every inline `[text](target)` and reference `[label]: target` link outside code blocks and
  /// code spans, and every `<img src>`/`<a href>` in HTML.
  static func links(in markdown: String) -> [Link] {
    var links: [Link] = []
    var inFence: String? = nil
    for (index, rawLine) in markdown.split(separator: "\n", omittingEmptySubsequences: false)
      .enumerated()
    {
      let trimmed = rawLine.trimmingCharacters(in: .whitespaces)
      if let fence = inFence {
        if trimmed.hasPrefix(fence) { inFence = nil }
        continue
      }
      if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
        inFence = String(trimmed.prefix(while: { $0 == trimmed.first }))
        continue
      }
      let line = withoutCodeSpans(String(rawLine))
      for target in inlineTargets(line) + referenceTargets(line) + htmlTargets(line) {
        links.append(Link(target: target, line: index + 1))
      }
    }
    return links
  }

  /// Whether a target points outside the repository (`https:`, `mailto:` and other schemes).
  static func isExternal(_ target: String) -> Bool {
    guard let colon = target.firstIndex(of: ":") else { return false }
    let scheme = target[..<colon]
    return !scheme.isEmpty && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
  }

  /// The anchors GitHub gives the headings of `markdown` (`## Run it` is `run-it`; a repeated
  /// heading gets `-1`, `-2`).
  static func anchors(in markdown: String) -> Set<String> {
    var anchors: Set<String> = []
    var counts: [String: Int] = [:]
    var inFence: String? = nil
    for rawLine in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = rawLine.trimmingCharacters(in: .whitespaces)
      if let fence = inFence {
        if trimmed.hasPrefix(fence) { inFence = nil }
        continue
      }
      if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
        inFence = String(trimmed.prefix(while: { $0 == trimmed.first }))
        continue
      }
      guard rawLine.hasPrefix("#") else { continue }
      let text = rawLine.drop(while: { $0 == "#" })
      guard text.first == " " else { continue }
      let base = slug(String(text))
      let count = counts[base, default: 0]
      counts[base] = count + 1
      anchors.insert(count == 0 ? base : "\(base)-\(count)")
    }
    return anchors
  }

  /// GitHub's slug of a heading: links reduced to their text, lower-cased, characters other
  /// than letters, digits, `_`, `-` and spaces dropped, spaces written `-`.
  static func slug(_ heading: String) -> String {
    var text = heading.trimmingCharacters(in: .whitespaces)
    // [text](target) -> text
    while let open = text.range(of: "]("), let close = text[open.upperBound...].firstIndex(of: ")"),
      let start = text[..<open.lowerBound].lastIndex(of: "[")
    {
      let label = text[text.index(after: start)..<open.lowerBound]
      text.replaceSubrange(start...close, with: label)
    }
    var result = ""
    for scalar in text.lowercased().unicodeScalars {
      let properties = scalar.properties
      if scalar == " " {
        result += "-"
      } else if scalar == "-" || scalar == "_" || properties.isAlphabetic
        || properties.numericType != nil || properties.generalCategory == .nonspacingMark
      {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  private static func withoutCodeSpans(_ line: String) -> String {
    var result = ""
    var inSpan = false
    for character in line {
      if character == "`" {
        inSpan.toggle()
        continue
      }
      if !inSpan { result.append(character) }
    }
    return result
  }

  private static func inlineTargets(_ line: String) -> [String] {
    var targets: [String] = []
    var rest = line[...]
    while let open = rest.range(of: "](") {
      let after = rest[open.upperBound...]
      var depth = 0
      var end = after.endIndex
      for index in after.indices {
        let character = after[index]
        if character == "(" { depth += 1 }
        if character == ")" {
          if depth == 0 {
            end = index
            break
          }
          depth -= 1
        }
      }
      var target = String(after[..<end]).trimmingCharacters(in: .whitespaces)
      // [text](target "title")
      if let space = target.firstIndex(of: " ") { target = String(target[..<space]) }
      if target.hasPrefix("<"), target.hasSuffix(">") {
        target = String(target.dropFirst().dropLast())
      }
      if !target.isEmpty { targets.append(target) }
      rest = end < after.endIndex ? after[after.index(after: end)...] : ""
    }
    return targets
  }

  private static func referenceTargets(_ line: String) -> [String] {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    guard trimmed.hasPrefix("["), let close = trimmed.range(of: "]: ") else { return [] }
    let target = trimmed[close.upperBound...].split(separator: " ").first.map(String.init) ?? ""
    return target.isEmpty ? [] : [target]
  }

  private static func htmlTargets(_ line: String) -> [String] {
    var targets: [String] = []
    for attribute in ["href=\"", "src=\""] {
      var rest = line[...]
      while let start = rest.range(of: attribute) {
        let after = rest[start.upperBound...]
        guard let end = after.firstIndex(of: "\"") else { break }
        targets.append(String(after[..<end]))
        rest = after[after.index(after: end)...]
      }
    }
    return targets
  }
}
