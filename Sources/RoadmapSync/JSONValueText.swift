import RoadmapFormat

/// JSON values as exact JSON text and back, for the `extra` members of a VoteFirst feature.
///
/// Writing keeps numbers as their source text and objects in their order; reading goes through
/// the project's own Roadmap reader, so a value read back is equal to the one written.
enum JSONValueText {
  /// `value` as compact JSON text.
  static func text(of value: JSONValue) -> String {
    var out = ""
    write(value, into: &out)
    return out
  }

  /// The value `text` holds, or nil when it is not exactly one JSON value.
  static func value(of text: String) -> JSONValue? {
    // Inside a one-feature document under a key the format does not define, so the reader keeps
    // it as it was written (number text, key order). Anything that breaks out of that slot (a
    // second member, a second feature) or any error makes it unreadable.
    let document = "[{\"id\":\"x\",\"v\":" + text + "}]"
    guard let read = try? RoadmapDocument.read(Array(document.utf8), mode: .lenient),
      !read.diagnostics.contains(where: { $0.severity == .error }),
      read.features.count == 1, read.features[0].extra.members.count == 1,
      read.features[0].extra.members[0].key == "v"
    else { return nil }
    return read.features[0].extra.members[0].value
  }

  private static func write(_ value: JSONValue, into out: inout String) {
    switch value {
    case .null: out += "null"
    case .bool(let bool): out += bool ? "true" : "false"
    case .number(let text): out += text
    case .string(let string): quote(string, into: &out)
    case .array(let items):
      out += "["
      for (index, item) in items.enumerated() {
        if index > 0 { out += "," }
        write(item, into: &out)
      }
      out += "]"
    case .object(let object):
      out += "{"
      for (index, member) in object.members.enumerated() {
        if index > 0 { out += "," }
        quote(member.key, into: &out)
        out += ":"
        write(member.value, into: &out)
      }
      out += "}"
    }
  }

  private static func quote(_ text: String, into out: inout String) {
    out += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}
