extension VoteExport {
  /// Reads an export file and checks it by the rules a live write applies; returns the
  /// export, or every problem found (nothing may then be imported).
  ///
  /// The reader is strict JSON (RFC 8259) of its own, so it can report what a generic decoder
  /// cannot: a duplicated member (`"value":1,"value":999`), a number too large for any
  /// integer (reported as out of range, not as bad JSON), unknown members, and the line and
  /// column of each. The rules: names `^[A-Za-z0-9_\-.]{3,64}$` and not dots only; a count
  /// 0…2^53−1, bounds within ±(2^53−1) and lower ≤ upper; ids 0…2^53−1; times 1970…9999;
  /// voter ids as `X-Voter-ID` accepts them (version 1) or voter hashes (version 2), no voter
  /// twice, no more voters than the count; no counter twice. A syntax error stops the reading
  /// (one problem); every other problem of every counter is reported.
  ///
  /// A large file is better read with ``check(_:range:keepingKeys:)``, which keeps no counter
  /// in memory.
  public static func read(_ bytes: [UInt8]) -> Result<VoteExport, VoteExportProblems> {
    let checked: CheckedVoteExport
    switch check(ExportFileBytes(bytes)) {
    case .failure(let problems): return .failure(problems)
    case .success(let found): checked = found
    }
    var counters: [Counter] = []
    counters.reserveCapacity(checked.count)
    do throws(VoteStoreError) {
      try checked.forEachCounter { counters.append($0) }
    } catch {
      // The bytes of an array cannot change between the two readings.
      return .failure(
        VoteExportProblems(problems: [
          ImportProblem(index: nil, counter: nil, path: "", message: error.message)
        ]))
    }
    return .success(
      VoteExport(version: checked.version, voterKey: checked.voterKey, counters: counters))
  }

  /// Checks the export in `file` (or in its bytes `range`, an export inside a larger document)
  /// by the rules of ``read(_:)``, reporting the same problems, without keeping its counters:
  /// memory holds each namespace's keys (to find a counter twice), not the file or its
  /// counters, and the pages read are handed back as the reading goes. The counters are read
  /// again, one at a time, by ``CheckedVoteExport/forEachCounter(_:)`` (what the stores'
  /// ``VoteStore/importAll(_:replace:)-(CheckedVoteExport,_)`` does, in its transaction).
  ///
  /// - Parameters:
  ///   - file: the bytes.
  ///   - range: where the export is in `file`; nil: all of it.
  ///   - keepingKeys: whether the result keeps every counter's key by namespace
  ///     (``CheckedVoteExport/keysByNamespace``; `restore` asks the store for them).
  /// - Returns: the checked export, or every problem with its line and column in `range`.
  public static func check(
    _ file: ExportFileBytes, range: Range<Int>? = nil, keepingKeys: Bool = false
  ) -> Result<CheckedVoteExport, VoteExportProblems> {
    let range = range ?? 0..<file.count
    return file.withUnsafeBytes(in: range) { bytes in
      func reading(hashes: Bool?) throws(ExportJSONScanner.SyntaxError) -> ExportReader {
        var reader = ExportReader(bytes: bytes, mode: .check(hashes: hashes))
        reader.release = { file.releasePages(range.lowerBound..<range.lowerBound + $0) }
        try reader.document()
        return reader
      }
      let reader: ExportReader
      do throws(ExportJSONScanner.SyntaxError) {
        let first = try reading(hashes: nil)
        // Read again with the version's voter rule when the guess was wrong (or kept too much).
        reader = first.guessHeld ? first : try reading(hashes: first.version == 2)
      } catch {
        let position = LineTable(bytes).position(of: error.offset)
        return .failure(
          VoteExportProblems(problems: [
            ImportProblem(
              index: nil, counter: nil, path: "", line: position.line,
              column: position.column, message: "not valid JSON: \(error.message)")
          ]))
      }
      let found = reader.checkedProblems()
      guard found.isEmpty, let version = reader.version else {
        let labels = Dictionary(
          reader.retained.map { ($0.index, $0.label) }, uniquingKeysWith: { first, _ in first })
        return .failure(
          VoteExportProblems(
            problems: ExportRules.place(
              found, labels: { labels[$0] ?? nil }, lines: LineTable(bytes))))
      }
      return .success(
        CheckedVoteExport(
          file: file, range: range, version: version, voterKey: reader.voterKey,
          count: reader.count, hasVoters: reader.hasVoters,
          keysByNamespace: keepingKeys ? reader.duplicates.keysByNamespace : [:]))
    }
  }
}

/// An export checked by ``VoteExport/check(_:range:keepingKeys:)``: what its document says,
/// and its counters, read again from the file one at a time.
public struct CheckedVoteExport: Sendable {
  /// The export's version (1: clear voter ids, 2: hashes).
  public let version: Int
  /// The fingerprint of the voter key the hashes were made with (version 2).
  public let voterKey: String?
  /// How many counters it holds.
  public let count: Int
  /// Whether any counter has a voter id.
  public let hasVoters: Bool
  /// Every counter's key by namespace, when asked for.
  public let keysByNamespace: [String: [String]]
  let file: ExportFileBytes
  let range: Range<Int>

  init(
    file: ExportFileBytes, range: Range<Int>, version: Int, voterKey: String?, count: Int,
    hasVoters: Bool, keysByNamespace: [String: [String]]
  ) {
    self.file = file
    self.range = range
    self.version = version
    self.voterKey = voterKey
    self.count = count
    self.hasVoters = hasVoters
    self.keysByNamespace = keysByNamespace
  }

  /// Reads the counters again and hands each to `body`, in file order, holding one at a time.
  /// A file that no longer reads as it did when checked (rewritten in between) throws
  /// `.invalid`; so does anything `body` throws (the caller's transaction then writes nothing).
  public func forEachCounter(
    _ body: (VoteExport.Counter) throws(VoteStoreError) -> Void
  ) throws(VoteStoreError) {
    let changed = VoteStoreError(
      .invalid, "the export changed while it was being read; nothing was imported")
    let outcome = withoutActuallyEscaping(body) { body in
      file.withUnsafeBytes(in: range) { bytes -> VoteStoreError? in
        var reader = ExportReader(bytes: bytes, mode: .emit(hashes: version == 2, body))
        reader.release = { file.releasePages(range.lowerBound..<range.lowerBound + $0) }
        do throws(ExportJSONScanner.SyntaxError) {
          try reader.document()
        } catch {
          return reader.sinkError ?? changed
        }
        guard reader.problems.isEmpty, reader.version == version, reader.voterKey == voterKey,
          reader.count == count
        else { return changed }
        return nil
      }
    }
    if let outcome { throw outcome }
  }

  /// Every counter in memory (small exports, stores without a streaming import).
  public func materialized() throws(VoteStoreError) -> VoteExport {
    var counters: [VoteExport.Counter] = []
    counters.reserveCapacity(count)
    try forEachCounter { counters.append($0) }
    return VoteExport(version: version, voterKey: voterKey, counters: counters)
  }
}

/// Reads the export's shape into drafts, noting type problems, duplicates and unknown members.
///
/// Each counter is checked as soon as it is read and then dropped: only the drafts that may
/// have a problem are kept (``retained``), to be checked again once the document's version is
/// known (it comes after the counters in the files `votes export` writes).
private struct ExportReader {
  /// What the reader does with each counter.
  enum Mode {
    /// Checks it (the first reading), with the voter rule of version 2 (`hashes`) or 1; nil:
    /// not known yet (the version comes after the counters in the files `votes export`
    /// writes), so the first counter with voters chooses the rule, and ``guessHeld`` says
    /// whether the version then agreed.
    case check(hashes: Bool?)
    /// Hands it to the closure, once checked with the version (`hashes`: version 2).
    case emit(hashes: Bool, (VoteExport.Counter) throws(VoteStoreError) -> Void)
  }

  var scanner: ExportJSONScanner
  let mode: Mode
  var version: Int?
  var voterKey: String?
  var problems: [DraftProblem] = []
  /// Where top-level values were (`version`, `voterKey`).
  var offsets: [String: Int] = [:]
  /// How many counters were read.
  var count = 0
  /// Whether any counter has a voter.
  var hasVoters = false
  /// The drafts that have, or may have once the version is known, a problem.
  var retained: [CounterDraft] = []
  /// Each namespace's keys so far, and the counters found twice.
  var duplicates = DuplicateCounters()
  var duplicateProblems: [Int: DraftProblem] = [:]
  /// The voter rule the check applies (see ``Mode/check(hashes:)``).
  private var hashes: Bool?
  /// Whether the rule was guessed and too many drafts were kept under it.
  private var overflowed = false
  /// The most drafts kept while the voter rule is a guess (a wrong guess keeps every counter
  /// with voters; the file is then read again with the version's rule).
  static let retainedWhileGuessing = 10_000

  /// Whether the reading's voter rule was the version's (given, or guessed right), so its
  /// problems are the document's.
  var guessHeld: Bool {
    guard case .check(let given) = mode, given == nil else { return true }
    return !overflowed && (hashes == nil || hashes == (version == 2))
  }

  /// What `emit`'s closure threw.
  var sinkError: VoteStoreError?
  /// Hands back the pages before an offset (see ``ExportFileBytes/releasePages(_:)``).
  var release: (Int) -> Void = { _ in }
  private var released = 0

  init(bytes: UnsafeBufferPointer<UInt8>, mode: Mode) {
    scanner = ExportJSONScanner(bytes)
    self.mode = mode
    if case .check(let given) = mode { hashes = given }
  }

  /// Every problem of a document read in `check` mode, in the order ``ExportRules`` gives
  /// them for an export built in code (then sorted by where they are).
  func checkedProblems() -> [DraftProblem] {
    var found = problems
    found += ExportRules.check(version: version, voterKey: voterKey).map { problem in
      var problem = problem
      if problem.offset == nil { problem.offset = offsets[problem.path] }
      return problem
    }
    for draft in retained {
      found += ExportRules.check(draft, hashes: version == 2)
      if let twice = duplicateProblems[draft.index] { found.append(twice) }
    }
    return found.enumerated().sorted { a, b in
      (a.element.offset ?? 0, a.offset) < (b.element.offset ?? 0, b.offset)
    }.map(\.element)
  }

  /// Checks a counter just read (and, emitting, hands it on) and drops it.
  private mutating func finish(
    _ draft: CounterDraft, hadProblems: Bool, end: Int
  ) throws(ExportJSONScanner.SyntaxError) {
    count += 1
    switch mode {
    case .check(let given):
      if let voters = draft.voters, !voters.isEmpty {
        hasVoters = true
        if hashes == nil { hashes = voters.allSatisfy(VoterKey.isHash) }
      }
      let twice = duplicates.note(draft)
      if let twice { duplicateProblems[draft.index] = twice }
      if hadProblems || twice != nil || !ExportRules.check(draft, hashes: hashes ?? false).isEmpty {
        if given != nil || retained.count < Self.retainedWhileGuessing {
          retained.append(draft)
        } else {
          overflowed = true
        }
      }
    case .emit(let hashes, let body):
      guard !hadProblems, ExportRules.check(draft, hashes: hashes).isEmpty,
        let counter = draft.counter
      else {
        throw ExportJSONScanner.SyntaxError(offset: end, message: "changed")
      }
      do throws(VoteStoreError) {
        try body(counter)
      } catch {
        sinkError = error
        throw ExportJSONScanner.SyntaxError(offset: end, message: "stopped")
      }
    }
    if end - released >= ExportFileBytes.releaseStep {
      release(end)
      released = end
    }
  }

  mutating func document() throws(ExportJSONScanner.SyntaxError) {
    let (top, offset) = try scanner.value()
    guard case .object = top else {
      problems.append(
        DraftProblem(
          index: nil, path: "the top level", offset: offset,
          message: "expected an object ({\"version\":2,\"voterKey\":…,\"counters\":[…]}), "
            + "found \(top.noun)"))
      try skipRest(top)
      return
    }
    var seen: [String: Int] = [:]
    var sawCounters = false
    var scanner = self.scanner
    try scanner.object { scanner, name, keyOffset throws(ExportJSONScanner.SyntaxError) in
      if let first = seen[name] {
        problems.append(duplicate(name, path: name, at: keyOffset, first: first, index: nil))
        try scanner.skipValue()
        return
      }
      seen[name] = keyOffset
      switch name {
      case "version":
        let (value, at) = try scanner.value()
        offsets["version"] = at
        if let number = integer(value, path: "version", at: at, index: nil, skip: &scanner) {
          version = Int(exactly: number) ?? -1
        }
      case "voterKey":
        let (value, at) = try scanner.value()
        offsets["voterKey"] = at
        switch value {
        case .string(let text): voterKey = text
        case .null: break
        default:
          problems.append(mismatch("voterKey", "a string", value, at, nil))
          try skip(value, &scanner)
        }
      case "counters":
        sawCounters = true
        let (value, at) = try scanner.value()
        guard case .array = value else {
          problems.append(mismatch("counters", "an array", value, at, nil))
          try skip(value, &scanner)
          return
        }
        try scanner.array { scanner, index throws(ExportJSONScanner.SyntaxError) in
          let before = problems.count
          let draft = try counter(index, &scanner)
          try finish(draft, hadProblems: problems.count > before, end: scanner.offset)
        }
      default:
        problems.append(
          DraftProblem(
            index: nil, path: name, offset: keyOffset,
            message: "unknown member \"\(CounterNames.display(name))\" "
              + "(an export has version, voterKey and counters)"))
        try scanner.skipValue()
      }
    }
    if seen["version"] == nil {
      problems.append(
        DraftProblem(
          index: nil, path: "the top level", offset: offset,
          message: "the member \"version\" is missing"))
    }
    if !sawCounters {
      problems.append(
        DraftProblem(
          index: nil, path: "the top level", offset: offset,
          message: "the member \"counters\" is missing"))
    }
    guard scanner.atEnd() else {
      throw ExportJSONScanner.SyntaxError(
        offset: scanner.offset, message: "more text after the document")
    }
    self.scanner = scanner
  }

  private mutating func counter(
    _ index: Int, _ scanner: inout ExportJSONScanner
  ) throws(ExportJSONScanner.SyntaxError) -> CounterDraft {
    var draft = CounterDraft(index: index)
    let (value, at) = try scanner.value()
    draft.offset = at
    guard case .object = value else {
      problems.append(mismatch("", "an object", value, at, index))
      try skip(value, &scanner)
      draft.settled = ["record", "voters"]
      return draft
    }
    var seen: [String: Int] = [:]
    try scanner.object { scanner, name, keyOffset throws(ExportJSONScanner.SyntaxError) in
      if let first = seen[name] {
        problems.append(duplicate(name, path: name, at: keyOffset, first: first, index: index))
        try scanner.skipValue()
        return
      }
      seen[name] = keyOffset
      switch name {
      case "record": try record(&draft, &scanner)
      case "voters": try voters(&draft, &scanner)
      case "imported":
        let (value, valueAt) = try scanner.value()
        draft.offsets[name] = valueAt
        if case .null = value { return }
        guard let number = integer(value, path: name, at: valueAt, index: index, skip: &scanner)
        else {
          draft.settled.insert(name)
          return
        }
        draft.imported = number
      default:
        problems.append(
          DraftProblem(
            index: index, path: name, offset: keyOffset,
            message: "unknown member \"\(CounterNames.display(name))\" "
              + "(a counter has record, voters and, optionally, imported)"))
        try scanner.skipValue()
      }
    }
    for name in ["record", "voters"] where seen[name] == nil {
      problems.append(
        DraftProblem(
          index: index, path: name, offset: at, message: "the member \"\(name)\" is missing"))
    }
    return draft
  }

  private static let recordMembers = [
    "id", "namespace", "key", "value", "enableReset", "updateLowerBound", "updateUpperBound",
    "createdAt", "updatedAt",
  ]

  private mutating func record(
    _ draft: inout CounterDraft, _ scanner: inout ExportJSONScanner
  ) throws(ExportJSONScanner.SyntaxError) {
    let index = draft.index
    let (value, at) = try scanner.value()
    guard case .object = value else {
      problems.append(mismatch("record", "an object", value, at, index))
      try skip(value, &scanner)
      return
    }
    var seen: [String: Int] = [:]
    try scanner.object { scanner, name, keyOffset throws(ExportJSONScanner.SyntaxError) in
      let path = "record." + name
      if let first = seen[name] {
        problems.append(duplicate(name, path: path, at: keyOffset, first: first, index: index))
        draft.settled.insert(path)
        try scanner.skipValue()
        return
      }
      seen[name] = keyOffset
      guard Self.recordMembers.contains(name) else {
        problems.append(
          DraftProblem(
            index: index, path: path, offset: keyOffset,
            message: "unknown member \"\(CounterNames.display(name))\""))
        try scanner.skipValue()
        return
      }
      let (value, valueAt) = try scanner.value()
      draft.offsets[path] = valueAt
      switch name {
      case "namespace", "key":
        guard case .string(let text) = value else {
          problems.append(mismatch(path, "a string", value, valueAt, index))
          draft.settled.insert(path)
          try skip(value, &scanner)
          return
        }
        if name == "namespace" { draft.namespace = text } else { draft.key = text }
      case "enableReset":
        guard case .bool(let flag) = value else {
          problems.append(mismatch(path, "true or false", value, valueAt, index))
          draft.settled.insert(path)
          try skip(value, &scanner)
          return
        }
        draft.enableReset = flag
      default:
        guard let number = integer(value, path: path, at: valueAt, index: index, skip: &scanner)
        else {
          draft.settled.insert(path)
          return
        }
        switch name {
        case "id": draft.id = number
        case "value": draft.value = number
        case "updateLowerBound": draft.updateLowerBound = number
        case "updateUpperBound": draft.updateUpperBound = number
        case "createdAt": draft.createdAt = number
        default: draft.updatedAt = number
        }
      }
    }
    for name in Self.recordMembers where seen[name] == nil {
      problems.append(
        DraftProblem(
          index: index, path: "record", offset: at, message: "the member \"\(name)\" is missing"))
    }
  }

  private mutating func voters(
    _ draft: inout CounterDraft, _ scanner: inout ExportJSONScanner
  ) throws(ExportJSONScanner.SyntaxError) {
    let index = draft.index
    let (value, at) = try scanner.value()
    draft.offsets["voters"] = at
    guard case .array = value else {
      problems.append(mismatch("voters", "an array of strings", value, at, index))
      draft.settled.insert("voters")
      try skip(value, &scanner)
      return
    }
    var voters: [String] = []
    var offsets: [Int] = []
    var allStrings = true
    try scanner.array { scanner, position throws(ExportJSONScanner.SyntaxError) in
      let (element, elementAt) = try scanner.value()
      guard case .string(let text) = element else {
        problems.append(mismatch("voters[\(position)]", "a string", element, elementAt, index))
        allStrings = false
        try skip(element, &scanner)
        return
      }
      voters.append(text)
      offsets.append(elementAt)
    }
    if !allStrings { draft.settled.insert("voters") }
    draft.voters = voters
    draft.voterOffsets = offsets
  }

  // MARK: Helpers

  /// An integer value, or nil after reporting why it is not one (and consuming it).
  private mutating func integer(
    _ value: ExportJSONScanner.Value, path: String, at offset: Int, index: Int?,
    skip scanner: inout ExportJSONScanner
  ) -> Int64? {
    guard case .number(let literal) = value else {
      problems.append(mismatch(path, "an integer", value, offset, index))
      try? skip(value, &scanner)
      return nil
    }
    if let number = Int64(literal) { return number }
    let shown = literal.count > 40 ? String(literal.prefix(40)) + "…" : literal
    let isWhole = !literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
    problems.append(
      DraftProblem(
        index: index, path: path, offset: offset,
        message: isWhole
          ? "\(shown) is out of range: numbers must be within ±\(CounterLimits.maximum) (2^53−1)"
          : "\(shown) is not a whole number"))
    return nil
  }

  private func skip(
    _ value: ExportJSONScanner.Value, _ scanner: inout ExportJSONScanner
  ) throws(ExportJSONScanner.SyntaxError) {
    switch value {
    case .object, .array:
      try scanner.skipCompound(value)
    default: break
    }
  }

  private mutating func skipRest(
    _ top: ExportJSONScanner.Value
  ) throws(ExportJSONScanner.SyntaxError) {
    var scanner = self.scanner
    try skip(top, &scanner)
    guard scanner.atEnd() else {
      throw ExportJSONScanner.SyntaxError(
        offset: scanner.offset, message: "more text after the document")
    }
    self.scanner = scanner
  }

  private func mismatch(
    _ path: String, _ expected: String, _ found: ExportJSONScanner.Value, _ offset: Int,
    _ index: Int?
  ) -> DraftProblem {
    DraftProblem(
      index: index, path: path.isEmpty ? "" : path, offset: offset,
      message: "expected \(expected), found \(found.noun)")
  }

  private func duplicate(
    _ name: String, path: String, at offset: Int, first: Int, index: Int?
  ) -> DraftProblem {
    DraftProblem(
      index: index, path: path, offset: offset,
      message: "the member \"\(CounterNames.display(name))\" appears twice "
        + "(JSON leaves which one counts open)")
  }
}
