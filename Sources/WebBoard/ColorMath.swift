import Foundation
import VoteFirstAPI

/// Colour arithmetic for the theme: compositing, mixing, WCAG 2 luminance and contrast.
public enum ColorMath {
  /// WCAG 2 relative luminance of an opaque colour, 0 (black) – 1 (white).
  public static func luminance(_ color: ThemeColor) -> Double {
    func channel(_ value: UInt8) -> Double {
      let c = Double(value) / 255
      return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
    }
    return 0.2126 * channel(color.red) + 0.7152 * channel(color.green) + 0.0722
      * channel(color.blue)
  }

  /// WCAG 2 contrast ratio of `foreground` drawn over `background`, 1 – 21. A translucent
  /// foreground is composited over the background first, a translucent background over white.
  public static func contrast(_ foreground: ThemeColor, on background: ThemeColor) -> Double {
    let base = over(background, ThemeColor(red: 255, green: 255, blue: 255))
    let top = over(foreground, base)
    let a = luminance(top)
    let b = luminance(base)
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)
  }

  /// `top` composited over the opaque `bottom` (sRGB, straight alpha).
  public static func over(_ top: ThemeColor, _ bottom: ThemeColor) -> ThemeColor {
    let a = Double(top.alpha) / 255
    func mix(_ t: UInt8, _ b: UInt8) -> UInt8 {
      UInt8((Double(t) * a + Double(b) * (1 - a)).rounded())
    }
    return ThemeColor(
      red: mix(top.red, bottom.red), green: mix(top.green, bottom.green),
      blue: mix(top.blue, bottom.blue))
  }

  /// `a` moved `fraction` (0–1) of the way towards `b`, opaque.
  public static func mix(_ a: ThemeColor, _ b: ThemeColor, _ fraction: Double) -> ThemeColor {
    func channel(_ x: UInt8, _ y: UInt8) -> UInt8 {
      UInt8((Double(x) + (Double(y) - Double(x)) * fraction).rounded())
    }
    return ThemeColor(
      red: channel(a.red, b.red), green: channel(a.green, b.green),
      blue: channel(a.blue, b.blue))
  }

  /// `color`, moved towards white (`dark`) or black (`light`) in steps of 5 % just until it
  /// reaches `ratio` on `background`; unchanged when it already does.
  public static func readable(
    _ color: ThemeColor, on background: ThemeColor, mode: ColorMode, ratio: Double = 4.5
  ) -> ThemeColor {
    let opaque = over(color, background)
    guard contrast(opaque, on: background) < ratio else { return color }
    let target =
      mode == .dark
      ? ThemeColor(red: 255, green: 255, blue: 255) : ThemeColor(red: 0, green: 0, blue: 0)
    for step in 1...20 {
      let candidate = mix(opaque, target, Double(step) / 20)
      if contrast(candidate, on: background) >= ratio { return candidate }
    }
    return target
  }

  /// `color`, moved towards white (`dark`) or black (`light`) in steps of 5 % just until it
  /// reaches `ratio` on every one of `backgrounds` (a colour drawn on more than one surface);
  /// unchanged when it already does. The first background is the one a translucent `color` is
  /// composited over.
  public static func readable(
    _ color: ThemeColor, on backgrounds: [ThemeColor], mode: ColorMode, ratio: Double = 4.5
  ) -> ThemeColor {
    guard let first = backgrounds.first else { return color }
    func reads(_ candidate: ThemeColor) -> Bool {
      backgrounds.allSatisfy { contrast(candidate, on: $0) >= ratio }
    }
    let opaque = over(color, first)
    guard !reads(opaque) else { return color }
    let target =
      mode == .dark
      ? ThemeColor(red: 255, green: 255, blue: 255) : ThemeColor(red: 0, green: 0, blue: 0)
    for step in 1...20 {
      let candidate = mix(opaque, target, Double(step) / 20)
      if reads(candidate) { return candidate }
    }
    return target
  }

  /// White or near-black, whichever reads better on `color`.
  public static func readableText(on color: ThemeColor) -> ThemeColor {
    let white = ThemeColor(red: 255, green: 255, blue: 255)
    let black = ThemeColor(red: 0x0B, green: 0x0E, blue: 0x12)
    return contrast(white, on: color) >= contrast(black, on: color) ? white : black
  }
}
