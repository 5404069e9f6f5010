/// Formats store timestamps (milliseconds since 1970, UTC) as RFC 3339 text.
///
/// Any `Int64` is accepted (a stored or imported value can be anything): times before
/// year 0000 or after 9999, which RFC 3339 cannot write, saturate to its first or last
/// millisecond, and no step of the arithmetic can overflow.
enum Timestamp {
  /// `0000-01-01T00:00:00.000Z`, the earliest time RFC 3339 can write, in ms since 1970.
  static let earliest: Int64 = -62_167_219_200_000
  /// `9999-12-31T23:59:59.999Z`, the latest time RFC 3339 can write, in ms since 1970.
  static let latest: Int64 = 253_402_300_799_999

  /// `2024-03-05T10:11:12.345Z` for `milliseconds` since 1970 (UTC), saturated to
  /// ``earliest``...``latest``.
  static func rfc3339(milliseconds: Int64) -> String {
    let clamped = min(max(milliseconds, earliest), latest)
    let ms = clamped.floorMod(1000)
    let seconds = (clamped - ms) / 1000
    let secondOfDay = seconds.floorMod(86_400)
    let days = (seconds - secondOfDay) / 86_400
    let (y, m, d) = civil(fromDays: days)
    return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(secondOfDay / 3600, 2)):"
      + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(ms, 3))Z"
  }

  /// Year, month, day of the proleptic Gregorian calendar for `days` since 1970-01-01.
  private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
  }

  private static func pad(_ value: Int64, _ width: Int) -> String {
    let s = String(value)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
  }
}

extension Int64 {
  /// The remainder of division by `n`, in `0..<n` for positive `n`.
  fileprivate func floorMod(_ n: Int64) -> Int64 {
    let r = self % n
    return r < 0 ? r + n : r
  }
}
