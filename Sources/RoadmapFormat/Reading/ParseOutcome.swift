import Foundation

/// Everything one parse produced, with diagnostics still as byte offsets.
struct ParseOutcome {
  var features: [RoadmapFeature] = []
  var records: [FeatureRecord] = []
  var featureCount = 0
  var topLevelIsArray = false
  var issues: [Issue] = []
  var suppressed: [String: (count: Int, severity: Severity)] = [:]
  /// The parse stopped before the end of the document.
  var fatal = false
  /// Interned languages; bit `i` of a record's mask is `languageNames[i]`.
  var languageNames: [String] = []
  var byteCount = 0
  /// Known lines at feature starts, in offset order.
  var checkpoints: [LineIndex.Checkpoint] = []
  /// Per localized field: records that have it, and per tracked language how many of those
  /// have it (`slot * 64 + language id`).
  var localizingCounts = [0, 0, 0]
  var languageCounts = [Int](repeating: 0, count: 3 * 64)

  init() {}

  /// Parses `buffer` as Roadmap JSON.
  ///
  /// When `pages` is the mapped document that `buffer` points into, the pages behind the parse
  /// are handed back every `releaseStride` bytes.
  static func parse(
    _ buffer: UnsafeBufferPointer<UInt8>, collectWarnings: Bool, keepValues: Bool = true,
    parallelThreshold: Int = parallelThreshold, pages: DocumentBytes? = nil,
    releaseStride: Int = 4 << 20
  ) -> ParseOutcome {
    let pages = pages?.isMapped == true ? pages : nil
    guard let base = buffer.baseAddress, buffer.count > 0 else {
      var outcome = ParseOutcome()
      outcome.fatal = true
      outcome.issues = [
        Issue(
          code: "empty-document", severity: .error,
          message: "the file is empty; a roadmap with no features is written []", offset: 0,
          path: "", rejectedByRoadmap: true)
      ]
      return outcome
    }
    if buffer.count >= parallelThreshold, let split = splitPoint(in: buffer) {
      if let outcome = parseInTwo(
        buffer, split: split, collectWarnings: collectWarnings, keepValues: keepValues,
        pages: pages, releaseStride: releaseStride)
      {
        return outcome
      }
    }
    var parser = RoadmapParser(
      base: base, count: buffer.count, collectWarnings: collectWarnings, keepValues: keepValues)
    parser.pages = pages
    parser.releaseStride = releaseStride
    parser.parseDocument()
    return ParseOutcome(parser, byteCount: buffer.count)
  }

  init(_ parser: RoadmapParser, byteCount: Int) {
    features = parser.features
    records = parser.records
    featureCount = parser.featureCount
    topLevelIsArray = parser.topLevelIsArray
    issues = parser.sink.issues
    suppressed = parser.sink.limit.suppressed
    fatal = parser.sink.fatal
    languageNames = parser.languageNames
    self.byteCount = byteCount
    checkpoints = parser.checkpoints
    localizingCounts = parser.localizingCounts
    languageCounts = parser.languageCounts
  }

  /// Documents from this size on are parsed in two halves at once.
  static let parallelThreshold = 4 << 20

  /// An offset in the second half of a pretty-printed top-level array that is probably the start
  /// of a top-level element: a `{` indented like the first element, at the start of a line after
  /// a line ending in `},`. Whether it really is one is confirmed by the first half's parse
  /// reaching it as an element (a raw line break can be inside a string the app skips, so a
  /// candidate can be inside one); nil if there is no candidate (compact files are read in one
  /// pass).
  static func splitPoint(in buffer: UnsafeBufferPointer<UInt8>) -> (element: Int, arrayOpen: Int)? {
    func isSpace(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
    var open = 0
    if buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF { open = 3 }
    while open < buffer.count && isSpace(buffer[open]) { open += 1 }
    guard open < buffer.count, buffer[open] == UInt8(ascii: "[") else { return nil }
    // The indentation of the first element.
    var first = open + 1
    var lineStart: Int?
    while first < buffer.count && isSpace(buffer[first]) {
      if LineIndex.endsLine(at: first, in: buffer) { lineStart = first + 1 }
      first += 1
    }
    guard let lineStart, first < buffer.count, buffer[first] == UInt8(ascii: "{") else {
      return nil
    }
    let indent = first - lineStart
    let limit = min(buffer.count, buffer.count / 2 + (1 << 20))
    var index = buffer.count / 2
    while index < limit {
      defer { index += 1 }
      guard LineIndex.endsLine(at: index, in: buffer), index + indent + 1 < buffer.count,
        buffer[index + indent + 1] == UInt8(ascii: "{")
      else { continue }
      var back = index - 1
      while back > open && (buffer[back] == 0x20 || buffer[back] == 0x0D) { back -= 1 }
      guard buffer[back] == UInt8(ascii: ",") else { continue }
      back -= 1
      while back > open && isSpace(buffer[back]) { back -= 1 }
      guard buffer[back] == UInt8(ascii: "}") else { continue }
      var spaces = index + 1
      while spaces < index + indent + 1 && (buffer[spaces] == 0x20 || buffer[spaces] == 0x09) {
        spaces += 1
      }
      if spaces == index + indent + 1 {
        return (spaces, open)
      }
    }
    return nil
  }

  /// Parses the two halves of a large array on two threads. Nil when the first half did not
  /// reach the split as a top-level element cleanly (the caller then parses in one pass).
  static func parseInTwo(
    _ buffer: UnsafeBufferPointer<UInt8>, split: (element: Int, arrayOpen: Int),
    collectWarnings: Bool, keepValues: Bool, pages: DocumentBytes?, releaseStride: Int
  ) -> ParseOutcome? {
    guard let base = buffer.baseAddress else { return nil }
    let second = SecondHalf(base: base, count: buffer.count)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global(qos: .userInitiated).async {
      var parser = RoadmapParser(
        base: second.base, count: second.count, collectWarnings: collectWarnings,
        keepValues: keepValues)
      parser.pages = pages
      parser.releaseStride = releaseStride
      parser.parseFeatureElements(from: split.element, arrayOpen: split.arrayOpen)
      second.outcome = ParseOutcome(parser, byteCount: second.count)
      done.signal()
    }
    var first = RoadmapParser(
      base: base, count: buffer.count, collectWarnings: collectWarnings, keepValues: keepValues)
    first.pages = pages
    first.releaseStride = releaseStride
    // Room for the second half's records too (address space only until used), so appending
    // them after both parses copies them once and never moves the first half's.
    first.records.reserveCapacity(buffer.count / 512)
    first.stopAt = split.element
    first.parseDocument()
    done.wait()
    guard first.reachedStop, first.sink.syntaxErrors == 0, !first.sink.fatal,
      let tail = second.outcome
    else {
      return first.reachedStop ? nil : ParseOutcome(first, byteCount: buffer.count)
    }
    var outcome = ParseOutcome(first, byteCount: buffer.count)
    let lineAtSplit = first.line
    // The outcome's arrays must be its own before the tail is appended, or appending copies
    // the first half's records whole (the parser still holds them).
    first.records = []
    first.features = []
    first.checkpoints = []
    outcome.append(tail, lineAtSplit: lineAtSplit)
    return outcome
  }

  /// Appends the outcome of the second half: indices, lines, languages and paths shifted.
  mutating func append(_ tail: ParseOutcome, lineAtSplit: Int) {
    let indexBase = featureCount
    features += tail.features
    featureCount += tail.featureCount
    fatal = tail.fatal
    // Languages: the tail's ids to ours.
    var languageMap: [Int] = []
    var ids = [String: Int](minimumCapacity: languageNames.count)
    for (id, name) in languageNames.enumerated() { ids[name] = id }
    for name in tail.languageNames {
      if let id = ids[name] {
        languageMap.append(id)
      } else {
        ids[name] = languageNames.count
        languageMap.append(languageNames.count)
        languageNames.append(name)
      }
    }
    func remap(_ mask: UInt64) -> UInt64 {
      var result: UInt64 = 0
      var rest = mask
      while rest != 0 {
        let id = languageMap[rest.trailingZeroBitCount]
        if id < 64 { result |= UInt64(1) << id }
        rest &= rest - 1
      }
      return result
    }
    for slot in 0..<3 {
      localizingCounts[slot] += tail.localizingCounts[slot]
      for language in 0..<min(languageMap.count, 64) where languageMap[language] < 64 {
        languageCounts[slot * 64 + languageMap[language]] +=
          tail.languageCounts[slot * 64 + language]
      }
    }
    // One copy of the tail's records, then their indices (and masks, when the tail numbered
    // its languages differently) fixed in place.
    let firstAppended = records.count
    records.append(contentsOf: tail.records)
    let sameLanguages = languageMap.indices.allSatisfy { languageMap[$0] == $0 }
    records.withUnsafeMutableBufferPointer { records in
      for position in firstAppended..<records.count {
        records[position].index += indexBase
        if !sameLanguages {
          let masks = records[position].languageMasks
          records[position].languageMasks = (remap(masks.0), remap(masks.1), remap(masks.2))
        }
      }
    }
    checkpoints += tail.checkpoints.map {
      LineIndex.Checkpoint(offset: $0.offset, line: $0.line + lineAtSplit - 1)
    }
    for var issue in tail.issues {
      issue.path = Self.shiftingTopIndex(issue.path, by: indexBase)
      for index in issue.related.indices {
        issue.related[index].path = Self.shiftingTopIndex(issue.related[index].path, by: indexBase)
      }
      issue.sequence += issues.count
      issues.append(issue)
    }
    // Each half listed up to the limit per code; keep the first ones of the whole.
    var listed = PerCodeLimit()
    issues = issues.sorted(by: { ($0.offset, $0.sequence) < ($1.offset, $1.sequence) })
      .filter { listed.admits($0.code, $0.severity) }
    for more in [tail.suppressed, listed.suppressed] {
      for (code, info) in more {
        suppressed[code, default: (0, info.severity)].count += info.count
      }
    }
  }

  /// `/12/title` → `/(12 + base)/title`; paths outside the array are unchanged.
  static func shiftingTopIndex(_ path: String, by base: Int) -> String {
    guard path.hasPrefix("/") else { return path }
    let rest = path.dropFirst()
    let digits = rest.prefix { $0.isASCII && $0.isNumber }
    guard let index = Int(digits),
      digits.count == rest.count || rest.dropFirst(digits.count).first == "/"
    else { return path }
    return "/\(index + base)" + rest.dropFirst(digits.count)
  }

  /// Whether the Roadmap package would reject the document.
  var rejectedByRoadmap: Bool {
    fatal || !topLevelIsArray || issues.contains { $0.rejectedByRoadmap }
  }

  /// The issues as diagnostics sorted by position, plus a note per code that went over the limit.
  static func diagnostics(
    _ issues: [Issue], suppressed: [String: (count: Int, severity: Severity)],
    in buffer: UnsafeBufferPointer<UInt8>, checkpoints: [LineIndex.Checkpoint] = []
  ) -> [Diagnostic] {
    var offsets: [Int] = []
    offsets.reserveCapacity(issues.count)
    for issue in issues {
      offsets.append(issue.offset)
      for related in issue.related {
        if let offset = related.offset { offsets.append(offset) }
      }
    }
    let locations = LineIndex.locations(of: offsets, in: buffer, checkpoints: checkpoints)
    var next = 0
    var result: [(diagnostic: Diagnostic, sequence: Int)] = []
    result.reserveCapacity(issues.count + suppressed.count)
    for (sequence, issue) in issues.enumerated() {
      let location = locations[next]
      next += 1
      var related: [RelatedLocation] = []
      for item in issue.related {
        var itemLocation = item.location ?? SourceLocation(line: 1, column: 1)
        if item.offset != nil {
          itemLocation = locations[next]
          next += 1
        }
        related.append(
          RelatedLocation(
            message: item.message, path: item.path, line: itemLocation.line,
            column: itemLocation.column, document: item.offset == nil ? item.document : .same))
      }
      result.append(
        (
          Diagnostic(
            code: issue.code, severity: issue.severity, message: issue.message, path: issue.path,
            line: location.line, column: location.column, related: related),
          sequence
        ))
    }
    result.sort {
      ($0.diagnostic.line, $0.diagnostic.column, $0.sequence)
        < ($1.diagnostic.line, $1.diagnostic.column, $1.sequence)
    }
    var diagnostics = result.map(\.diagnostic)
    let end =
      diagnostics.last.map { SourceLocation(line: $0.line, column: $0.column) }
      ?? SourceLocation(line: 1, column: 1)
    for (code, info) in suppressed.sorted(by: { $0.key < $1.key }) {
      diagnostics.append(
        Diagnostic(
          code: "diagnostics-truncated", severity: .info,
          message: "\(info.count) more \(info.severity.rawValue)s [\(code)] not listed "
            + "(only the first \(RoadmapParser.maxPerCode) of each code are)",
          path: "", line: end.line, column: end.column))
    }
    return diagnostics
  }
}

/// The second half's parse, handed between threads. The buffer outlives both parses (the
/// caller waits for the second before returning) and each half has its own parser.
private final class SecondHalf: @unchecked Sendable {
  let base: UnsafePointer<UInt8>
  let count: Int
  var outcome: ParseOutcome?

  init(base: UnsafePointer<UInt8>, count: Int) {
    self.base = base
    self.count = count
  }
}
