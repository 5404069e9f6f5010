/// The strict, recovering, single-pass reader of Roadmap JSON over raw bytes.
///
/// It reads the top-level array straight into `RoadmapFeature` values (no intermediate tree),
/// keeps byte offsets for diagnostics and turns them into lines and columns only at the end.
/// Nesting is bounded by `maxDepth`; every recovery consumes input, and the parse stops after
/// `maxSyntaxErrors` syntax errors the app rejects (others are kept up to `maxPerCode` each), so
/// no input can loop, crash or grow memory beyond its size.
struct RoadmapParser {
  static let maxDepth = 512
  static let maxSyntaxErrors = 100
  static let maxPerCode = 1000

  let base: UnsafePointer<UInt8>
  let count: Int
  /// Whether to run the per-feature warning rules.
  let collectWarnings: Bool
  /// Whether to build the features at all; rules work from `records` either way.
  let keepValues: Bool
  var pos = 0
  var depth = 0
  var path: [PathComponent] = []
  /// The current line, counted as whitespace and comments are skipped (line breaks appear
  /// nowhere else in JSON that is read on: a raw one ends a string before it). A line ends as
  /// `LineIndex.endsLine(at:in:)` says: LF, CRLF or a lone CR.
  var line = 1
  var checkpoints: [LineIndex.Checkpoint] = []
  /// Where a parse of the first part of a large array stops (an element start), and whether
  /// it got there; see `ParseOutcome.parse`.
  var stopAt = Int.max
  var reachedStop = false
  /// Where diagnostics go (a reference, so reporting needs no exclusive access to the parser).
  let sink = IssueSink()
  /// Set when the parse cannot go on; every loop checks it.
  var stopped: Bool { sink.stopped }
  var scratch: [UInt8] = []
  /// The last string ended at a line break; the comma that follows is probably inside it.
  var afterUnterminated = false
  /// The offset of the closing quote of a skipped string found to run past its raw line
  /// breaks (see `lineBreakIsInsideString(at:)`).
  var lineBreaksReadUntil = 0
  /// Above zero while parsing a value the Roadmap package skips without looking inside.
  var ignoredDepth = 0
  /// Set when a value of the current feature could not be read faithfully.
  var featureBroken = false
  /// The mapped document being read, whose pages behind the parse are handed back every
  /// `releaseStride` bytes; nil for bytes in memory.
  var pages: DocumentBytes?
  var releaseStride = 4 << 20
  /// Where the pages not yet handed back start (the parse's first element).
  var releasedUpTo = 0

  var features: [RoadmapFeature] = []
  var records: [FeatureRecord] = []
  var featureCount = 0
  var topLevelIsArray = false
  var languageIDs: [String: Int] = [:]
  var languageNames: [String] = []
  /// Short language tags packed into words, by id, while every id so far is packed.
  var packedLanguages: [(UInt64, UInt64, Int)] = []
  /// The most languages kept in ``packedLanguages`` (real files name a handful).
  static let packedLanguageLimit = 32
  var statusCache: [UInt64: StatusReading] = [:]
  /// Per localized field (title, status, description): how many records have it as an array,
  /// and how many of those have each tracked language (`slot * 64 + language id`).
  var localizingCounts = [0, 0, 0]
  var languageCounts = [Int](repeating: 0, count: 3 * 64)

  init(base: UnsafePointer<UInt8>, count: Int, collectWarnings: Bool, keepValues: Bool = true) {
    self.base = base
    self.count = count
    self.collectWarnings = collectWarnings
    self.keepValues = keepValues
    path.reserveCapacity(16)
    records.reserveCapacity(count / 1024)
  }

  // MARK: Reporting

  /// Records a diagnostic; the message is only built when it will be listed.
  func report(
    _ code: String, _ severity: Severity, at offset: Int, rejected: Bool,
    pathSuffix: String? = nil, related: [RelatedIssue] = [],
    _ message: @autoclosure () -> String
  ) {
    guard sink.limit.admits(code, severity) else { return }
    sink.issues.append(
      Issue(
        code: code, severity: severity, message: message(), offset: offset,
        path: pointer(appending: pathSuffix), related: related, rejectedByRoadmap: rejected,
        sequence: sink.issues.count))
  }

  /// Records a syntax error; stops the parse after too many.
  func syntaxError(
    _ code: String, at offset: Int, rejected: Bool = true, fatal: Bool = false,
    related: [RelatedIssue] = [], _ message: @autoclosure () -> String
  ) {
    guard !stopped else { return }
    report(code, .error, at: offset, rejected: rejected, related: related, message())
    sink.syntaxErrors += 1
    if rejected { sink.rejectingSyntaxErrors += 1 }
    if code == "trailing-comma" { sink.trailingCommas += 1 }
    if fatal {
      sink.stopped = true
      sink.fatal = true
    } else if sink.rejectingSyntaxErrors >= Self.maxSyntaxErrors {
      report(
        "too-many-errors", .error, at: offset, rejected: true,
        "stopped reading after \(Self.maxSyntaxErrors) syntax errors; fix these first")
      sink.stopped = true
      sink.fatal = true
    }
  }

  /// The JSON pointer of the current position.
  func pointer(appending suffix: String? = nil) -> String {
    var result = ""
    for component in path {
      result += "/"
      result += pointerToken(component)
    }
    if let suffix {
      result += "/"
      result += suffix.replacingTilde()
    }
    return result
  }

  func pointerToken(_ component: PathComponent) -> String {
    let raw: String
    switch component {
    case .index(let index): return String(index)
    case .key(let start, let end, let escaped):
      raw = decodeString(StringToken(start: start, end: end, escaped: escaped))
    }
    guard raw.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
      return raw
    }
    return raw.replacingTilde()
  }

  /// Up to `limit` bytes of source text, for messages.
  func snippet(_ start: Int, _ end: Int, limit: Int = 40) -> String? {
    guard end > start, end - start <= limit else { return nil }
    let buffer = UnsafeBufferPointer(start: base + start, count: end - start)
    guard !buffer.contains(where: { $0 == 0x0A || $0 == 0x0D }) else { return nil }
    return String(decoding: buffer, as: UTF8.self)
  }

  // MARK: Whitespace and comments

  /// Skips whitespace and comments (reported) from `pos`.
  ///
  /// Most calls have nothing to skip (a `,` or `:` right after a value) or one space (after a
  /// `:`), so those cases are a test or two, inline; the rest is `skipWhitespaceRun`.
  @inline(__always)
  mutating func skipWhitespace() {
    if pos + 1 < count {
      let byte = base[pos]
      if byte > 0x20 && byte != UInt8(ascii: "/") { return }
      let next = base[pos + 1]
      if byte == 0x20 && next > 0x20 && next != UInt8(ascii: "/") {
        pos += 1
        return
      }
    }
    skipWhitespaceRun()
  }

  /// Skips the whitespace and comments that start at `pos`.
  ///
  /// A line break is usually followed by the next line's indentation: that is skipped a block
  /// at a time, jumping to the first byte that is not a space. Other whitespace goes one byte at
  /// a time, tested with one bit mask rather than a jump table.
  mutating func skipWhitespaceRun() {
    let width = ByteBlock.width
    let blanks: UInt64 = 1 << 0x20 | 1 << 0x09
    while pos < count {
      let byte = base[pos]
      if byte == 0x0A || (byte == 0x0D && (pos + 1 == count || base[pos + 1] != 0x0A)) {
        pos += 1
        line += 1
        while pos + width <= count {
          let block = ByteBlock.load(base, pos)
          let lane = ByteBlock.firstNonZeroLane(
            ByteBlock.lanes(block .!= ByteBlock.splat(0x20)))
          pos += lane
          if lane < width { break }
        }
      } else if byte <= 0x20 && blanks & (1 << UInt64(byte)) != 0 || byte == 0x0D {
        // A CR here is the first half of a CRLF: the LF ends the line.
        pos += 1
      } else if byte == UInt8(ascii: "/") {
        guard skipComment() else { return }
      } else {
        return
      }
    }
  }

  /// Skips a `//` or `/* */` comment at `pos`, reporting it; false if `/` starts none.
  mutating func skipComment() -> Bool {
    guard pos + 1 < count else { return false }
    let start = pos
    let next = base[pos + 1]
    if next == UInt8(ascii: "/") {
      pos += 2
      while pos < count && base[pos] != 0x0A && base[pos] != 0x0D { pos += 1 }
    } else if next == UInt8(ascii: "*") {
      pos += 2
      var closed = false
      while pos + 1 < count {
        if base[pos] == UInt8(ascii: "*") && base[pos + 1] == UInt8(ascii: "/") {
          pos += 2
          closed = true
          break
        }
        if endsLine(at: pos) { line += 1 }
        pos += 1
      }
      if !closed {
        pos = count
        syntaxError(
          "comment", at: start, fatal: true,
          "a /* comment is not closed, and JSON has no comments at all; remove it")
        return false
      }
    } else {
      return false
    }
    syntaxError(
      "comment", at: start,
      "JSON has no comments: JSONDecoder and every other reader reject the file; remove it "
        + "(or keep the note in an extra key such as \"note\")")
    return !stopped
  }

  /// Whether the byte at `index` ends a line (LF, or a CR not followed by LF).
  @inline(__always)
  func endsLine(at index: Int) -> Bool {
    let byte = base[index]
    return byte == 0x0A || (byte == 0x0D && (index + 1 == count || base[index + 1] != 0x0A))
  }

  // MARK: Structure

  enum Step {
    case next
    case end
    case stop
  }

  static func isValueStart(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"), UInt8(ascii: "f"),
      UInt8(ascii: "n"):
      return true
    default:
      return false
    }
  }

  /// After a value inside an array or object: a comma (then the next element), or the closer.
  mutating func afterElement(closer: UInt8, open: Int, inObject: Bool) -> Step {
    let valueEnd = pos
    skipWhitespace()
    if stopped { return .stop }
    guard pos < count else {
      unexpectedEnd(open: open, inObject: inObject)
      return .stop
    }
    let byte = base[pos]
    if byte == UInt8(ascii: ",") {
      afterUnterminated = false
      let comma = pos
      pos += 1
      skipWhitespace()
      if stopped { return .stop }
      if pos < count && base[pos] == closer {
        syntaxError(
          "trailing-comma", at: comma, rejected: false,
          "trailing comma before '\(Character(Unicode.Scalar(closer)))': jq, Python, browsers and "
            + "apps before iOS 17 reject the file; remove the comma")
        pos += 1
        return stopped ? .stop : .end
      }
      if pos < count && base[pos] == UInt8(ascii: ",") {
        syntaxError("unexpected-character", at: pos, fatal: true, "two commas in a row; remove one")
        return .stop
      }
      return .next
    }
    if byte == closer {
      pos += 1
      afterUnterminated = false
      return .end
    }
    let startsNext = inObject ? byte == UInt8(ascii: "\"") : Self.isValueStart(byte)
    if startsNext {
      if afterUnterminated {
        afterUnterminated = false
      } else {
        syntaxError(
          "missing-comma", at: valueEnd,
          "missing ',' after this value: add a comma before the next "
            + (inObject ? "key" : "element"))
      }
      return stopped ? .stop : .next
    }
    if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
      let expected = Character(Unicode.Scalar(closer))
      syntaxError(
        "mismatched-bracket", at: pos, fatal: true,
        related: [RelatedIssue(message: "opened here", path: pointer(), offset: open)],
        "'\(Character(Unicode.Scalar(byte)))' closes the \(inObject ? "object" : "array") "
          + "opened at the related position; expected ',' or '\(expected)'")
      return .stop
    }
    unexpectedCharacter(expected: "',' or '\(Character(Unicode.Scalar(closer)))'")
    return .stop
  }

  mutating func unexpectedEnd(open: Int, inObject: Bool) {
    syntaxError(
      "unexpected-end-of-input", at: count, fatal: true,
      related: [RelatedIssue(message: "opened here", path: pointer(), offset: open)],
      "the file ends inside \(inObject ? "an object" : "an array"); close it with "
        + (inObject ? "'}'" : "']'") + " (is the file cut short?)")
  }

  mutating func unexpectedCharacter(expected: String) {
    guard pos < count else {
      syntaxError(
        "unexpected-end-of-input", at: count, fatal: true,
        "the file ends where \(expected) was expected")
      return
    }
    syntaxError(
      "unexpected-character", at: pos, fatal: true,
      "unexpected \(describeByte(at: pos)); expected \(expected)")
  }

  func describeByte(at offset: Int) -> String {
    let byte = base[offset]
    if byte >= 0x21 && byte < 0x7F {
      return "'\(Character(Unicode.Scalar(byte)))'"
    }
    if byte >= 0x80 {
      if let scalar = decodeScalar(at: offset) {
        return "'\(Character(scalar))' (U+\(String(scalar.value, radix: 16, uppercase: true)))"
      }
      return "byte 0x\(String(byte, radix: 16, uppercase: true)) (not UTF-8)"
    }
    return "control character 0x\(String(byte, radix: 16, uppercase: true))"
  }

  func decodeScalar(at offset: Int) -> Unicode.Scalar? {
    let length = utf8SequenceLength(at: offset)
    guard length > 0 else { return nil }
    let buffer = UnsafeBufferPointer(start: base + offset, count: length)
    return String(decoding: buffer, as: UTF8.self).unicodeScalars.first
  }

  // MARK: Document

  /// Parses the whole document.
  mutating func parseDocument() {
    if count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF {
      report(
        "byte-order-mark", .warning, at: 0, rejected: false,
        "the file starts with a UTF-8 byte-order mark; JSONDecoder skips it but many tools "
          + "do not: save the file as UTF-8 without BOM")
      pos = 3
    } else if let failure = TextEncoding.conversionFailure(
      UnsafeBufferPointer(start: base, count: count))
    {
      // UTF-16 or UTF-32 that the app would convert, but for one value: it rejects the file.
      syntaxError("invalid-encoding", at: 0, fatal: true, failure.message)
      return
    } else if count >= 2
      && ((base[0] == 0xFF && base[1] == 0xFE) || (base[0] == 0xFE && base[1] == 0xFF))
    {
      syntaxError(
        "invalid-encoding", at: 0, fatal: true,
        "the file is UTF-16; Roadmap JSON must be UTF-8: save it as UTF-8")
      return
    }
    if let reason = binaryEvidence(from: pos) {
      syntaxError(
        "not-text", at: 0, fatal: true,
        "this is not a text file: \(reason); Roadmap JSON is UTF-8 text, so check that this is "
          + "the right file")
      return
    }
    let textStart = pos
    skipWhitespace()
    if stopped { return }
    guard pos < count else {
      syntaxError(
        "empty-document", at: 0, fatal: true,
        (textStart == count ? "the file is empty" : "the file holds only whitespace")
          + "; a roadmap with no features is written []")
      return
    }
    let start = pos
    if base[pos] == UInt8(ascii: "[") {
      topLevelIsArray = true
      parseFeatureArray()
      if reachedStop { return }
    } else {
      let kind = ValueKind(firstByte: base[pos])
      var hint = ""
      let issuesBefore = sink.issues.count
      if kind == .object {
        let value = parseValue(keep: true)
        if case .object(let object)? = value {
          hint = Self.hint(forTopLevel: object)
        }
      } else {
        _ = parseValue(keep: false)
      }
      // A value that is not one (`nonsense`, `nul`) has its own error at its start: it is
      // no null or boolean to name.
      let valueIsBroken = sink.issues[issuesBefore...].contains {
        $0.offset == start && $0.severity == .error
      }
      if kind != .other && !valueIsBroken {
        report(
          "not-an-array", .error, at: start, rejected: true,
          "the top level is \(kind.withArticle), but the Roadmap package reads an array of "
            + "features: write [ {\"id\": \"1\", …}, … ]\(hint)")
      }
    }
    parseDocumentEnd()
  }

  /// What to do with a top-level object: convert it, when it is a VoteFirst export; else
  /// move its first array member to the top level, when it has one.
  static func hint(forTopLevel object: JSONObject) -> String {
    let format = object.members.first { $0.key == "format" }?.value
    if format == .string("votefirst-export") {
      return "; this is a VoteFirst export: 'roadmapctl convert FILE --to roadmap' writes "
        + "the Roadmap JSON of its roadmap board"
    }
    let member = object.members.first {
      if case .array = $0.value { return true } else { return false }
    }
    return member.map { "; move the array in \"\($0.key)\" to the top level" } ?? ""
  }

  /// Parses the elements of the top-level array from `start` (an element start found by
  /// `ParseOutcome.splitPoint`) to the end of the document, as the second half of a parallel
  /// parse. Element indices and lines are relative to `start`.
  mutating func parseFeatureElements(from start: Int, arrayOpen: Int) {
    topLevelIsArray = true
    pos = start
    releasedUpTo = start
    depth = 1
    parseFeatureElements(open: arrayOpen)
    depth = 0
    parseDocumentEnd()
  }

  /// After the top-level value: nothing but whitespace.
  mutating func parseDocumentEnd() {
    if stopped { return }
    skipWhitespace()
    if !stopped && pos < count {
      syntaxError(
        "trailing-content", at: pos, fatal: true,
        "unexpected \(describeByte(at: pos)) after the end of the document; remove it "
          + "(two documents pasted together?)")
    }
  }

  /// Consumes `true`, `false` or `null` if one starts at `pos` and is not followed by a word
  /// character.
  mutating func matchLiteral(_ word: StaticString) -> Bool {
    let length = word.utf8CodeUnitCount
    guard pos + length <= count else { return false }
    let bytes = word.utf8Start
    for index in 0..<length where base[pos + index] != bytes[index] {
      return false
    }
    if pos + length < count && Self.isWordByte(base[pos + length]) { return false }
    pos += length
    return true
  }

  static func isWordByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"):
      return true
    default:
      return false
    }
  }
}

extension String {
  /// Escapes `~` and `/` for a JSON pointer token.
  func replacingTilde() -> String {
    var result = ""
    for character in self {
      switch character {
      case "~": result += "~0"
      case "/": result += "~1"
      default: result.append(character)
      }
    }
    return result
  }
}
