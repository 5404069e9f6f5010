import Foundation
import VoteFirstAPI
import VoteStore

/// The board documents as stored: the contract's own JSON (sorted keys, so equal content is
/// equal text).
enum BoardJSON {
  static func encode<T: Encodable>(_ value: T) throws -> String {
    String(decoding: try VoteFirstCoding.encode(value), as: UTF8.self)
  }

  /// A stored document; one that does not decode is a damaged store, not a bad request.
  static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
    do {
      return try VoteFirstCoding.decode(type, from: Data(text.utf8))
    } catch {
      throw VoteStoreError(.corrupt, "a stored \(type) does not decode: \(error)")
    }
  }

  /// The text `q` searches: titles and descriptions in every language, lower-cased.
  static func searchText(_ content: FeatureContent) -> String {
    var parts = [content.title, content.description]
    parts += (content.localizedTitle ?? []).map(\.value)
    parts += (content.localizedDescription ?? []).map(\.value)
    return parts.joined(separator: "\n").lowercased()
  }

  /// The stored row of a feature.
  static func row(
    _ content: FeatureContent, id: Int, project: BoardProject, createdAt: Int64
  ) throws -> BoardFeatureRow {
    BoardFeatureRow(
      project: project.id, id: Int64(id), ref: content.ref,
      counterKey: VoteFirstContract.counterKey(
        ref: content.ref, id: id, settings: project.settings),
      board: content.board, stage: content.stage.map(Int64.init),
      tags: content.tags.map(Int64.init),
      search: searchText(content), comments: Int64(content.comments), createdAt: createdAt,
      doc: try encode(content))
  }

  /// The feature a reader sees, from its row, its counter and the voter's vote.
  static func feature(
    _ row: BoardFeatureRow, votes: Int64, voted: Bool, showViews: Bool
  ) throws -> Feature {
    var content = try decode(FeatureContent.self, row.doc)
    if !showViews { content.views = nil }
    return Feature(
      id: Int(row.id), content: content, votes: Int(votes), voted: voted,
      createdAt: Date(timeIntervalSince1970: Double(row.createdAt) / 1000))
  }
}
