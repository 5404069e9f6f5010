import Foundation

/// A fresh directory under the system temporary directory, removed by ``remove()``.
///
///     let directory = try TemporaryDirectory()
///     defer { directory.remove() }
///     let file = try directory.write("roadmap.json", "[{\"id\":\"1\"}]")
struct TemporaryDirectory: Sendable {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("roadmapctl-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  var path: String { url.path }

  /// Writes `text` to `name` inside the directory and returns the file's URL.
  @discardableResult
  func write(_ name: String, _ text: String) throws -> URL {
    try write(name, bytes: Array(text.utf8))
  }

  /// Writes `bytes` to `name` inside the directory and returns the file's URL.
  @discardableResult
  func write(_ name: String, bytes: [UInt8]) throws -> URL {
    let file = url.appendingPathComponent(name)
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(bytes).write(to: file)
    return file
  }

  func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}
