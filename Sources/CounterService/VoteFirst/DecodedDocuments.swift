import Foundation

/// Stored documents decoded once, by their text: every admin write loads its project's
/// boards, stages and tags, and decoding all of them each time made a migration that creates
/// stages one by one quadratic (1,000 stages: 5.5 s in a debug build).
///
/// Decoding is a function of the text alone, so a remembered value is right for any project
/// and any instance. At most `capacity` are kept; past that the memo starts over.
final class DecodedDocuments<Value: Decodable & Sendable>: Sendable {
  private let values = Locked<[String: Value]>([:])
  private let capacity: Int

  init(capacity: Int) {
    self.capacity = capacity
  }

  /// The value of `text`, decoded now or remembered from an earlier call.
  func value(_ text: String) throws -> Value {
    if let known = values.withLock({ $0[text] }) { return known }
    let value = try BoardJSON.decode(Value.self, text)
    values.withLock { values in
      if values.count >= capacity { values.removeAll(keepingCapacity: true) }
      values[text] = value
    }
    return value
  }
}
