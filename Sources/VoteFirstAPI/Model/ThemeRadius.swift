/// A corner radius written the CSS way, in pixels: `"8px"`, `"0px"`, `"12.5px"`.
public struct ThemeRadius: Sendable, Hashable, CustomStringConvertible {
  /// The radius in pixels (points on Apple platforms), never negative.
  public var pixels: Double

  /// Creates a radius; nil when `pixels` is negative or not finite.
  public init?(pixels: Double) {
    guard pixels.isFinite, pixels >= 0 else { return nil }
    self.pixels = pixels
  }

  /// Reads a non-negative decimal number followed by `px` (`8px`, `8.5px`); nil otherwise
  /// (`8`, `8 px`, `-1px`, `1em`, `px`).
  public init?(css text: String) {
    guard text.hasSuffix("px") else { return nil }
    let number = text.dropLast(2)
    guard !number.isEmpty, number.first != ".", number.last != ".",
      number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
      number.filter({ $0 == "." }).count <= 1,
      let value = Double(number)
    else { return nil }
    self.init(pixels: value)
  }

  /// `"8px"`, or `"8.5px"` with a fraction.
  public var css: String {
    if pixels == pixels.rounded(), pixels < 1e15 { return "\(Int64(pixels))px" }
    return "\(pixels)px"
  }

  /// The CSS form, ``css``.
  public var description: String { css }
}
