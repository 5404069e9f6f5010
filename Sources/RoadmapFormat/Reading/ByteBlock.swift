/// Sixteen bytes of a document looked at all at once, with the standard library's SIMD types:
/// one SSE2 register on x86-64 and one NEON register on arm64, no intrinsics.
///
/// Only vector-to-vector operations are used (a comparison against `splat(_:)`, never against a
/// bare scalar): for a concrete vector type those compile to single instructions, while the
/// forms that take a scalar go through the standard library's generic lane-by-lane loop. A lane
/// of a comparison's result is turned into 0xFF or 0x00 (`lanes(_:)`) and read back as two words,
/// so the first hit is found with one count of trailing zeros.
enum ByteBlock {
  typealias Vector = SIMD16<UInt8>
  typealias Mask = SIMDMask<SIMD16<Int8>>

  /// The number of bytes in a block.
  static let width = 16

  /// The sixteen bytes at `base + index` (the caller keeps them inside the buffer).
  @inline(__always)
  static func load(_ base: UnsafePointer<UInt8>, _ index: Int) -> Vector {
    UnsafeRawPointer(base + index).loadUnaligned(as: Vector.self)
  }

  /// `byte` in every lane.
  @inline(__always)
  static func splat(_ byte: UInt8) -> Vector {
    Vector(repeating: byte)
  }

  /// 0xFF in each lane where `mask` is set, 0x00 elsewhere.
  @inline(__always)
  static func lanes(_ mask: Mask) -> Vector {
    Vector(repeating: 0).replacing(with: 0xFF, where: mask)
  }

  /// The lanes as two little-endian words: lane 0 is the low byte of the first.
  @inline(__always)
  static func words(_ vector: Vector) -> (UInt64, UInt64) {
    let words = unsafeBitCast(vector, to: (UInt64, UInt64).self)
    return (UInt64(littleEndian: words.0), UInt64(littleEndian: words.1))
  }

  /// Whether every lane is zero.
  @inline(__always)
  static func isZero(_ vector: Vector) -> Bool {
    let (low, high) = words(vector)
    return low | high == 0
  }

  /// The index of the first lane that is not zero, or `width` when all are.
  @inline(__always)
  static func firstNonZeroLane(_ vector: Vector) -> Int {
    let (low, high) = words(vector)
    if low != 0 { return low.trailingZeroBitCount >> 3 }
    return 8 + (high.trailingZeroBitCount >> 3)
  }

  /// 0xFF in the lanes below `lane` (0...16), 0x00 from it on.
  @inline(__always)
  static func lanes(below lane: Int) -> Vector {
    let index = Vector(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
    return lanes(index .< splat(UInt8(truncatingIfNeeded: lane)))
  }

  /// 0xFF in the lanes from `lane` on, 0x00 below it (every lane when `lane` is negative, none
  /// from `width` on).
  @inline(__always)
  static func lanes(from lane: Int) -> Vector {
    let index = Vector(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
    return lanes(index .>= splat(UInt8(clamping: lane)))
  }

  /// The lanes that end a string's plain run: `"`, `\` or a control byte below 0x20.
  @inline(__always)
  static func stringStops(_ vector: Vector) -> Vector {
    lanes((vector .== splat(0x22)) .| (vector .== splat(0x5C)) .| (vector .< splat(0x20)))
  }

  /// Whether any lane has its high bit set (a byte that is not ASCII).
  @inline(__always)
  static func hasNonASCII(_ vector: Vector) -> Bool {
    !isZero(vector & splat(0x80))
  }
}
