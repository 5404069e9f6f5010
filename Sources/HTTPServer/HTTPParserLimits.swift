/// The parser's share of ``HTTPServerConfiguration``.
struct HTTPParserLimits: Equatable {
  var maxRequestLineBytes = 8192
  var maxHeaderBytes = 32768
  var maxHeaderCount = 100
  var maxBodyBytes = 1 << 20

  /// Longest accepted chunk-size line, extensions included.
  static let maxChunkSizeLineBytes = 4096
}
