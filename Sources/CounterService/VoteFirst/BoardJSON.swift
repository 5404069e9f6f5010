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

  /// The text `q` searches: titles and descriptions in every language, in ``searchForm(_:)``.
  static func searchText(_ content: FeatureContent) -> String {
    var parts = [content.title, content.description]
    parts += (content.localizedTitle ?? []).map(\.value)
    parts += (content.localizedDescription ?? []).map(\.value)
    return searchForm(parts.joined(separator: "\n"))
  }

  /// `text` as searches compare it, the stored text and `q` alike: lower-cased, without U+0000
  /// (PostgreSQL text cannot hold it, and a title may: so the search column is the same on
  /// both stores, and a `q` with a NUL searches for the rest).
  static func searchForm(_ text: String) -> String {
    let lowered = text.lowercased()
    guard lowered.utf8.contains(0) else { return lowered }
    return String(lowered.unicodeScalars.filter { $0 != "\u{0}" }.map(Character.init))
  }

  /// The stored row of a feature.
  static func row(
    _ content: FeatureContent, id: Int, project: BoardProject, createdAt: Int64
  ) throws -> BoardFeatureRow {
    row(content, id: id, project: project, createdAt: createdAt, doc: try encode(content))
  }

  /// The stored row of a feature whose document is `doc` (`content` written).
  static func row(
    _ content: FeatureContent, id: Int, project: BoardProject, createdAt: Int64, doc: String
  ) -> BoardFeatureRow {
    BoardFeatureRow(
      project: project.id, id: Int64(id), ref: content.ref,
      counterKey: VoteFirstContract.counterKey(
        ref: content.ref, id: id, settings: project.settings),
      board: content.board, stage: content.stage.map(Int64.init),
      tags: content.tags.map(Int64.init),
      search: searchText(content), comments: Int64(content.comments), createdAt: createdAt,
      doc: doc)
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
