extension VoteExport {
  /// The earliest timestamp an import accepts: 1970-01-01T00:00:00Z.
  public static let earliestTimestamp: Int64 = 0
  /// The latest timestamp an import accepts: 9999-12-31T23:59:59.999Z (RFC 3339's last).
  public static let latestTimestamp: Int64 = 253_402_300_799_999

  /// Every problem that keeps this export from being imported, checked by the same rules a
  /// live write applies (see ``read(_:)`` for the rules); empty when it may be imported.
  public func problems() -> [ImportProblem] {
    var found = ExportRules.check(version: version, voterKey: voterKey)
    var duplicates = DuplicateCounters()
    var labels: [Int: String] = [:]
    for (index, counter) in counters.enumerated() {
      let draft = CounterDraft(index: index, counter)
      let before = found.count
      found += ExportRules.check(draft, hashes: version == 2)
      if let twice = duplicates.note(draft) { found.append(twice) }
      if found.count > before { labels[index] = draft.label }
    }
    return ExportRules.place(found, labels: { labels[$0] }, lines: nil as LineTable<[UInt8]>?)
  }

  /// Throws ``VoteStoreError/Kind/invalid`` listing the problems (the first ten) when the
  /// export may not be imported.
  func validate() throws(VoteStoreError) {
    let problems = problems()
    guard !problems.isEmpty else { return }
    var message = "\(problems.count) problem\(problems.count == 1 ? "" : "s"), nothing imported: "
    message += problems.prefix(10).map(\.description).joined(separator: "; ")
    if problems.count > 10 { message += "; …" }
    throw VoteStoreError(.invalid, message)
  }
}

/// The import rules, once: the same limits a live write applies.
enum ExportRules {
  /// The problems of the document's own members (`version`, `voterKey`).
  static func check(version: Int?, voterKey: String?) -> [DraftProblem] {
    var problems: [DraftProblem] = []
    if let version, version != 1 && version != 2 {
      problems.append(
        DraftProblem(
          index: nil, path: "version", offset: nil,
          message: "unsupported export version \(version) (this build reads 1 and 2)"))
    }
    if version == 2 {
      if let voterKey {
        if voterKey.utf8.count != 16
          || !voterKey.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        {
          problems.append(
            DraftProblem(
              index: nil, path: "voterKey", offset: nil,
              message:
                "\"\(CounterNames.display(voterKey))\" is not a voter key fingerprint (16 hex digits)"
            ))
        }
      } else {
        problems.append(
          DraftProblem(
            index: nil, path: "voterKey", offset: nil,
            message: "a version-2 export must name its voter key (\"voterKey\")"))
      }
    }
    return problems
  }

  /// One counter's problems.
  static func check(_ draft: CounterDraft, hashes: Bool) -> [DraftProblem] {
    var problems: [DraftProblem] = []
    func add(_ path: String, _ message: String) {
      guard !draft.settled.contains(path) else { return }
      problems.append(
        DraftProblem(index: draft.index, path: path, offset: draft.offsets[path], message: message))
    }
    if let namespace = draft.namespace, !CounterNames.isValidName(namespace) {
      add(
        "record.namespace",
        "\"\(CounterNames.display(namespace))\" is not a valid name: use 3 to 64 of A-Z a-z 0-9 _ "
          + "- . (not dots only)")
    }
    // A key is what any of the store's writes can make: a VoteFirst feature's key holds its
    // ref (`featurea/b`) or is U+001F + vf + its id, not only a countapi name.
    if let key = draft.key, let problem = CounterNames.keyProblem(key) {
      add("record.key", "\"\(CounterNames.display(key))\" \(problem)")
    }
    if let imported = draft.imported, !(0...CounterLimits.maximum).contains(imported) {
      add(
        "imported",
        "\(imported) is out of range: an imported count must be 0 to \(CounterLimits.maximum)")
    }
    if let value = draft.value, !(0...CounterLimits.maximum).contains(value) {
      add("record.value", "\(value) is out of range: a count must be 0 to \(CounterLimits.maximum)")
    }
    if let id = draft.id, !(0...CounterLimits.maximum).contains(id) {
      add(
        "record.id",
        "\(id) is out of range: an id must be 0 (a new one) to \(CounterLimits.maximum)")
    }
    let bounds = [
      ("record.updateLowerBound", draft.updateLowerBound),
      ("record.updateUpperBound", draft.updateUpperBound),
    ]
    var boundsOK = true
    for (path, bound) in bounds {
      if let bound, !CounterLimits.contains(bound) {
        boundsOK = false
        add(path, "\(bound) is out of range: a bound must be within ±\(CounterLimits.maximum)")
      }
    }
    if boundsOK, let lower = draft.updateLowerBound, let upper = draft.updateUpperBound,
      lower > upper
    {
      add("record.updateLowerBound", "the lower bound \(lower) is above the upper bound \(upper)")
    }
    for (path, time) in [
      ("record.createdAt", draft.createdAt), ("record.updatedAt", draft.updatedAt),
    ] {
      if let time, !(VoteExport.earliestTimestamp...VoteExport.latestTimestamp).contains(time) {
        add(
          path,
          "\(time) is out of range: a time must be milliseconds from 1970 to the end of 9999 "
            + "(0 to \(VoteExport.latestTimestamp))")
      }
    }
    if let voters = draft.voters, !draft.settled.contains("voters") {
      var seen: [String: Int] = [:]
      for (position, voter) in voters.enumerated() {
        let path = "voters[\(position)]"
        let offset = position < draft.voterOffsets.count ? draft.voterOffsets[position] : nil
        func voterProblem(_ message: String) {
          problems.append(
            DraftProblem(index: draft.index, path: path, offset: offset, message: message))
        }
        if hashes {
          if !VoterKey.isHash(voter) {
            voterProblem(
              "\"\(CounterNames.display(voter))\" is not a voter hash (64 lowercase hex digits; a "
                + "version-2 export carries hashes)")
          }
        } else if !CounterNames.isValidVoter(voter) {
          voterProblem(
            "\"\(CounterNames.display(voter))\" is not a valid voter id: use 1 to "
              + "\(CounterNames.maximumVoterLength) of A-Z a-z 0-9 _ - . : @ + = /")
        }
        if let first = seen[voter] {
          voterProblem("this voter appears twice (first as voters[\(first)])")
        } else {
          seen[voter] = position
        }
      }
      if let value = draft.value, !draft.settled.contains("record.value"),
        (0...CounterLimits.maximum).contains(value), Int64(voters.count) > value
      {
        add("voters", "\(voters.count) voters hold a vote, but the count is \(value)")
      }
    }
    return problems
  }

  /// The problems as ``ImportProblem``s, with line and column when `lines` is given.
  static func place<Bytes>(
    _ problems: [DraftProblem], labels: (Int) -> String?, lines: LineTable<Bytes>?
  ) -> [ImportProblem] {
    // All positions in one call: one pass over a line however many problems it holds.
    let positions = lines?.positions(of: problems.map { $0.offset ?? 0 })
    return problems.enumerated().map { number, problem in
      var path = problem.path
      var label: String?
      if let index = problem.index {
        path = "counters[\(index)]" + (path.isEmpty ? "" : "." + path)
        label = labels(index)
      }
      let position = problem.offset == nil ? nil : positions?[number]
      return ImportProblem(
        index: problem.index, counter: label, path: path, line: position?.line,
        column: position?.column, message: problem.message)
    }
  }
}

/// The counters read so far by namespace and key, to find one that appears twice.
///
/// Names compare by their bytes, as the stores compare them: a key in another Unicode form
/// (`featureé` precomposed, or with e + U+0301) is another counter, which a store made before
/// such refs were refused may hold and export (it is not the same counter twice).
struct DuplicateCounters {
  private var firstIndex: [ExactText: [ExactText: Int]] = [:]

  /// The problem of `draft` when an earlier counter has its namespace and key; else notes them.
  mutating func note(_ draft: CounterDraft) -> DraftProblem? {
    guard let namespace = draft.namespace, let key = draft.key else { return nil }
    let exactNamespace = ExactText(namespace)
    let exactKey = ExactText(key)
    if let first = firstIndex[exactNamespace]?[exactKey] {
      return DraftProblem(
        index: draft.index, path: "record.key", offset: draft.offsets["record.key"],
        message: "the counter appears twice (first as counters[\(first)])")
    }
    firstIndex[exactNamespace, default: [:]][exactKey] = draft.index
    return nil
  }

  /// Every key noted, by namespace.
  var keysByNamespace: [String: [String]] {
    var keys: [String: [String]] = [:]
    for (namespace, byKey) in firstIndex {
      keys[namespace.text, default: []] += byKey.keys.map(\.text)
    }
    return keys
  }
}
