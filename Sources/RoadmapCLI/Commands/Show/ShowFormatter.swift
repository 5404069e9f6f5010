import Foundation
import RoadmapFormat

/// Prints resolved features as a table for people or as JSON for scripts.
enum ShowFormatter {
  static let maximumTitleWidth = 40
  static let maximumStatusWidth = 24

  /// `ID  TITLE  STATUS  FINISHED` rows, each followed by its description, indented.
  static func table(_ features: [ResolvedFeature]) -> String {
    if features.isEmpty { return "No features.\n" }
    let idWidth = max(2, features.map { $0.id.count }.max() ?? 0)
    let titleWidth = min(maximumTitleWidth, max(5, features.map { $0.title.count }.max() ?? 0))
    let statusWidth = min(
      maximumStatusWidth, max(6, features.map { ($0.status ?? "-").count }.max() ?? 0))
    var output =
      pad("ID", idWidth) + "  " + pad("TITLE", titleWidth) + "  " + pad("STATUS", statusWidth)
      + "  FINISHED\n"
    for feature in features {
      var row = pad(feature.id, idWidth) + "  " + pad(feature.title, titleWidth) + "  "
      row += pad(feature.status ?? "-", statusWidth) + "  " + (feature.isFinished ? "yes" : "no")
      output += row + "\n"
      if !feature.description.isEmpty {
        let description = feature.description.split(
          separator: "\n", omittingEmptySubsequences: false
        ).joined(separator: " ")
        output += String(repeating: " ", count: idWidth + 2) + description + "\n"
      }
    }
    return output
  }

  /// `{"languages":[…],"compatible":bool,"features":[{"id","title","status","description",
  /// "isFinished","votes"}]}`.
  static func json(_ features: [ResolvedFeature], languages: [String], compatible: Bool) -> String {
    var output = "{\"languages\":[" + languages.map { JSONText.quote($0) }.joined(separator: ",")
    output += "],\"compatible\":\(compatible),\"features\":["
    output += features.map { feature in
      "{\"id\":\(JSONText.quote(feature.id)),\"title\":\(JSONText.quote(feature.title)),"
        + "\"status\":\(JSONText.quote(feature.status)),"
        + "\"description\":\(JSONText.quote(feature.description)),"
        + "\"isFinished\":\(feature.isFinished),"
        + "\"votes\":\(feature.votes.map(String.init) ?? "null")}"
    }.joined(separator: ",")
    return output + "]}\n"
  }

  /// `text` cut or padded to `width` characters.
  static func pad(_ text: String, _ width: Int) -> String {
    let flat = text.replacingOccurrences(of: "\n", with: " ")
    if flat.count > width { return String(flat.prefix(width - 1)) + "…" }
    return flat + String(repeating: " ", count: width - flat.count)
  }
}
