/// The headers every web board answer carries, and the cookie that names the voter.
public enum WebBoardHeaders {
  /// No inline script or style, nothing from another host, no framing, forms post home.
  public static let contentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    + "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; "
    + "object-src 'none'"

  /// The security headers of every answer.
  public static let security: [(name: String, value: String)] = [
    ("Content-Security-Policy", contentSecurityPolicy),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
    ("X-Frame-Options", "DENY"),
  ]

  /// The cookie the script copies the browser's voter id into, so the server draws this
  /// browser's votes pressed.
  public static let voterCookie = "rb_voter"

  /// The voter id in a `Cookie` header, when it is one the API accepts (1–128 characters of
  /// `A-Z a-z 0-9 _ - . : @ + = /`).
  public static func voter(fromCookie header: String?) -> String? {
    guard let header else { return nil }
    for part in header.split(separator: ";") {
      let pair = part.split(separator: "=", maxSplits: 1)
      guard pair.count == 2, pair[0].trimmingSpaces() == voterCookie else { continue }
      let value = pair[1].trimmingSpaces()
      if isValidVoter(value) { return value }
    }
    return nil
  }

  /// Whether `voter` is 1–128 characters of `A-Z a-z 0-9 _ - . : @ + = /`.
  public static func isValidVoter(_ voter: String) -> Bool {
    let bytes = Array(voter.utf8)
    guard (1...128).contains(bytes.count) else { return false }
    return bytes.allSatisfy { b in
      (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
        || "_-.:@+=/".utf8.contains(b)
    }
  }
}
