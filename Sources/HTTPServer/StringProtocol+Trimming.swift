extension StringProtocol {
  /// The string without leading and trailing spaces and tabs.
  func trimmingSpacesAndTabs() -> String {
    let u = Array(utf8)
    var s = 0
    var e = u.count
    while s < e && (u[s] == 0x20 || u[s] == 0x09) { s += 1 }
    while e > s && (u[e - 1] == 0x20 || u[e - 1] == 0x09) { e -= 1 }
    return String(decoding: u[s..<e], as: UTF8.self)
  }
}
