import Foundation
import RoadmapFormat

/// Prints resolved features as a table for people or as JSON for scripts.
enum ShowFormatter {
  static let maximumTitleWidth = 40
  static let maximumStatusWidth = 24

  /// `ID  TITLE  STATUS  FINISHED` rows (with `votes`, a right-aligned `VOTES` column before
  /// `FINISHED`, `-` for a feature without a count), each followed by its description, indented.
  static func table(_ features: [ResolvedFeature], votes: Bool = false) -> String {
    if features.isEmpty { return "No features.\n" }
    // What the file says, as text a terminal shows and does not obey (an escape sequence in a
    // remote file's title must not recolour or retitle the reader's terminal).
    let rows = features.map { feature in
      (
        id: visible(feature.id), title: visible(feature.title),
        status: visible(feature.status ?? "-"), description: visible(feature.description)
      )
    }
    let idWidth = max(2, rows.map { width(of: $0.id) }.max() ?? 0)
    let titleWidth = min(maximumTitleWidth, max(5, rows.map { width(of: $0.title) }.max() ?? 0))
    let statusWidth = min(
      maximumStatusWidth, max(6, rows.map { width(of: $0.status) }.max() ?? 0))
    let votesWidth = max(5, features.map { String($0.votes ?? 0).count }.max() ?? 0)
    let votesHeader = votes ? "  " + padLeft("VOTES", votesWidth) : ""
    var output =
      pad("ID", idWidth) + "  " + pad("TITLE", titleWidth) + "  " + pad("STATUS", statusWidth)
      + votesHeader + "  FINISHED\n"
    for (feature, text) in zip(features, rows) {
      var row = pad(text.id, idWidth) + "  " + pad(text.title, titleWidth) + "  "
      row += pad(text.status, statusWidth)
      if votes { row += "  " + padLeft(feature.votes.map(String.init) ?? "-", votesWidth) }
      row += "  " + (feature.isFinished ? "yes" : "no")
      output += row + "\n"
      if !text.description.isEmpty {
        output += String(repeating: " ", count: idWidth + 2) + text.description + "\n"
      }
    }
    return output
  }

  /// `text` on one line a terminal shows as it is: a line break or tab is a space (`\r\n`
  /// one), any other control character (C0, DEL, C1) its escape, `\u001B`.
  static func visible(_ text: String) -> String {
    var result = String.UnicodeScalarView()
    var previous: Unicode.Scalar?
    for scalar in text.unicodeScalars {
      defer { previous = scalar }
      switch scalar.value {
      case 0x0A where previous == "\r": continue
      case 0x09, 0x0A, 0x0D: result.append(" ")
      case 0x00...0x1F, 0x7F...0x9F:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        result.append(
          contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
      default: result.append(scalar)
      }
    }
    return String(result)
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

  /// `text` (a number) right-aligned in `width` columns.
  static func padLeft(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }

  /// `text` cut or padded to `width` terminal columns.
  static func pad(_ text: String, _ width: Int) -> String {
    let flat = visible(text)
    let flatWidth = self.width(of: flat)
    if flatWidth <= width { return flat + String(repeating: " ", count: width - flatWidth) }
    var result = ""
    var used = 0
    for character in flat {
      let next = self.width(of: String(character))
      if used + next > width - 1 { break }
      result.append(character)
      used += next
    }
    return result + "…" + String(repeating: " ", count: width - 1 - used)
  }

  /// How many terminal columns `text` takes (``TerminalWidth``): East Asian wide and
  /// fullwidth characters and emoji take two, combining marks none.
  static func width(of text: String) -> Int {
    TerminalWidth.of(text)
  }
}
