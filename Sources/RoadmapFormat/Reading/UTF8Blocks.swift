/// A UTF-8 validator that checks sixteen bytes at a time (`ByteBlock`), for strings of a block
/// or more; shorter ones go through `UTF8Automaton`.
///
/// It accepts exactly the well-formed UTF-8 of Unicode's table 3-7, as the automaton does, from
/// comparisons alone (no table): each byte is compared with the three before it.
/// - A byte must be a continuation (0x80–0xBF) exactly when one of the three before it starts a
///   sequence that reaches it: the byte before is 0xC0 or above, the one two before is 0xE0 or
///   above, or the one three before is 0xF0 or above. That finds missing, stray and cut-off
///   continuations.
/// - 0xC0, 0xC1 and 0xF5–0xFF are never valid.
/// - After 0xE0 the next byte must be 0xA0 or above (no overlong form), after 0xED below 0xA0
///   (no surrogate), after 0xF0 0x90 or above, after 0xF4 below 0x90 (nothing past U+10FFFF).
///
/// Whole blocks of ASCII at the start of a string are skipped with one test each. The last
/// block is the one that ends at the string's end (it may overlap the one before: a lane checked
/// twice gives the same answer), and a sequence cut off by the end is found by looking at the
/// last three bytes. Bytes before the string's first byte never count: in a block that starts
/// less than three bytes into the string, the lanes "before" that are outside it read as zero.
enum UTF8Blocks {
  /// Whether `base[start..<end]` is well-formed UTF-8.
  static func accepts(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Bool {
    let width = ByteBlock.width
    guard end - start >= width else {
      return UTF8Automaton.accepts(base, from: start, to: end)
    }
    var index = start
    while index + width <= end && !ByteBlock.hasNonASCII(ByteBlock.load(base, index)) {
      index += width
    }
    if index == end { return true }
    var errors = ByteBlock.Vector()
    if index < start + 3 {
      errors |= blockErrors(base, at: index, from: start)
      index += width
    }
    while index + width <= end {
      errors |= blockErrors(
        ByteBlock.load(base, index), ByteBlock.load(base, index - 1),
        ByteBlock.load(base, index - 2), ByteBlock.load(base, index - 3))
      index += width
    }
    if index < end {
      errors |= blockErrors(base, at: end - width, from: start)
    }
    // A sequence cut off by the end: a lead byte among the last three that needs more.
    let cut =
      base[end - 1] >= 0xC0 || base[end - 2] >= 0xE0 || base[end - 3] >= 0xF0
    return !cut && ByteBlock.isZero(errors)
  }

  /// The errors of the block at `index` (inside the string), reading the bytes before it that
  /// are before `start` as zero.
  @inline(__always)
  static func blockErrors(_ base: UnsafePointer<UInt8>, at index: Int, from start: Int)
    -> ByteBlock.Vector
  {
    let bytes = ByteBlock.load(base, index)
    guard index >= 3 else {
      // Too near the buffer's start to load the bytes before: build them lane by lane.
      var back = (ByteBlock.Vector(), ByteBlock.Vector(), ByteBlock.Vector())
      for lane in 0..<ByteBlock.width {
        if index + lane - 1 >= start { back.0[lane] = base[index + lane - 1] }
        if index + lane - 2 >= start { back.1[lane] = base[index + lane - 2] }
        if index + lane - 3 >= start { back.2[lane] = base[index + lane - 3] }
      }
      return blockErrors(bytes, back.0, back.1, back.2)
    }
    // Lane `l` of the block `k` bytes back is the string's when `index + l - k >= start`.
    let first = start - index
    return blockErrors(
      bytes, ByteBlock.load(base, index - 1) & ByteBlock.lanes(from: first + 1),
      ByteBlock.load(base, index - 2) & ByteBlock.lanes(from: first + 2),
      ByteBlock.load(base, index - 3) & ByteBlock.lanes(from: first + 3))
  }

  /// The lanes of `bytes` that break UTF-8 (not zero there), given the bytes one, two and three
  /// before each lane.
  @inline(__always)
  static func blockErrors(
    _ bytes: ByteBlock.Vector, _ back1: ByteBlock.Vector, _ back2: ByteBlock.Vector,
    _ back3: ByteBlock.Vector
  ) -> ByteBlock.Vector {
    let splat = ByteBlock.splat
    let continuation = (bytes & splat(0xC0)) .== splat(0x80)
    let expected = (back1 .>= splat(0xC0)) .| (back2 .>= splat(0xE0)) .| (back3 .>= splat(0xF0))
    let never = (bytes .>= splat(0xF5)) .| ((bytes & splat(0xFE)) .== splat(0xC0))
    let outOfRange =
      ((back1 .== splat(0xE0)) .& (bytes .< splat(0xA0)))
      .| ((back1 .== splat(0xED)) .& (bytes .> splat(0x9F)))
      .| ((back1 .== splat(0xF0)) .& (bytes .< splat(0x90)))
      .| ((back1 .== splat(0xF4)) .& (bytes .> splat(0x8F)))
    return ByteBlock.lanes((continuation .^ expected) .| never .| outOfRange)
  }
}
