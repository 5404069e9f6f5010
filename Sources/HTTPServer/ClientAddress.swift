import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Client addresses as per-client limits count them.
///
/// One IPv6 subscriber usually gets a whole /64 (a home line, a cloud machine), so it can
/// send from 2^64 addresses: a limit counted per IPv6 address would be no limit at all. Both
/// the server's per-address connection limit and the counter service's rate limits count an
/// IPv6 client per /64 network, through ``limitKey(_:)``.
public enum ClientAddress {
  /// The unit a per-client limit counts `address` in: an IPv4 address as it is (also when
  /// IPv4-mapped, `::ffff:10.0.0.1` counts as `10.0.0.1`), an IPv6 address as its /64
  /// network (`20010db800000000::/64`); anything that is not a numeric address, as it is.
  public static func limitKey(_ address: String) -> String {
    var address = address
    if address.hasPrefix("::ffff:"), address.contains(".") { address.removeFirst(7) }
    guard address.contains(":") else { return address }
    var bytes = in6_addr()
    guard inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
    return withUnsafeBytes(of: &bytes) { raw in
      raw.prefix(8).map { byte in
        let hex = String(byte, radix: 16)
        return byte < 16 ? "0" + hex : hex
      }.joined() + "::/64"
    }
  }

  /// `text` as a numeric address in its usual form (`192.0.2.7`, `2001:db8::1`), or nil when
  /// it is not one.
  ///
  /// Accepts what proxies write in `X-Forwarded-For`: an IPv4 address, optionally with
  /// `:PORT`; an IPv6 address, bare or in brackets, optionally `[…]:PORT`; surrounding spaces.
  /// Anything else (a name, `unknown`, text with spaces inside, an obfuscated RFC 7239
  /// identifier) is nil, so a header value never stands for an address unread.
  public static func numeric(_ text: some StringProtocol) -> String? {
    var value = Substring(text).trimmingCharacters(in: .whitespaces)[...]
    guard !value.isEmpty, value.utf8.count <= 64 else { return nil }
    if value.hasPrefix("[") {
      guard let close = value.firstIndex(of: "]") else { return nil }
      let rest = value[value.index(after: close)...]
      guard rest.isEmpty || isPort(rest) else { return nil }
      value = value[value.index(after: value.startIndex)..<close]
      return ipv6(String(value))
    }
    if let v6 = ipv6(String(value)) { return v6 }
    if let colon = value.firstIndex(of: ":") {
      guard isPort(value[colon...]) else { return nil }
      value = value[..<colon]
    }
    var bytes = in_addr()
    guard inet_pton(AF_INET, String(value), &bytes) == 1 else { return nil }
    return withUnsafeBytes(of: &bytes) { format(AF_INET, $0, length: Int(INET_ADDRSTRLEN)) }
  }

  /// Whether `text` is `:` and one to five digits.
  private static func isPort(_ text: Substring) -> Bool {
    let digits = text.dropFirst()
    return text.first == ":" && (1...5).contains(digits.count)
      && digits.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }

  /// `text` as an IPv6 address in `inet_ntop`'s form, or nil.
  private static func ipv6(_ text: String) -> String? {
    var bytes = in6_addr()
    guard inet_pton(AF_INET6, text, &bytes) == 1 else { return nil }
    return withUnsafeBytes(of: &bytes) { format(AF_INET6, $0, length: Int(INET6_ADDRSTRLEN)) }
  }

  /// The address at `bytes` of `family` as `inet_ntop` writes it.
  private static func format(
    _ family: Int32, _ bytes: UnsafeRawBufferPointer, length: Int
  ) -> String? {
    var buffer = [CChar](repeating: 0, count: length)
    guard inet_ntop(family, bytes.baseAddress, &buffer, socklen_t(length)) != nil else {
      return nil
    }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
