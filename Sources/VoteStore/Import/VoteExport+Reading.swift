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
  public static func read(_ bytes: [UInt8]) -> Result<VoteExport, VoteExportProblems> {
    var reader = ExportReader(bytes: bytes)
    let lines = LineTable(bytes)
    do throws(ExportJSONScanner.SyntaxError) {
      try reader.document()
    } catch {
      let position = lines.position(of: error.offset)
      return .failure(
        VoteExportProblems(problems: [
          ImportProblem(
            index: nil, counter: nil, path: "", line: position.line,
            column: position.column, message: "not valid JSON: \(error.message)")
        ]))
    }
    var found = reader.problems
    found += ExportRules.check(
      version: reader.version, voterKey: reader.voterKey, drafts: reader.drafts
    ).map { problem in
      var problem = problem
      if problem.index == nil, problem.offset == nil {
        problem.offset = reader.offsets[problem.path]
      }
      return problem
    }
    found = found.enumerated().sorted { a, b in
      (a.element.offset ?? 0, a.offset) < (b.element.offset ?? 0, b.offset)
    }.map(\.element)
    guard found.isEmpty, let version = reader.version else {
      return .failure(
        VoteExportProblems(problems: ExportRules.place(found, drafts: reader.drafts, lines: lines)))
    }
    let counters = reader.drafts.compactMap(\.counter)
    return .success(VoteExport(version: version, voterKey: reader.voterKey, counters: counters))
  }
}

/// Reads the export's shape into drafts, noting type problems, duplicates and unknown members.
private struct ExportReader {
  var scanner: ExportJSONScanner
  var version: Int?
  var voterKey: String?
  var drafts: [CounterDraft] = []
  var problems: [DraftProblem] = []
  /// Where top-level values were (`version`, `voterKey`).
  var offsets: [String: Int] = [:]

  init(bytes: [UInt8]) {
    scanner = ExportJSONScanner(bytes)
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
          drafts.append(try counter(index, &scanner))
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
