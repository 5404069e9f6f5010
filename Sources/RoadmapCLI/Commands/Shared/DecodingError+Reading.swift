import Foundation
import VoteFirstAPI

extension DecodingError {
  /// What a document read with `JSONDecoder` got wrong, for a person: where
  /// (`at boards.projects[2].name: `, nothing at the top) and what was expected there,
  /// without the dump `"\(error)"` prints.
  var readableDescription: String {
    let path = VoteFirstCoding.path(of: self)
    let place = path.map { "at \($0): " } ?? ""
    switch self {
    case .keyNotFound: return "'\(path ?? "")' is missing"
    case .typeMismatch(let type, _): return place + "expected \(Self.name(of: type))"
    case .valueNotFound(let type, _): return place + "expected \(Self.name(of: type)), found null"
    case .dataCorrupted(let context):
      return path == nil
        ? "not JSON (\(context.debugDescription))" : place + context.debugDescription
    @unknown default: return "\(self)"
    }
  }

  /// A type as a JSON document holds it: a string, a number, an array, an object.
  private static func name(of type: Any.Type) -> String {
    let name = "\(type)"
    return switch type {
    case is String.Type: "a string"
    case is Bool.Type: "true or false"
    case is any BinaryInteger.Type, is any BinaryFloatingPoint.Type: "a number"
    default: name.hasPrefix("Array<") ? "an array" : "an object"
    }
  }
}
