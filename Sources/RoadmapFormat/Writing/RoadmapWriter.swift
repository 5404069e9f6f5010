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
///
/// Unknown keys read from a document are written as they were read, as long as their values
/// are unchanged: every string, number and literal in them byte for byte (escapes such as
/// `\u00e9` stay escapes, `1.50` stays `1.50`, a repeated key inside stays), in the writer's
/// layout. A value that is not valid JSON (the app skips it and loads the file: a lone
/// surrogate `\ud800`, bytes that are not UTF-8, a raw tab, a number such as `01`) is written
/// exactly as it was, layout included, rather than repaired into other data. So reading a file
/// and writing it loses nothing of what the app does not read. A trailing comma inside such a
/// value (`[1, 2,]`) holds no data and is left out, as everywhere else in the output: apps
/// before iOS 17 and most JSON readers reject a file for one.
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
          writer.member(member, source: item.extra.source(of: member))
        }
        writer.endObject(empty: false)
      }
      writer.endArray(empty: items.isEmpty)
    }
    for member in feature.extra.members where !FeatureKey.isKnown(member.key) {
      writer.member(member, source: feature.extra.source(of: member))
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

  /// Writes a member: from its source text when it has one (``MemberSource``), else its value.
  mutating func member(_ member: (key: String, value: JSONValue), source: MemberSource?) {
    guard let source else {
      key(member.key)
      value(member.value)
      return
    }
    if let text = source.key {
      element()
      out.append(contentsOf: text)
      out.append(UInt8(ascii: ":"))
      if pretty { out.append(UInt8(ascii: " ")) }
    } else {
      key(member.key)
    }
    if source.verbatim {
      verbatim(source.text)
    } else {
      relayout(source.text)
    }
  }

  /// Whether the comma at `index` of `text` is a trailing one: white space, then `]` or `}`.
  static func isTrailingComma(_ text: [UInt8], at index: Int) -> Bool {
    var next = index + 1
    while next < text.count && [0x20, 0x09, 0x0A, 0x0D].contains(text[next]) { next += 1 }
    return next < text.count && (text[next] == UInt8(ascii: "]") || text[next] == UInt8(ascii: "}"))
  }

  /// Writes the text of a value that is not valid JSON exactly as it is, but for its trailing
  /// commas (`[1, 2,]`): they hold no data, and readers other than recent Foundation reject
  /// the whole file for one, so the writer never writes them.
  mutating func verbatim(_ text: [UInt8]) {
    var index = 0
    var inString = false
    while index < text.count {
      let byte = text[index]
      if inString {
        if byte == UInt8(ascii: "\\") && index + 1 < text.count {
          out.append(contentsOf: text[index...(index + 1)])
          index += 2
          continue
        }
        if byte == UInt8(ascii: "\"") { inString = false }
      } else if byte == UInt8(ascii: "\"") {
        inString = true
      } else if byte == UInt8(ascii: ","), Self.isTrailingComma(text, at: index) {
        index += 1
        continue
      }
      out.append(byte)
      index += 1
    }
  }

  /// Writes the text of a valid JSON value in this writer's layout: whitespace between tokens
  /// is the writer's, every string, number and literal is copied byte for byte.
  mutating func relayout(_ text: [UInt8]) {
    var index = 0
    while index < text.count {
      let byte = text[index]
      switch byte {
      case 0x20, 0x09, 0x0A, 0x0D:
        index += 1
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        let closer = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
        var next = index + 1
        while next < text.count && [0x20, 0x09, 0x0A, 0x0D].contains(text[next]) { next += 1 }
        if next < text.count && text[next] == closer {
          out.append(byte)
          out.append(closer)
          index = next + 1
        } else {
          out.append(byte)
          depth += 1
          newline()
          index += 1
        }
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        newline()
        out.append(byte)
        index += 1
      case UInt8(ascii: ","):
        // A trailing comma holds no data, and most readers reject it: not written.
        if !Self.isTrailingComma(text, at: index) {
          out.append(byte)
          newline()
        }
        index += 1
      case UInt8(ascii: ":"):
        out.append(byte)
        if pretty { out.append(UInt8(ascii: " ")) }
        index += 1
      case UInt8(ascii: "\""):
        // To the closing quote: a backslash takes the byte after it.
        var end = index + 1
        while end < text.count && text[end] != UInt8(ascii: "\"") {
          end += text[end] == UInt8(ascii: "\\") ? 2 : 1
        }
        end = min(end + 1, text.count)
        out.append(contentsOf: text[index..<end])
        index = end
      default:
        // A number or a literal: up to the next whitespace or structural byte.
        var end = index + 1
        while end < text.count
          && ![0x20, 0x09, 0x0A, 0x0D, 0x2C, 0x3A, 0x5B, 0x5D, 0x7B, 0x7D, 0x22].contains(text[end])
        {
          end += 1
        }
        out.append(contentsOf: text[index..<end])
        index = end
      }
    }
  }
}
