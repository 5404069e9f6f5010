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

  /// The most languages read from one `Accept-Language` header.
  public static let maxLanguages = 8

  /// The reader's languages in an `Accept-Language` header, most preferred first: by `q`
  /// (default 1; `q=0` and `*` left out), ties in the header's order, at most
  /// ``maxLanguages``. A range that is not letters, digits, `-` and `_` (at most 35
  /// characters) is ignored.
  public static func languages(fromAcceptLanguage header: String?) -> [String] {
    guard let header else { return [] }
    var ranges: [(tag: String, q: Double, index: Int)] = []
    for (index, part) in header.split(separator: ",").enumerated() {
      let pieces = part.split(separator: ";")
      guard let first = pieces.first else { continue }
      let tag = first.trimmingSpaces()
      guard (1...35).contains(tag.utf8.count),
        tag.utf8.allSatisfy({ b in
          (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39)
            || b == 0x2D || b == 0x5F
        })
      else { continue }
      var q = 1.0
      for parameter in pieces.dropFirst() {
        let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingSpaces() }
        if pair.count == 2, pair[0].lowercased() == "q" { q = Double(pair[1]) ?? 0 }
      }
      guard q > 0, q <= 1 else { continue }
      ranges.append((tag, q, index))
    }
    ranges.sort { $0.q != $1.q ? $0.q > $1.q : $0.index < $1.index }
    return Array(ranges.prefix(maxLanguages).map(\.tag))
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
