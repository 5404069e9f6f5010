import Foundation
import VoteStore

/// What `roadmapctl backup` writes and `roadmapctl restore` reads: the counters (with their
/// hashed voter ids) and every board, in one JSON document.
struct StoreBackup: Codable {
  /// The document's `format`.
  static let formatName = "roadmapctl-backup"

  /// Always ``formatName``.
  var format: String = StoreBackup.formatName
  /// The format version; 1 for now.
  var version: Int = 1
  /// Every counter and its voters (`roadmapctl votes export`'s document).
  var votes: VoteExport
  /// Every board, row for row.
  var boards: BoardBackup
}
