import Foundation

/// A fresh directory under the system temporary directory, removed by ``remove()``.
struct TemporaryDirectory: Sendable {
  let url: URL

  init(_ label: String = "votestore") throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}
