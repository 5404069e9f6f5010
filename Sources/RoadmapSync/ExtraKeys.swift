/// How the keys of a Roadmap feature's `extra` members are written in VoteFirst's `extra`, and
/// where the mapping keeps what VoteFirst's own fields cannot say.
///
/// A Roadmap key is written as it is, unless it is empty or starts with U+001F: then U+001F is
/// put in front of it. The mapping's own member is U+001F + `roadmap`. Reading drops one leading
/// U+001F: what is left is a Roadmap key if it is empty or starts with U+001F again, else the
/// name of a member of the mapping's own. No Roadmap key is lost or mistaken for another.
enum ExtraKeys {
  /// The escape, which no ordinary key starts with.
  static let escape: Unicode.Scalar = "\u{1F}"
  /// The member that holds the Roadmap values VoteFirst's fields cannot hold.
  static let originals = "\u{1F}roadmap"

  /// A key of VoteFirst's `extra` as read back.
  enum Reading: Equatable {
    /// A Roadmap key.
    case roadmap(String)
    /// A member of the mapping's own, by name (`roadmap`).
    case reserved(String)
  }

  /// The VoteFirst key of the Roadmap key `key`.
  static func wireKey(_ key: String) -> String {
    guard key.isEmpty || key.unicodeScalars.first == escape else { return key }
    return String(escape) + key
  }

  /// What the VoteFirst key `key` stands for.
  static func read(_ key: String) -> Reading {
    guard key.unicodeScalars.first == escape else { return .roadmap(key) }
    let rest = String(String.UnicodeScalarView(key.unicodeScalars.dropFirst()))
    if rest.isEmpty || rest.unicodeScalars.first == escape { return .roadmap(rest) }
    return .reserved(rest)
  }
}
