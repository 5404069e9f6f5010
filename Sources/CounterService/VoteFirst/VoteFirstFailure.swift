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
  /// else a 400 naming where it went wrong.
  static func decoding(_ error: any Error) -> VoteFirstFailure {
    guard let error = error as? DecodingError else {
      return VoteFirstFailure(400, Code.invalidJSON, "the body is not JSON")
    }
    let field = VoteFirstCoding.path(of: error)
    switch error {
    case .keyNotFound(let key, _):
      return VoteFirstFailure(
        422, Code.validationFailed, "\(field ?? key.stringValue) is required", field: field)
    case .dataCorrupted(let context) where context.codingPath.isEmpty:
      return VoteFirstFailure(
        400, Code.invalidJSON, "the body is not JSON: \(context.debugDescription)")
    case .typeMismatch(_, let context), .valueNotFound(_, let context),
      .dataCorrupted(let context):
      return VoteFirstFailure(
        400, Code.invalidJSON,
        "\(field ?? "the body") has the wrong type: \(context.debugDescription)", field: field)
    @unknown default:
      return VoteFirstFailure(400, Code.invalidJSON, "the body does not decode", field: field)
    }
  }
}
