import Foundation

/// The files of the package the repository tests read: README.md and every Markdown file under
/// docs/, sources, scripts.
enum PackageFiles {
  /// The package root (this file is Tests/RoadmapCLITests/Repository/PackageFiles.swift).
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// README.md and docs/**/*.md, relative to the package root, sorted.
  static var documentationPaths: [String] {
    var paths = ["README.md"]
    let docs = packageRoot.appendingPathComponent("docs")
    if let files = FileManager.default.enumerator(atPath: docs.path) {
      for case let file as String in files where file.hasSuffix(".md") {
        paths.append("docs/" + file)
      }
    }
    return paths.sorted()
  }

  /// The text of a file given relative to the package root.
  static func text(_ path: String) throws -> String {
    try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8)
  }
}
