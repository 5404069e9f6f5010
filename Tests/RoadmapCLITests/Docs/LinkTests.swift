import Foundation
import Testing

/// Every relative link in README.md and docs/ resolves: the file or folder exists in the
/// package, and a `#fragment` is a heading of its target (docs/testing.md, "Links").
@Suite struct LinkTests {
  @Test(arguments: PackageFiles.documentationPaths)
  func relativeLinksResolve(_ path: String) throws {
    let problems = try Self.problems(
      in: try PackageFiles.text(path), path: path, root: PackageFiles.packageRoot)
    #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
  }

  /// What is wrong with the relative links of `markdown`, the file at `path` under `root`.
  static func problems(in markdown: String, path: String, root: URL) throws -> [String] {
    var problems: [String] = []
    let directory = root.appendingPathComponent(path).deletingLastPathComponent()
    for link in MarkdownLinks.links(in: markdown) where !MarkdownLinks.isExternal(link.target) {
      let parts = link.target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
      let file = String(parts[0]).removingPercentEncoding ?? String(parts[0])
      let fragment = parts.count > 1 ? String(parts[1]) : ""
      let target: URL
      if file.isEmpty {
        target = root.appendingPathComponent(path)
      } else if file.hasPrefix("/") {
        target = root.appendingPathComponent(String(file.dropFirst()))
      } else {
        target = directory.appendingPathComponent(file).standardizedFileURL
      }
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory) else {
        problems.append("\(path):\(link.line): '\(link.target)' does not exist")
        continue
      }
      guard !fragment.isEmpty else { continue }
      guard target.pathExtension == "md", !isDirectory.boolValue else {
        problems.append("\(path):\(link.line): '\(link.target)': a #fragment needs a .md file")
        continue
      }
      let anchors = MarkdownLinks.anchors(in: try String(contentsOf: target, encoding: .utf8))
      if !anchors.contains(fragment.lowercased()) {
        problems.append(
          "\(path):\(link.line): '\(link.target)': no heading has the anchor '#\(fragment)' "
            + "(anchors: \(anchors.sorted().joined(separator: ", ")))")
      }
    }
    return problems
  }

  // The mechanism itself.

  @Test func brokenLinksAndAnchorsAreCaught() throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("docs/guide.md", "# Guide\n\n## Run it\n")
    try directory.write("Samples/a.json", "[]")
    let markdown = """
      [ok](docs/guide.md#run-it) [ok](Samples/) [ok](Samples/a.json) [ok](#top) [ok](docs/guide.md)
      [gone](docs/missing.md)
      [bad anchor](docs/guide.md#walk-it)
      [anchor on json](Samples/a.json#x)
      [web](https://example.com/nowhere.md)
      # Top
      """
    try directory.write("README.md", markdown)
    let problems = try Self.problems(in: markdown, path: "README.md", root: directory.url)
    #expect(problems.count == 3, "\(problems)")
    #expect(problems.first?.hasPrefix("README.md:2: 'docs/missing.md' does not exist") == true)
    #expect(problems.dropFirst().first?.contains("no heading has the anchor '#walk-it'") == true)
    #expect(problems.last?.contains("a #fragment needs a .md file") == true)
  }

  @Test func findsLinksOutsideCode() {
    let markdown = """
      See [the CLI](docs/cli.md), [serving](serving.md#run-it "Run") and <img src="a.png">.
      `[not](a-link.md)` is code.
      [ref]: reference.md
      ```
      [inside](a-block.md)
      ```
      [x](https://example.com) [y](mailto:a@b.c) [z](#local)
      """
    #expect(
      MarkdownLinks.links(in: markdown).map(\.target) == [
        "docs/cli.md", "serving.md#run-it", "a.png", "reference.md", "https://example.com",
        "mailto:a@b.c", "#local",
      ])
    #expect(MarkdownLinks.isExternal("https://example.com"))
    #expect(MarkdownLinks.isExternal("mailto:a@b.c"))
    #expect(!MarkdownLinks.isExternal("docs/cli.md"))
    #expect(!MarkdownLinks.isExternal("#local"))
  }

  @Test func anchorsAreGitHubs() {
    let markdown = """
      # Serving vote counts: `roadmapctl serve`
      ## Point an app's Roadmap voter at it
      ## `roadmapctl validate [<inputs> ...]`
      ## Run it
      ## Run it
      ```
      # not a heading
      ```
      #not-a-heading
      """
    #expect(
      MarkdownLinks.anchors(in: markdown) == [
        "serving-vote-counts-roadmapctl-serve", "point-an-apps-roadmap-voter-at-it",
        "roadmapctl-validate-inputs-", "run-it", "run-it-1",
      ])
  }
}
