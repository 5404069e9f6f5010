/// A file the page loads from the server itself: the stylesheet or the script, kept in the
/// binary as a Swift string (so a single `roadmapctl` binary serves everything).
///
/// Its URL carries a hash of its bytes (`/assets/board-1a2b3c4d5e6f.css`), so it can be cached
/// for a year: a new build with other bytes has another URL.
public struct WebAsset: Sendable, Hashable {
  /// The versioned path, `/assets/NAME-HASH.EXT`.
  public let path: String
  /// The `Content-Type` to serve it with.
  public let contentType: String
  /// The bytes.
  public let body: [UInt8]
  /// The strong ETag, the hash in quotes.
  public let etag: String

  /// Creates an asset named `name` (`board`), with extension `ext` (`css`).
  public init(name: String, ext: String, contentType: String, text: String) {
    let bytes = Array(text.utf8)
    let version = WebAsset.hash(bytes)
    self.path = "\(WebBoardPaths.assetPrefix)/\(name)-\(version).\(ext)"
    self.contentType = contentType
    self.body = bytes
    self.etag = "\"\(version)\""
  }

  /// `Cache-Control` for a versioned asset.
  public static let cacheControl = "public, max-age=31536000, immutable"

  /// The stylesheet every page loads.
  public static let stylesheet = WebAsset(
    name: "board", ext: "css", contentType: "text/css; charset=utf-8", text: WebAsset.css)

  /// The script every page loads.
  public static let script = WebAsset(
    name: "board", ext: "js", contentType: "text/javascript; charset=utf-8", text: WebAsset.js)

  /// The icon every page links (`<link rel="icon">`), so browsers do not ask for
  /// `/favicon.ico`, a 404 that drew from the reader's rate limit on every page view.
  public static let icon = WebAsset(
    name: "icon", ext: "svg", contentType: "image/svg+xml", text: WebAsset.iconSVG)

  /// The icon's SVG: the vote arrow on a rounded square.
  static let iconSVG = """
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">\
    <rect width="16" height="16" rx="3" fill="#0A58CA"/><path d="M8 3.5 13 11H3z" fill="#FFF"/>\
    </svg>

    """

  /// Every asset.
  public static let all: [WebAsset] = [stylesheet, script, icon]

  /// The asset served at `path`, or nil.
  public static func named(_ path: String) -> WebAsset? {
    all.first { $0.path == path }
  }

  /// 12 hex digits of the 64-bit FNV-1a hash of `bytes`.
  public static func hash(_ bytes: [UInt8]) -> String {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes {
      h ^= UInt64(byte)
      h = h &* 0x100_0000_01B3
    }
    let hex = String(h, radix: 16)
    return String((String(repeating: "0", count: 16 - hex.count) + hex).prefix(12))
  }
}
