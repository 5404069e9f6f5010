extension HTTPHeaders {
  /// These fields with their wire form worked out now, once.
  ///
  /// A response whose headers are this value (or a copy of it: copies share the one wire
  /// form) is written with one copy of those bytes, instead of each field being checked and
  /// appended again. What goes on the wire is exactly what the fields give without it: the
  /// fields the server owns (`Content-Length`, `Transfer-Encoding`, `Connection`) and any field
  /// that could split the response are left out the same way, a `Connection: close` still
  /// closes, a `Date` still replaces the server's. Any change to the fields (``add(name:value:)``,
  /// ``replaceOrAdd(name:value:)``, ``remove(name:)``) drops the wire form, and the changed
  /// value is encoded field by field again. Worth it for a set of fields many responses carry.
  public func preEncoded() -> HTTPHeaders {
    var copy = self
    var bytes: [UInt8] = []
    let flags = ResponseEncoder.appendFields(fields, to: &bytes)
    copy.wire = WireFields(bytes: bytes, hasDate: flags.hasDate, asksToClose: flags.asksToClose)
    return copy
  }
}

/// The wire form of a set of header fields (``HTTPHeaders/preEncoded()``): the bytes the
/// response encoder writes for them, and what it learnt from them.
final class WireFields: Sendable {
  /// The `name: value` CRLF lines, checked and filtered as ``ResponseEncoder`` writes them.
  let bytes: [UInt8]
  /// The fields hold a `Date`, so the server writes none of its own.
  let hasDate: Bool
  /// A `Connection` field asks to close.
  let asksToClose: Bool

  init(bytes: [UInt8], hasDate: Bool, asksToClose: Bool) {
    self.bytes = bytes
    self.hasDate = hasDate
    self.asksToClose = asksToClose
  }
}
