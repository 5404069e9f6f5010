/// A piece of HTML that is safe to put into a page: literal markup written in this module, and
/// every interpolated value escaped.
///
/// Interpolating a `String` (or any `CustomStringConvertible`) escapes it with
/// ``HTML/escape(_:)``, so it reads as typed in element content and in quoted attribute values
/// alike; interpolating another `HTML` inserts it as it is. Only string literals written in
/// this module's source become markup unescaped.
///
///     let title = "<script>alert(1)</script>"
///     let item: HTML = "<li title=\"\(title)\">\(title)</li>"
public struct HTML: Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
  /// The markup text.
  public private(set) var text: String

  /// Markup that is already safe (a literal of this module, or the output of the escaper).
  init(trusted text: String) { self.text = text }

  /// Markup from a string literal of this module.
  public init(stringLiteral value: String) { self.text = value }

  /// Markup built from a literal with interpolated values.
  public init(stringInterpolation: Interpolation) { self.text = stringInterpolation.text }

  /// Empty markup.
  public static let empty = HTML(trusted: "")

  /// The markup text.
  public var description: String { text }

  /// Appends `other`.
  public static func + (lhs: HTML, rhs: HTML) -> HTML { HTML(trusted: lhs.text + rhs.text) }

  /// Appends `other` in place.
  public static func += (lhs: inout HTML, rhs: HTML) { lhs.text += rhs.text }

  /// `parts` one after another.
  public static func join<S: Sequence>(_ parts: S, separator: HTML = .empty) -> HTML
  where S.Element == HTML {
    HTML(trusted: parts.map(\.text).joined(separator: separator.text))
  }

  /// `text` escaped for element content and for single- or double-quoted attribute values:
  /// `&`, `<`, `>`, `"` and `'` become character references, and the characters HTML never
  /// allows (NUL, other C0 controls but tab, line feed, carriage return and form feed, DEL,
  /// C1 controls and noncharacters) become U+FFFD.
  public static func escape(_ text: String) -> String {
    var out = ""
    out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default:
        if isForbidden(scalar) {
          out.unicodeScalars.append("\u{FFFD}")
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }

  private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    switch v {
    case 0x09, 0x0A, 0x0C, 0x0D: return false
    case 0x00...0x1F, 0x7F...0x9F: return true
    case 0xFDD0...0xFDEF: return true
    default: return v & 0xFFFE == 0xFFFE
    }
  }

  /// Builds ``HTML`` from a literal: literal segments as markup, values escaped.
  public struct Interpolation: StringInterpolationProtocol, Sendable {
    var text = ""

    /// Reserves room for the literal.
    public init(literalCapacity: Int, interpolationCount: Int) {
      text.reserveCapacity(literalCapacity + interpolationCount * 16)
    }

    /// A literal segment of this module's source: markup.
    public mutating func appendLiteral(_ literal: String) { text += literal }

    /// Markup, inserted as it is.
    public mutating func appendInterpolation(_ html: HTML) { text += html.text }

    /// A value, escaped.
    public mutating func appendInterpolation(_ value: String) { text += HTML.escape(value) }

    /// A number.
    public mutating func appendInterpolation(_ value: Int) { text += String(value) }

    /// A value described by `description`, escaped.
    public mutating func appendInterpolation<T: CustomStringConvertible>(_ value: T) {
      text += HTML.escape(value.description)
    }
  }
}
