import Foundation
import VoteFirstAPI

/// A feature's JSON made once, with only its vote count and the asker's vote written per
/// answer: the contract's encoding (sorted keys) puts `"voted"` and `"votes"` last, so the
/// bytes before them are the same for every reader.
///
/// ``bytes(votes:voted:)`` gives exactly what `VoteFirstCoding.encode(feature)` gives for
/// the feature with those two values (tested byte for byte). Should the encoding ever stop
/// ending with those two keys, ``init(_:)`` keeps the feature and encodes it whole each time.
struct FeatureJSON: Sendable {
  /// The feature with votes 0 and voted false.
  private let feature: Feature
  /// Its encoding up to `"voted":`, or nil when the encoding does not end as expected.
  private let prefix: [UInt8]?

  private static let tail = Array(#""voted":false,"votes":0}"#.utf8)

  init(_ feature: Feature) throws {
    var zero = feature
    zero.votes = 0
    zero.voted = false
    self.feature = zero
    let encoded = Array(try VoteFirstCoding.encode(zero))
    if encoded.count > Self.tail.count, encoded.suffix(Self.tail.count).elementsEqual(Self.tail) {
      prefix = Array(encoded.dropLast(Self.tail.count))
    } else {
      prefix = nil
    }
  }

  /// Appends the feature's JSON with `votes` and `voted` to `out`.
  func append(to out: inout [UInt8], votes: Int64, voted: Bool) throws {
    guard let prefix else {
      var whole = feature
      whole.votes = Int(votes)
      whole.voted = voted
      out += try VoteFirstCoding.encode(whole)
      return
    }
    out += prefix
    out += voted ? #""voted":true,"votes":"#.utf8 : #""voted":false,"votes":"#.utf8
    out += String(votes).utf8
    out.append(UInt8(ascii: "}"))
  }

  /// The feature's JSON with `votes` and `voted`.
  func bytes(votes: Int64, voted: Bool) throws -> [UInt8] {
    var out: [UInt8] = []
    try append(to: &out, votes: votes, voted: voted)
    return out
  }

  /// The feature (votes 0, voted false).
  var value: Feature { feature }

  /// `{"features":[…],"next":…}` of `items` (each a feature's JSON) and `next`, as
  /// `VoteFirstCoding.encode(FeaturePage)` writes it.
  static func page(_ items: [[UInt8]], next: String?) throws -> [UInt8] {
    var out = Array(#"{"features":["#.utf8)
    for (index, item) in items.enumerated() {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      out += item
    }
    out += #"],"next":"#.utf8
    if let next {
      out += try VoteFirstCoding.encode(next)
    } else {
      out += "null".utf8
    }
    out.append(UInt8(ascii: "}"))
    return out
  }
}
