/// The syntax rules for the names and tokens the service accepts.
enum NameRules {
  /// The longest voter id accepted.
  static let maxVoterLength = 128

  /// Whether `name` matches countapi's `^[A-Za-z0-9_\-.]{3,64}$` and is not only dots
  /// (`...` would read as a path step in URLs, file names and logs).
  static func isValidName(_ name: String) -> Bool {
    matchesNamePattern(name) && !isOnlyDots(name)
  }

  /// Whether `name` matches `^[A-Za-z0-9_\-.]{3,64}$` (dots-only names included).
  static func matchesNamePattern(_ name: String) -> Bool {
    let bytes = name.utf8
    guard (3...64).contains(bytes.count) else { return false }
    return bytes.allSatisfy { isAlphanumeric($0) || $0 == 0x5F || $0 == 0x2D || $0 == 0x2E }
  }

  /// Whether `name` is made of dots only (`.`, `..`, `...`).
  static func isOnlyDots(_ name: String) -> Bool {
    !name.isEmpty && name.utf8.allSatisfy { $0 == 0x2E }
  }

  /// Why `name` is refused (the 400 message: ``nameRule``, or ``dotsRule`` for a name that
  /// matches the pattern but is only dots), or nil when it is valid.
  ///
  /// One pass over the bytes in place, stopping at the first that breaks the pattern: this
  /// runs for every keyed request, on the I/O thread.
  static func problem(_ name: String) -> String? {
    if let problem = name.utf8.withContiguousStorageIfAvailable(problem(of:)) { return problem }
    var name = name  // not contiguous (bridged): made so, then read
    return name.withUTF8(problem(of:))
  }

  /// ``problem(_:)`` of a name's UTF-8 bytes.
  private static func problem(of bytes: UnsafeBufferPointer<UInt8>) -> String? {
    guard bytes.count >= 3 && bytes.count <= 64 else { return nameRule }
    var onlyDots = true
    for byte in bytes {
      guard isNameByte(byte) else { return nameRule }
      if byte != 0x2E { onlyDots = false }
    }
    return onlyDots ? dotsRule : nil
  }

  /// Why the namespace and key are refused: the first one's problem, else the second's;
  /// nil when both are valid.
  static func problem(_ namespace: String, _ key: String) -> String? {
    problem(namespace) ?? problem(key)
  }

  /// Whether `target`'s path has an empty segment between two others (`/hit//feature1`,
  /// `/get/ns1//feature1`): a namespace or key the client left empty. The router reads runs of
  /// slashes as one, so without this check `/hit//feature1` (a client's empty namespace) would
  /// count on `default/feature1`, another app's counter. Slashes at either end (`//get/…` from
  /// a base URL joined with a path, or a trailing one) leave no name out and pass.
  static func hasEmptyInnerSegment(_ target: String) -> Bool {
    var path = target.utf8.prefix { $0 != UInt8(ascii: "?") }[...]
    while path.first == UInt8(ascii: "/") { path = path.dropFirst() }
    while path.last == UInt8(ascii: "/") { path = path.dropLast() }
    var previousWasSlash = false
    for byte in path {
      let isSlash = byte == UInt8(ascii: "/")
      if isSlash && previousWasSlash { return true }
      previousWasSlash = isSlash
    }
    return false
  }

  /// The message for a path with an empty segment between others.
  static let emptySegmentRule =
    "a namespace or key is empty: the path has an empty segment (//)"

  /// The message for names that break the countapi pattern.
  static let nameRule = "namespace and key must match ^[A-Za-z0-9_\\-.]{3,64}$"
  /// The message for names made of dots only.
  static let dotsRule = "namespace and key must not be made of dots only"

  /// Whether `voter` is 1 to 128 characters of `A-Z a-z 0-9 _ - . : @ + = /`.
  static func isValidVoter(_ voter: String) -> Bool {
    let bytes = voter.utf8
    guard (1...maxVoterLength).contains(bytes.count) else { return false }
    return bytes.allSatisfy {
      isAlphanumeric($0) || "_-.:@+=/".utf8.contains($0)
    }
  }

  /// Whether `callback` is a safe JSONP function name: an identifier or a dotted path of
  /// identifiers (`cb`, `jQuery123_456`, `app.votes.done`), at most 64 characters.
  static func isValidCallback(_ callback: String) -> Bool {
    let bytes = Array(callback.utf8)
    guard (1...64).contains(bytes.count) else { return false }
    var atStart = true
    for b in bytes {
      if b == 0x2E {
        if atStart { return false }
        atStart = true
        continue
      }
      let isLetter = isAlpha(b) || b == 0x5F || b == 0x24
      if atStart && !isLetter { return false }
      if !isLetter && !isDigit(b) { return false }
      atStart = false
    }
    return !atStart
  }

  /// Whether `byte` may be in a name (`A-Z a-z 0-9 _ - .`): one shift and mask, against the
  /// set's bits (bytes 0–63 in the first word, 64–127 in the second).
  static func isNameByte(_ byte: UInt8) -> Bool {
    // `-` (45), `.` (46), `0`–`9` (48–57); `A`–`Z` (65–90), `_` (95), `a`–`z` (97–122).
    let low: UInt64 = 0x03FF_6000_0000_0000
    let high: UInt64 = 0x07FF_FFFE_87FF_FFFE
    switch byte {
    case 0..<64: return low >> UInt64(byte) & 1 == 1
    case 64..<128: return high >> UInt64(byte - 64) & 1 == 1
    default: return false
    }
  }

  private static func isAlpha(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
  private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
  private static func isAlphanumeric(_ b: UInt8) -> Bool { isAlpha(b) || isDigit(b) }
}
