import Foundation

/// Percent-encoding of path segments and query values.
enum PercentEncoding {
  /// The characters left as they are: RFC 3986's unreserved set.
  private static let unreserved: CharacterSet = {
    var set = CharacterSet()
    set.insert(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    return set
  }()

  /// `text` with every byte outside the unreserved set encoded (`a b/c` → `a%20b%2Fc`).
  static func segment(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
  }
}
