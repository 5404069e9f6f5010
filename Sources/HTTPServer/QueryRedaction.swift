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
  /// other parameters are kept byte for byte. A parameter without `=` has no value to hide.
  public static func redact(_ target: String, parameters: Set<String>) -> String {
    guard let question = target.utf8.firstIndex(of: UInt8(ascii: "?")), !parameters.isEmpty
    else { return target }
    let names = Set(parameters.map { $0.lowercased() })
    let query = target.utf8[target.utf8.index(after: question)...]
    var out = Array(target.utf8[...question])
    var first = true
    for item in query.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false) {
      if !first { out.append(UInt8(ascii: "&")) }
      first = false
      guard let equals = item.firstIndex(of: UInt8(ascii: "=")) else {
        out.append(contentsOf: item)
        continue
      }
      let name = URLComponentsDecoder.percentDecode(Array(item[..<equals]), plusAsSpace: true)
      out.append(contentsOf: item[...equals])
      if names.contains(name.lowercased()) {
        out.append(contentsOf: redactedValue.utf8)
      } else {
        out.append(contentsOf: item[item.index(after: equals)...])
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
