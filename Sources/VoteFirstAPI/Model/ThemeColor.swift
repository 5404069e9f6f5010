/// A colour written the CSS way: `#RGB`, `#RRGGBB` or `#RRGGBBAA`.
///
/// Reading is strict: anything else (a name such as `red`, `rgb(…)`, a missing `#`, a wrong
/// number of digits) is not a colour, and the theme that held it treats it as absent.
public struct ThemeColor: Sendable, Hashable, CustomStringConvertible {
  /// Red, 0–255.
  public var red: UInt8
  /// Green, 0–255.
  public var green: UInt8
  /// Blue, 0–255.
  public var blue: UInt8
  /// Opacity, 0 (transparent) – 255 (opaque).
  public var alpha: UInt8

  /// Creates a colour from its components.
  public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// Reads `#RGB`, `#RRGGBB` or `#RRGGBBAA` (hex digits in either case); nil for anything else.
  public init?(css text: String) {
    let bytes = Array(text.utf8)
    guard bytes.first == UInt8(ascii: "#") else { return nil }
    var digits: [UInt8] = []
    for byte in bytes.dropFirst() {
      guard let digit = ThemeColor.hexDigit(byte) else { return nil }
      digits.append(digit)
    }
    switch digits.count {
    case 3:
      self.init(
        red: digits[0] * 17, green: digits[1] * 17, blue: digits[2] * 17, alpha: 255)
    case 6, 8:
      let pairs = stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
      self.init(
        red: pairs[0], green: pairs[1], blue: pairs[2], alpha: pairs.count == 4 ? pairs[3] : 255)
    default:
      return nil
    }
  }

  /// `#RRGGBB` when opaque, else `#RRGGBBAA`, upper-case.
  public var css: String {
    var parts = [red, green, blue]
    if alpha != 255 { parts.append(alpha) }
    return "#" + parts.map(ThemeColor.hex).joined()
  }

  /// The CSS form, ``css``.
  public var description: String { css }

  private static func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }

  private static func hex(_ value: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(value >> 4)], digits[Int(value & 15)]])
  }
}
