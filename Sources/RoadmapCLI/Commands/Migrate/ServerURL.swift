import Foundation

/// Checks and joins the base URLs of `--server`, `--from`, `--votes-from` and `--counts`.
enum ServerURL {
  /// Why `text` is not an http(s) base URL, or nil when it is one (`option` names it).
  static func problem(_ text: String, option: String) -> String? {
    guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
      scheme == "http" || scheme == "https", url.host?.isEmpty == false, url.query == nil
    else {
      return "\(option) needs an http or https base URL, such as http://127.0.0.1:8080."
    }
    return nil
  }

  /// `base` with `path` (which starts with `/`) appended to its path.
  static func join(_ base: String, _ path: String) -> URL? {
    var trimmed = base
    while trimmed.hasSuffix("/") { trimmed.removeLast() }
    return URL(string: trimmed + path)
  }
}
