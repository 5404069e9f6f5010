/// A UTF-8 validator as a shift automaton: the row of a byte holds, for every state, the next
/// state, so a byte costs one table load and one shift with no branch on the text.
///
/// States are bit offsets into a row (six bits each). It accepts exactly the well-formed UTF-8
/// of Unicode's table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF, and no
/// sequence cut short at the end.
enum UTF8Automaton {
  static let accept: UInt64 = 0
  static let reject: UInt64 = 6
  /// Needs one, two or three more continuation bytes (0x80–0xBF).
  static let one: UInt64 = 12
  static let two: UInt64 = 18
  static let three: UInt64 = 24
  /// After E0 (next 0xA0–0xBF), ED (0x80–0x9F), F0 (0x90–0xBF), F4 (0x80–0x8F).
  static let afterE0: UInt64 = 30
  static let afterED: UInt64 = 36
  static let afterF0: UInt64 = 42
  static let afterF4: UInt64 = 48

  static let rows: [UInt64] = (0..<256).map { value in
    let byte = UInt8(value)
    var row: UInt64 = 0
    let states = [accept, reject, one, two, three, afterE0, afterED, afterF0, afterF4]
    func set(_ state: UInt64, _ next: UInt64) {
      row = (row & ~(UInt64(63) << state)) | (next << state)
    }
    // Every state rejects a byte unless a case below says otherwise.
    for state in states { set(state, reject) }
    switch byte {
    case 0x00...0x7F: set(accept, accept)
    case 0xC2...0xDF: set(accept, one)
    case 0xE0: set(accept, afterE0)
    case 0xE1...0xEC, 0xEE, 0xEF: set(accept, two)
    case 0xED: set(accept, afterED)
    case 0xF0: set(accept, afterF0)
    case 0xF1...0xF3: set(accept, three)
    case 0xF4: set(accept, afterF4)
    default: break
    }
    if (0x80...0xBF).contains(byte) {
      set(one, accept)
      set(two, one)
      set(three, two)
      if byte >= 0xA0 { set(afterE0, one) }
      if byte <= 0x9F { set(afterED, one) }
      if byte >= 0x90 { set(afterF0, two) }
      if byte <= 0x8F { set(afterF4, two) }
    }
    return row
  }

  /// Whether `base[start..<end]` is well-formed UTF-8.
  ///
  /// Eight bytes at a time: a word of ASCII between sequences is skipped whole, any other word
  /// goes through the automaton byte by byte without a branch. The shift amount is taken
  /// modulo 64 (`&>>`), so the state needs no masking until the end.
  static func accepts(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Bool {
    rows.withUnsafeBufferPointer { rows in
      var state = accept
      var index = start
      while index + 8 <= end {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        if state & 63 == accept && word & 0x8080_8080_8080_8080 == 0 {
          index += 8
          continue
        }
        state = rows[Int(base[index])] &>> state
        state = rows[Int(base[index + 1])] &>> state
        state = rows[Int(base[index + 2])] &>> state
        state = rows[Int(base[index + 3])] &>> state
        state = rows[Int(base[index + 4])] &>> state
        state = rows[Int(base[index + 5])] &>> state
        state = rows[Int(base[index + 6])] &>> state
        state = rows[Int(base[index + 7])] &>> state
        index += 8
      }
      while index < end {
        state = rows[Int(base[index])] &>> state
        index += 1
      }
      return state & 63 == accept
    }
  }
}
