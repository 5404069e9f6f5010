/// Hides the values of chosen query parameters in a request target, for log lines.
///
/// Apart from ``AccessLogEntry`` (which needs `Duration`, macOS 13), so code that logs on older
/// platforms redacts the same way.
public enum QueryRedaction: Sendable {
  /// The query parameters whose values a log line never shows: credentials (`token`,
  /// `access_token`, `password`, `secret`) and personal data (`voter`, often an e-mail address).
  public static let defaultParameters: Set<String> = [
    "token", "access_token", "password", "secret", "voter",
  ]

  /// What a redacted value is written as.
  public static let redactedValue = "[redacted]"

  /// `target` with the value of every query parameter named in `parameters` replaced by
  /// `[redacted]`.
  ///
  /// A parameter's name is percent-decoded (`+` as a space) and compared case-insensitively
  /// before the test, so `%74oken=` and `TOKEN=` are hidden as `token=` is; the path and the
  /// other parameters are kept byte for byte. Shapes a careless or hostile client may send are
  /// read as a parameter too, since whatever follows a sensitive name is what a log must not
  /// show: parameters separated by `;` as well as `&` (`value=5;token=S`), the `=` itself
  /// percent-encoded (`token%3DS`), and a name with a bracketed suffix (`token[]=S`,
  /// `token%5B0%5D=S`). A parameter with no `=` (plain or encoded) has no value to hide.
  public static func redact(_ target: String, parameters: Set<String>) -> String {
    guard let question = target.utf8.firstIndex(of: UInt8(ascii: "?")), !parameters.isEmpty
    else { return target }
    let names = Set(parameters.map { $0.lowercased() })
    let query = Array(target.utf8[target.utf8.index(after: question)...])
    var out = Array(target.utf8[...question])
    var start = 0
    while start <= query.count {
      var end = start
      while end < query.count && query[end] != UInt8(ascii: "&") && query[end] != UInt8(ascii: ";")
      {
        end += 1
      }
      let item = query[start..<end]
      if let valueStart = sensitiveValueStart(item, names: names) {
        out.append(contentsOf: item[..<valueStart])
        out.append(contentsOf: redactedValue.utf8)
      } else {
        out.append(contentsOf: item)
      }
      if end < query.count { out.append(query[end]) }
      start = end + 1
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Where the value of `item` (one `name=value` of a query) starts when its name is one of
  /// `names` (lower-cased), else nil. The name ends at the first `=` or `%3D`; it is compared
  /// percent-decoded, its surrounding spaces and a bracketed suffix (`[]`, `[0]`) left out.
  private static func sensitiveValueStart(_ item: ArraySlice<UInt8>, names: Set<String>) -> Int? {
    var index = item.startIndex
    var separatorEnd: Int?
    while index < item.endIndex {
      if item[index] == UInt8(ascii: "=") {
        separatorEnd = index + 1
        break
      }
      if item[index] == UInt8(ascii: "%"), index + 2 < item.endIndex,
        item[index + 1] == UInt8(ascii: "3"),
        item[index + 2] == UInt8(ascii: "D") || item[index + 2] == UInt8(ascii: "d")
      {
        separatorEnd = index + 3
        break
      }
      index += 1
    }
    guard let separatorEnd else { return nil }
    var name = URLComponentsDecoder.percentDecode(
      Array(item[item.startIndex..<index]), plusAsSpace: true
    ).lowercased()
    if let bracket = name.firstIndex(of: "[") { name = String(name[..<bracket]) }
    name = name.trimmingSpacesAndTabs()
    return names.contains(name) ? separatorEnd : nil
  }
}
