import Foundation
import VoteFirstAPI

extension StatusMap {
  /// Reads a status map from its JSON text, checking that it makes sense: every stage named
  /// (1–254 characters) once, no status in two stages, readable colours, a finished stage that
  /// is not a listed unfinished one.
  public static func read(_ bytes: [UInt8]) throws(SyncError) -> StatusMap {
    try checkKeys(bytes)
    let file: File
    do {
      file = try JSONDecoder().decode(File.self, from: Data(bytes))
    } catch let error as DecodingError {
      let path = VoteFirstCoding.path(of: error).map { " at \($0)" } ?? ""
      throw .invalidStatusMap(
        "the status map is not of the expected shape\(path): \(describe(error))")
    } catch {
      throw .invalidStatusMap("the status map cannot be read: \(error.localizedDescription)")
    }
    var rules: [StageRule] = []
    var seenStatuses: [String: String] = [:]
    for (index, stage) in (file.stages ?? []).enumerated() {
      let count = stage.name.unicodeScalars.count
      guard (1...VoteFirstLimits.maxName).contains(count) else {
        throw .invalidStatusMap(
          "stages[\(index)].name must be 1–\(VoteFirstLimits.maxName) characters")
      }
      guard !rules.contains(where: { $0.name == stage.name }) else {
        throw .invalidStatusMap("stages[\(index)]: the stage '\(stage.name)' is listed twice")
      }
      for status in stage.statuses ?? [] {
        if let other = seenStatuses[status] {
          throw .invalidStatusMap(
            "stages[\(index)]: the status '\(status)' is already mapped to '\(other)'")
        }
        seenStatuses[status] = stage.name
      }
      var color: ThemeColor?
      if let text = stage.color {
        guard let parsed = ThemeColor(css: text) else {
          throw .invalidStatusMap(
            "stages[\(index)].color '\(text)' is not a colour (#RGB, #RRGGBB or #RRGGBBAA)")
        }
        color = parsed
      }
      rules.append(
        StageRule(
          name: stage.name, statuses: stage.statuses ?? [], isFinished: stage.isFinished,
          isArchived: stage.isArchived ?? false, votingEnabled: stage.votingEnabled ?? true,
          color: color))
    }
    let finished = file.finishedStage ?? StatusMap.defaultFinishedStage
    guard (1...VoteFirstLimits.maxName).contains(finished.unicodeScalars.count) else {
      throw .invalidStatusMap("finishedStage must be 1–\(VoteFirstLimits.maxName) characters")
    }
    if let rule = rules.first(where: { $0.name == finished }), rule.isFinished == false {
      // Said so where the map leaves finishedStage out: the stage is then the default's.
      let which =
        file.finishedStage == nil
        ? "finishedStage (not given: the default, '\(finished)')" : "finishedStage '\(finished)'"
      throw .invalidStatusMap(
        "\(which) is a stage the map marks \"isFinished\": false; finished features go "
          + "there, so name another finishedStage or leave out \"isFinished\": false")
    }
    return StatusMap(stages: rules, finishedStage: finished)
  }

  /// Rejects keys the map does not define (a typo such as `"finished"` would otherwise be
  /// ignored without a word).
  private static func checkKeys(_ bytes: [UInt8]) throws(SyncError) {
    let parsed: Any
    do {
      parsed = try JSONSerialization.jsonObject(with: Data(bytes))
    } catch {
      throw .invalidStatusMap("the status map is not JSON: \(error.localizedDescription)")
    }
    guard let top = parsed as? [String: Any] else {
      throw .invalidStatusMap("the status map must be a JSON object with \"stages\"")
    }
    for key in top.keys.sorted() where !["stages", "finishedStage"].contains(key) {
      throw .invalidStatusMap("unknown key '\(key)' (known: stages, finishedStage)")
    }
    let known = ["name", "statuses", "isFinished", "isArchived", "votingEnabled", "color"]
    for (index, stage) in ((top["stages"] as? [Any]) ?? []).enumerated() {
      guard let stage = stage as? [String: Any] else { continue }
      for key in stage.keys.sorted() where !known.contains(key) {
        throw .invalidStatusMap(
          "stages[\(index)]: unknown key '\(key)' (known: \(known.joined(separator: ", ")))")
      }
    }
  }

  private struct File: Decodable {
    var stages: [Rule]?
    var finishedStage: String?
  }

  private struct Rule: Decodable {
    var name: String
    var statuses: [String]?
    var isFinished: Bool?
    var isArchived: Bool?
    var votingEnabled: Bool?
    var color: String?
  }

  /// A type the map reads, in JSON's words (`Array<Any>` said nothing to the map's writer).
  private static func expected(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: "a string"
    case is Bool.Type: "true or false"
    case is [Any].Type, is [String].Type, is [Rule].Type: "an array"
    default: "an object"
    }
  }

  private static func describe(_ error: DecodingError) -> String {
    switch error {
    case .keyNotFound(let key, _): "'\(key.stringValue)' is missing"
    case .typeMismatch(let type, _): "expected \(expected(type))"
    case .valueNotFound(let type, _): "expected \(expected(type)), found null"
    case .dataCorrupted(let context): context.debugDescription
    @unknown default: "\(error)"
    }
  }
}
