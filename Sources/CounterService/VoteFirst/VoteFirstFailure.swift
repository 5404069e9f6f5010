import Foundation
import VoteFirstAPI

/// A refused VoteFirst call: its status and the contract's error body.
struct VoteFirstFailure: Error, Sendable {
  typealias Code = VoteFirstContract.ErrorCode

  /// The HTTP status.
  var status: Int
  /// The body: code, message, field.
  var body: APIErrorBody
  /// Extra answer headers (`Retry-After`, `Allow`).
  var headers: [(name: String, value: String)] = []

  init(_ status: Int, _ code: String, _ message: String, field: String? = nil) {
    self.status = status
    self.body = APIErrorBody(code: code, message: message, field: field)
  }

  static func invalidParameter(_ field: String, _ message: String) -> VoteFirstFailure {
    VoteFirstFailure(400, Code.invalidParameter, message, field: field)
  }

  static func validation(_ problem: APIErrorBody) -> VoteFirstFailure {
    VoteFirstFailure(422, Code.validationFailed, problem.message, field: problem.field)
  }

  static func validation(_ field: String, _ message: String) -> VoteFirstFailure {
    VoteFirstFailure(422, Code.validationFailed, message, field: field)
  }

  static func projectNotFound(_ project: String) -> VoteFirstFailure {
    VoteFirstFailure(
      404, Code.projectNotFound,
      "no project \(project): an admin call creates it (see docs/votefirst-api.md)")
  }

  static func notFound(_ code: String, _ what: String, _ project: String) -> VoteFirstFailure {
    VoteFirstFailure(404, code, "no \(what) in project \(project)")
  }

  /// The failure for a body that did not decode: a missing key is a 422 naming it, anything
  /// else a 400 naming where it went wrong. With `body`, a number the decoder could not take
  /// (Foundation reports 1.5 or 1e20 for an integer as "not valid JSON", with no place) is
  /// named with its place.
  static func decoding(_ error: any Error, body: [UInt8]? = nil) -> VoteFirstFailure {
    guard let error = error as? DecodingError else {
      return VoteFirstFailure(400, Code.invalidJSON, "the body is not JSON")
    }
    let field = VoteFirstCoding.path(of: error)
    switch error {
    case .keyNotFound(let key, _):
      return VoteFirstFailure(
        422, Code.validationFailed, "\(field ?? key.stringValue) is required", field: field)
    case .dataCorrupted(let context) where context.codingPath.isEmpty:
      if let body, let (place, number) = firstNonInteger(in: body) {
        return VoteFirstFailure(
          400, Code.invalidJSON,
          "\(place) has the wrong type: \(number) is not a whole number that fits (counts, ids and "
            + "positions are integers)", field: place)
      }
      return VoteFirstFailure(
        400, Code.invalidJSON, "the body is not JSON: \(context.debugDescription)")
    case .dataCorrupted(let context):
      // A value of the right type that does not read (a date that is not one).
      return VoteFirstFailure(
        400, Code.invalidJSON, "\(field ?? "the body"): \(context.debugDescription)",
        field: field)
    case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
      // Said in JSON's words, not Foundation's (which named Swift types, such as
      // `Dictionary<String, Any>`, and differ between platforms).
      var found: String?
      if case .valueNotFound = error {
        found = "null"
      } else if let body {
        found = jsonKind(in: body, at: context.codingPath)
      }
      return VoteFirstFailure(
        400, Code.invalidJSON,
        "\(field ?? "the body") has the wrong type: expected \(jsonName(of: type))"
          + (found.map { ", found " + $0 } ?? ""), field: field)
    @unknown default:
      return VoteFirstFailure(400, Code.invalidJSON, "the body does not decode", field: field)
    }
  }

  /// What a JSON document holds where `type` was expected: a string, a number, an array, an
  /// object.
  static func jsonName(of type: Any.Type) -> String {
    switch type {
    case is String.Type: return "a string"
    case is Bool.Type: return "true or false"
    case is any BinaryInteger.Type: return "a whole number"
    case is any BinaryFloatingPoint.Type: return "a number"
    default:
      let name = "\(type)"
      return name.hasPrefix("Array<") || name.contains("Unkeyed") ? "an array" : "an object"
    }
  }

  /// What `body` holds at `path` (a string, a number, true or false, null, an array, an
  /// object), or nil when it cannot be read there.
  static func jsonKind(in body: [UInt8], at path: [any CodingKey]) -> String? {
    guard
      var value = try? JSONSerialization.jsonObject(
        with: Data(body), options: [.fragmentsAllowed])
    else { return nil }
    for key in path {
      if let index = key.intValue, let array = value as? [Any], array.indices.contains(index) {
        value = array[index]
      } else if let object = value as? [String: Any], let member = object[key.stringValue] {
        value = member
      } else {
        return nil
      }
    }
    switch value {
    case is NSNull: return "null"
    case is String: return "a string"
    case is [Any]: return "an array"
    case is [String: Any]: return "an object"
    case let number as NSNumber:
      // A JSON `true` or `false` is a boolean NSNumber (`c`), a JSON number never is.
      return String(cString: number.objCType) == "c" ? "true or false" : "a number"
    default: return nil
    }
  }

  /// The place (`count`, `features[2].stage`) and text of the first number in `body` that is
  /// not a whole number within Int64, when `body` is JSON at all.
  static func firstNonInteger(in body: [UInt8]) -> (String, String)? {
    guard
      let root = try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])
    else { return nil }
    func search(_ value: Any, _ place: String) -> (String, String)? {
      if let object = value as? [String: Any] {
        for key in object.keys.sorted() {
          if let found = search(object[key]!, place.isEmpty ? key : place + "." + key) {
            return found
          }
        }
      } else if let array = value as? [Any] {
        for (index, element) in array.enumerated() {
          if let found = search(element, "\(place)[\(index)]") { return found }
        }
      } else if let number = value as? NSNumber, !(value is Bool) {
        let double = number.doubleValue
        let whole = double.rounded() == double && abs(double) < 9.2e18
        if !whole { return (place.isEmpty ? "the body" : place, number.stringValue) }
      }
      return nil
    }
    return search(root, "")
  }
}
