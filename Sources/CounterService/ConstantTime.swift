/// Comparison that takes the same time however many leading bytes match.
enum ConstantTime {
  /// Whether `a` equals `b`, comparing every byte of the longer one whatever they hold.
  ///
  /// The time depends only on the lengths, so a wrong token reveals nothing about how much
  /// of it was right.
  static func equals(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    var diff = UInt8(truncatingIfNeeded: x.count ^ y.count)
    diff |= x.count == y.count ? 0 : 1
    let n = max(x.count, y.count)
    for i in 0..<n {
      let p = i < x.count ? x[i] : 0
      let q = i < y.count ? y[i] : 0
      diff |= p ^ q
    }
    return diff == 0
  }
}
