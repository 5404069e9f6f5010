/// Writes features as canonical Roadmap JSON.
///
/// Keys come in a stable order: `id`, `title`, `status`, `description`, `isFinished`, `votes`,
/// `localizedTitle`, `localizedStatus`, `localizedDescription`, then unknown keys in their
/// original order; a localized item writes `language`, `value`, then its other keys. Absent
/// keys are omitted. Strings are written by ``JSONString``: UTF-8, with only `"`, `\`, control
/// characters and U+2028/U+2029 escaped. Reading the output gives back equal features, with two
/// exceptions for values built in code rather than read: a member of ``RoadmapFeature/extra``
/// (or ``LocalizedValue/extra``) named like a field of the format is not written (the field
/// is), and a ``JSONValue/number(_:)`` whose text is not a JSON number is written as a string.
public enum RoadmapWriter {
  /// Writes `features` as a JSON array.
  ///
  /// - Parameters:
  ///   - features: the features, in order.
  ///   - style: pretty (the default) or compact.
  /// - Returns: UTF-8 bytes.
  public static func write(_ features: [RoadmapFeature], style: RoadmapWriterStyle = .pretty)
    -> [UInt8]
  {
    var writer = JSONByteWriter(pretty: style == .pretty)
    writer.out.reserveCapacity(features.count * 256)
    writer.beginArray()
    for feature in features {
      writer.element()
      writeFeature(feature, into: &writer)
    }
    writer.endArray(empty: features.isEmpty)
    if style == .pretty {
      writer.out.append(UInt8(ascii: "\n"))
    }
    return writer.out
  }

  private static func writeFeature(_ feature: RoadmapFeature, into writer: inout JSONByteWriter) {
    writer.beginObject()
    writer.key("id")
    writer.string(feature.id)
    if let title = feature.title {
      writer.key("title")
      writer.string(title)
    }
    if let status = feature.status {
      writer.key("status")
      writer.string(status)
    }
    if let description = feature.description {
      writer.key("description")
      writer.string(description)
    }
    if let isFinished = feature.isFinished {
      writer.key("isFinished")
      writer.raw(isFinished ? "true" : "false")
    }
    if let votes = feature.votes {
      writer.key("votes")
      writer.raw(String(votes))
    }
    for (name, items) in [
      ("localizedTitle", feature.localizedTitle), ("localizedStatus", feature.localizedStatus),
      ("localizedDescription", feature.localizedDescription),
    ] {
      guard let items else { continue }
      writer.key(name)
      writer.beginArray()
      for item in items {
        writer.element()
        writer.beginObject()
        writer.key("language")
        writer.string(item.language)
        writer.key("value")
        writer.string(item.value)
        for member in item.extra.members where !LocalizedValue.isField(member.key) {
          writer.key(member.key)
          writer.value(member.value)
        }
        writer.endObject(empty: false)
      }
      writer.endArray(empty: items.isEmpty)
    }
    for member in feature.extra.members where !FeatureKey.isKnown(member.key) {
      writer.key(member.key)
      writer.value(member.value)
    }
    writer.endObject(empty: false)
  }
}

/// Appends JSON tokens to a byte buffer, handling commas and indentation.
struct JSONByteWriter {
  var out: [UInt8] = []
  let pretty: Bool
  private var depth = 0
  private var first = true

  init(pretty: Bool) {
    self.pretty = pretty
  }

  mutating func beginArray() {
    out.append(UInt8(ascii: "["))
    depth += 1
    first = true
  }

  mutating func endArray(empty: Bool) {
    depth -= 1
    if !empty { newline() }
    out.append(UInt8(ascii: "]"))
    first = false
  }

  mutating func beginObject() {
    out.append(UInt8(ascii: "{"))
    depth += 1
    first = true
  }

  mutating func endObject(empty: Bool) {
    depth -= 1
    if !empty { newline() }
    out.append(UInt8(ascii: "}"))
    first = false
  }

  /// Starts an array element: a comma when needed, then the indentation.
  mutating func element() {
    if !first { out.append(UInt8(ascii: ",")) }
    first = false
    newline()
  }

  /// Writes `"name": ` (with a comma first when needed).
  mutating func key(_ name: String) {
    element()
    string(name)
    out.append(UInt8(ascii: ":"))
    if pretty { out.append(UInt8(ascii: " ")) }
  }

  mutating func raw(_ text: String) {
    out.append(contentsOf: text.utf8)
  }

  mutating func newline() {
    guard pretty else { return }
    out.append(UInt8(ascii: "\n"))
    for _ in 0..<(depth * 2) { out.append(UInt8(ascii: " ")) }
  }

  mutating func value(_ value: JSONValue) {
    switch value {
    case .null: raw("null")
    case .bool(let bool): raw(bool ? "true" : "false")
    case .number(let text):
      // Text built in code that is not a JSON number (`abc`, `007`, `NaN`) would make the
      // whole output unreadable: it is written as a string instead, so nothing is lost.
      if JSONValue.isJSONNumber(text) { raw(text) } else { string(text) }
    case .string(let string): self.string(string)
    case .array(let array):
      beginArray()
      for element in array {
        self.element()
        self.value(element)
      }
      endArray(empty: array.isEmpty)
    case .object(let object):
      beginObject()
      for member in object.members {
        key(member.key)
        self.value(member.value)
      }
      endObject(empty: object.isEmpty)
    }
  }

  mutating func string(_ string: String) {
    JSONString.appendQuoted(string, to: &out)
  }
}
