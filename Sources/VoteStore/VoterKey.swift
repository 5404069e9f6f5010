import CCrypto
import Foundation

/// The per-store secret that voter ids are hashed with: HMAC-SHA-256 through the system's
/// libcrypto (OpenSSL), never hand-written cryptography.
///
/// A store keeps only `hash(voter)` (64 lowercase hex digits), at rest and in exports, so a
/// copied database or export does not hand out voter ids (often e-mail addresses); without
/// the 256-bit key the hashes cannot be tested against guessed ids either.
struct VoterKey: Sendable, Equatable {
  /// The 32 secret bytes.
  let bytes: [UInt8]

  /// How many bytes a key has.
  static let length = 32

  /// A new random key (Swift's system generator: `getrandom` on Linux,
  /// `SecRandomCopyBytes`-grade on Apple platforms).
  static func random() -> VoterKey {
    var generator = SystemRandomNumberGenerator()
    return VoterKey(
      bytes: (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
  }

  private init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// A key from its 64 hex digits, or nil.
  init?(hex: String) {
    guard let bytes = Self.bytes(fromHex: hex), bytes.count == Self.length else { return nil }
    self.bytes = bytes
  }

  /// The key as 64 lowercase hex digits.
  var hex: String { Self.hex(bytes) }

  /// The stored form of a voter id: HMAC-SHA-256(key, id) as 64 lowercase hex digits.
  func hash(_ voter: String) -> String { Self.hex(mac(Array(voter.utf8))) }

  /// Names the key without revealing it: the first 8 bytes of HMAC(key, a fixed label), as
  /// 16 hex digits. Exports carry it, so an import can tell whether its hashes fit a store.
  var fingerprint: String {
    Self.hex(Array(mac(Array("roadmapbridge voter key fingerprint".utf8)).prefix(8)))
  }

  /// Whether `text` has the form of a stored voter hash (64 lowercase hex digits).
  static func isHash(_ text: String) -> Bool {
    let bytes = text.utf8
    return bytes.count == 64
      && bytes.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
  }

  private func mac(_ message: [UInt8]) -> [UInt8] {
    var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
    var length: UInt32 = 0
    let done = bytes.withUnsafeBufferPointer { key in
      message.withUnsafeBufferPointer { data in
        output.withUnsafeMutableBufferPointer { out in
          HMAC(
            EVP_sha256(), key.baseAddress, Int32(key.count), data.baseAddress, data.count,
            out.baseAddress, &length)
        }
      }
    }
    // HMAC only fails when libcrypto cannot allocate; a store must not go on unhashed.
    precondition(done != nil && length == 32, "libcrypto HMAC-SHA-256 failed")
    return Array(output.prefix(Int(length)))
  }

  private static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  private static func bytes(fromHex hex: String) -> [UInt8]? {
    let digits = Array(hex.utf8)
    guard digits.count.isMultiple(of: 2) else { return nil }
    func value(_ digit: UInt8) -> UInt8? {
      switch digit {
      case 0x30...0x39: return digit - 0x30
      case 0x61...0x66: return digit - 0x61 + 10
      case 0x41...0x46: return digit - 0x41 + 10
      default: return nil
      }
    }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(digits.count / 2)
    var index = 0
    while index < digits.count {
      guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
      bytes.append(high << 4 | low)
      index += 2
    }
    return bytes
  }
}

extension VoterKey {
  /// The fingerprint as the 64-bit integer a SQLite `meta` row holds.
  var fingerprintNumber: Int64 { Int64(bitPattern: UInt64(fingerprint, radix: 16) ?? 0) }

  /// A fingerprint from its ``fingerprintNumber`` form.
  static func fingerprint(fromNumber number: Int64) -> String {
    let digits = String(UInt64(bitPattern: number), radix: 16)
    return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
  }
}
