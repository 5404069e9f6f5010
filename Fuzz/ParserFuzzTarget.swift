// libFuzzer entry point for HTTPRequestParser. Not a package target: Fuzz/run.sh compiles it
// together with the parser's sources using `swiftc -sanitize=fuzzer,address`.

/// Feeds `pieces` in order and summarizes every request and the failure, checking the
/// parser's contract on the way (it always makes progress and never overreads).
private func outcome(_ pieces: [[UInt8]], _ limits: HTTPParserLimits) -> [String] {
  var parser = HTTPRequestParser(limits: limits)
  var events: [String] = []
  for piece in pieces {
    var offset = 0
    while offset < piece.count {
      let (event, used) = parser.consume(Array(piece[offset...]))
      precondition(used >= 0 && used <= piece.count - offset, "consumed out of range")
      switch event {
      case .needMore:
        precondition(used == piece.count - offset, "needMore without using every byte")
      case .headComplete:
        precondition(parser.isReadingBody, "headComplete outside a body")
      case .request(let r):
        precondition(r.body.count <= limits.maxBodyBytes, "body over the limit")
        precondition(r.headers.fields.count <= limits.maxHeaderCount, "too many fields")
        events.append("\(r.method) \(r.target) \(r.version) \(r.headers.fields.count) \(r.body)")
        // What handlers see: decoding the target must not trap either.
        let request = HTTPRequest(method: HTTPMethod(rawValue: r.method), target: r.target)
        _ = Router.segments(ofTarget: request.target)
        _ = r.keepAlive
      case .failure(let f):
        events.append("failure \(f.status)")
        return events
      }
      precondition(used > 0 || event == .headComplete || piece.count == offset, "no progress")
      offset += used
    }
  }
  events.append(parser.isAtRequestBoundary ? "boundary" : "partial")
  return events
}

/// libFuzzer's entry point: parses one input whole, split at an input-chosen point, and byte
/// by byte, and traps if the outcomes differ or the parser breaks its contract.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let limits = HTTPParserLimits(
    maxRequestLineBytes: 256, maxHeaderBytes: 512, maxHeaderCount: 8, maxBodyBytes: 1024)
  let whole = outcome([bytes], limits)
  // The same bytes split at a point chosen by the input must parse the same way.
  if size > 1 {
    let cut = Int(bytes[0]) % size
    let split = outcome([Array(bytes[..<cut]), Array(bytes[cut...])], limits)
    precondition(whole == split, "split at \(cut) changed the outcome")
  }
  if size < 200 {
    let drip = outcome(bytes.map { [$0] }, limits)
    precondition(whole == drip, "byte-at-a-time changed the outcome")
  }
  return 0
}
