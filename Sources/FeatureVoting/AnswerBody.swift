import Foundation
import VoteFirstAPI

/// A server's answer body, read leniently: JSON when it is JSON, otherwise text for messages.
struct AnswerBody {
  private let object: [String: Any]?
  private let data: Data

  init(_ data: Data) {
    self.data = data
    object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
  }

  /// The integer at `field`, if it is one (not a boolean, not a fraction, not a string).
  func integer(_ field: String) -> Int? {
    AnswerBody.integer(object?[field])
  }

  /// Whether `field` is present and JSON `null`.
  func isNull(_ field: String) -> Bool {
    guard let object, let value = object[field] else { return false }
    return value is NSNull
  }

  /// The string at `field`, if it is one.
  func string(_ field: String) -> String? {
    object?[field] as? String
  }

  /// The object at `field` when every value in it is an integer.
  func integerMap(_ field: String) -> [String: Int]? {
    guard let map = object?[field] as? [String: Any] else { return nil }
    var result: [String: Int] = [:]
    for (key, value) in map {
      guard let number = AnswerBody.integer(value) else { return nil }
      result[key] = number
    }
    return result
  }

  /// What the server said went wrong: its `error` or `message` field, the title of an HTML
  /// page, or the start of the body.
  var reason: String {
    if let error = string("error"), !error.isEmpty { return error }
    if let message = string("message"), !message.isEmpty { return message }
    return excerpt
  }

  /// A short description of the body for messages.
  var excerpt: String { AnswerText.excerpt(data) }

  private static func integer(_ value: Any?) -> Int? {
    guard let number = value as? NSNumber else { return nil }
    // A boolean decodes as an NSNumber too (and `is Bool` holds for 1): tell it apart by its
    // type encoding, which is `c` for booleans on Darwin and Linux alike.
    if String(cString: number.objCType) == "c" { return nil }
    let double = number.doubleValue
    guard double.rounded() == double, abs(double) < 9.007_199_254_740_992e15 else { return nil }
    return number.intValue
  }
}
