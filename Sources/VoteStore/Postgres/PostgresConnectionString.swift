import Foundation

/// Checks of the connection string given to the PostgreSQL stores, before libpq sees it.
///
/// libpq takes a `postgresql://` (or `postgres://`) URI, a `key=value` string, and anything
/// else as a bare database name on the server its environment (`PGHOST`, …) points to: an
/// `http://user:password@host/db` pasted by mistake would connect somewhere else entirely, and
/// its error would print the whole string, password included. So only the first two forms are
/// accepted, and no message about a connection string ever repeats the string or its password.
public enum PostgresConnectionString {
  /// Why `text` cannot be a connection string, in a sentence that repeats none of it (at
  /// most a URL's scheme); nil when it is a `postgresql://` or `postgres://` URI or a libpq
  /// `key=value` string.
  public static func problem(_ text: String) -> String? {
    if text.allSatisfy({ $0.isWhitespace }) { return "the PostgreSQL connection string is empty" }
    if isURI(text) || isKeyValue(text) { return nil }
    if let separator = text.range(of: "://") {
      let scheme = text[..<separator.lowerBound]
      if !scheme.isEmpty, scheme.count <= 32,
        scheme.unicodeScalars.allSatisfy({
          CharacterSet.alphanumerics.contains($0) || "+-.".unicodeScalars.contains($0)
        })
      {
        return "the PostgreSQL connection string is a URL with the scheme '\(scheme)', not "
          + "postgresql:// or postgres://"
      }
    }
    return "the PostgreSQL connection string is neither a postgresql:// URL nor a key=value "
      + "string (libpq would take a bare word for a database name on whichever server its "
      + "environment names)"
  }

  /// Whether `text` starts with one of libpq's URI prefixes.
  static func isURI(_ text: String) -> Bool {
    text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
  }

  /// Whether `text` parses as libpq's `key = value …` form: one or more keywords (letters,
  /// digits, `_`), each followed by `=` and a value, bare or in single quotes with
  /// backslash escapes.
  static func isKeyValue(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    var index = 0
    var pairs = 0
    func skipSpaces() {
      while index < bytes.count, bytes[index] == 0x20 || (0x09...0x0D).contains(bytes[index]) {
        index += 1
      }
    }
    func isKeyByte(_ byte: UInt8) -> Bool {
      (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
        || (0x61...0x7A).contains(byte) || byte == 0x5F
    }
    while true {
      skipSpaces()
      if index == bytes.count { return pairs > 0 }
      let keyStart = index
      while index < bytes.count, isKeyByte(bytes[index]) { index += 1 }
      if index == keyStart { return false }
      skipSpaces()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return false }
      index += 1
      skipSpaces()
      if index < bytes.count, bytes[index] == UInt8(ascii: "'") {
        index += 1
        var closed = false
        while index < bytes.count {
          if bytes[index] == UInt8(ascii: "\\") {
            index += 2
            continue
          }
          if bytes[index] == UInt8(ascii: "'") {
            closed = true
            index += 1
            break
          }
          index += 1
        }
        if !closed { return false }
      } else {
        while index < bytes.count, !(bytes[index] == 0x20 || (0x09...0x0D).contains(bytes[index])) {
          if bytes[index] == UInt8(ascii: "\\") { index += 1 }
          index += 1
        }
      }
      pairs += 1
    }
  }

  /// The password `text` carries, in every spelling a message could show it in (as written,
  /// and percent-decoded for a URI); empty when it has none.
  static func passwords(in text: String) -> [String] {
    var found: [String] = []
    if isURI(text) {
      let rest = text[text.range(of: "://")!.upperBound...]
      let authority = rest.prefix { $0 != "/" && $0 != "?" }
      if let at = authority.lastIndex(of: "@") {
        let userInfo = authority[..<at]
        if let colon = userInfo.firstIndex(of: ":") {
          found.append(String(userInfo[userInfo.index(after: colon)...]))
        }
      }
      if let query = rest.firstIndex(of: "?") {
        for pair in rest[rest.index(after: query)...].split(separator: "&")
        where pair.hasPrefix("password=") {
          found.append(String(pair.dropFirst("password=".count)))
        }
      }
      found += found.compactMap { $0.removingPercentEncoding }
    } else if let range = text.range(of: #"password\s*=\s*"#, options: .regularExpression) {
      let value = text[range.upperBound...]
      if value.first == "'" {
        found.append(String(value.dropFirst().prefix { $0 != "'" }))
      } else {
        found.append(String(value.prefix { !$0.isWhitespace }))
      }
    }
    return found.filter { !$0.isEmpty }
  }

  /// `message` with every spelling of the password in `connectionString` replaced by
  /// `[redacted]`, and the connection string itself too, should libpq have quoted it whole.
  static func redacting(_ message: String, of connectionString: String) -> String {
    var message = message
    if !connectionString.isEmpty {
      message = message.replacingOccurrences(of: connectionString, with: "[connection string]")
    }
    for password in passwords(in: connectionString).sorted(by: { $0.count > $1.count }) {
      message = message.replacingOccurrences(of: password, with: "[redacted]")
    }
    return message
  }
}
