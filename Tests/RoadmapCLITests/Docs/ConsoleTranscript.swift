import Foundation
import Testing

/// A terminal session written in the docs as a ```console block, read into commands and the
/// output each is shown to print. `TranscriptTests` runs every one (docs/testing.md).
///
/// In a block, a line starting with `$ ` is a command; the lines up to the next command are its
/// output (standard output and standard error together, as a terminal shows them). A line that
/// is only `…` stands for any number of lines. The block is not run when the line just before
/// its opening fence is `<!-- transcript: skip REASON -->` (a session that needs a running
/// server, the network, or a machine of its own); the reason must be given.
struct ConsoleTranscript: Sendable, CustomTestStringConvertible {
  /// One `$ command` and the output shown under it.
  struct Step: Sendable, Equatable {
    var command: String
    var expected: [String]
    /// The 1-based line of the command in the Markdown file.
    var line: Int
  }

  /// The Markdown file, relative to the package root (`README.md`, `docs/serving.md`).
  var file: String
  /// The 1-based line of the opening fence.
  var line: Int
  var steps: [Step]
  /// Why the block is not run, from its skip marker; nil when it is run.
  var skipReason: String?

  var testDescription: String { "\(file):\(line)" }

  /// The marker that excludes the block after it, followed by the reason.
  static let skipMarker = "<!-- transcript: skip"

  /// Every ```console block of `markdown`, and every other fenced block that holds `$ ` lines
  /// (returned in `misfenced`: a transcript must be a console block, so the test sees it).
  static func parse(_ markdown: String, file: String) -> (
    transcripts: [ConsoleTranscript], misfenced: [Int]
  ) {
    let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var transcripts: [ConsoleTranscript] = []
    var misfenced: [Int] = []
    var index = 0
    while index < lines.count {
      let line = lines[index]
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      guard trimmed.hasPrefix("```") else {
        index += 1
        continue
      }
      let fence = String(trimmed.prefix(while: { $0 == "`" }))
      let info = trimmed.dropFirst(fence.count).trimmingCharacters(in: .whitespaces)
      let start = index
      var body: [String] = []
      index += 1
      while index < lines.count,
        !lines[index].trimmingCharacters(in: .whitespaces).hasPrefix(fence)
      {
        body.append(lines[index])
        index += 1
      }
      index += 1
      let isConsole = info.split(separator: " ").first == "console"
      guard isConsole else {
        // A Markdown example may show a transcript; any other block with `$ ` lines is one.
        let isMarkdown = ["markdown", "md"].contains(info.split(separator: " ").first ?? "")
        if !isMarkdown, body.contains(where: { $0.hasPrefix("$ ") }) {
          misfenced.append(start + 1)
        }
        continue
      }
      var skipReason: String? = nil
      if start > 0 {
        let previous = lines[start - 1].trimmingCharacters(in: .whitespaces)
        if previous.hasPrefix(skipMarker), previous.hasSuffix("-->") {
          skipReason = String(previous.dropFirst(skipMarker.count).dropLast(3))
            .trimmingCharacters(in: .whitespaces)
        }
      }
      var steps: [Step] = []
      for (offset, text) in body.enumerated() {
        if text.hasPrefix("$ ") {
          steps.append(
            Step(command: String(text.dropFirst(2)), expected: [], line: start + 2 + offset))
        } else if !steps.isEmpty {
          steps[steps.count - 1].expected.append(text)
        }
      }
      transcripts.append(
        ConsoleTranscript(file: file, line: start + 1, steps: steps, skipReason: skipReason))
    }
    return (transcripts, misfenced)
  }

  /// Whether a command is not run: building and testing (`swift build`, `swift test`; the tests
  /// run the binary already built) and `export PATH=…` (the built binary comes first on the
  /// PATH the transcript runs with). Their output in the block is not compared either.
  static func isSkipped(_ command: String) -> Bool {
    let words = command.split(separator: " ")
    if words.first == "swift", let verb = words.dropFirst().first,
      ["build", "test", "run"].contains(verb)
    {
      return true
    }
    return command.hasPrefix("export PATH=")
  }

  /// Whether `actual` lines match `expected`, where a line `…` matches any number of lines.
  /// Trailing spaces and trailing empty lines are ignored on both sides.
  static func matches(_ actual: [String], _ expected: [String]) -> Bool {
    let actual = normalized(actual)
    let expected = normalized(expected)
    func match(_ a: Int, _ e: Int) -> Bool {
      if e == expected.count { return a == actual.count }
      if expected[e] == "…" {
        for next in a...actual.count where match(next, e + 1) { return true }
        return false
      }
      return a < actual.count && actual[a] == expected[e] && match(a + 1, e + 1)
    }
    return match(0, 0)
  }

  static func normalized(_ lines: [String]) -> [String] {
    var lines = lines.map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }
    while lines.last == "" { lines.removeLast() }
    return lines
  }
}
