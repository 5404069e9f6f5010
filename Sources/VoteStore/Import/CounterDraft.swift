/// One exported counter as read, field by field, with where each value was, so that the
/// import rules can report every problem with its position (or without one, for an export
/// built in code).
struct CounterDraft {
  /// The counter's index in `counters`.
  var index: Int
  var id: Int64?
  var namespace: String?
  var key: String?
  var value: Int64?
  var enableReset: Bool?
  var updateLowerBound: Int64?
  var updateUpperBound: Int64?
  var createdAt: Int64?
  var updatedAt: Int64?
  var voters: [String]?
  /// What the last import set (`imported`, optional; nil also for `null`).
  var imported: Int64?
  /// Where each voter was (parallel to `voters`; empty without a file).
  var voterOffsets: [Int] = []
  /// Where each value was, by path below the counter (`record.value`, `voters`).
  var offsets: [String: Int] = [:]
  /// Where the counter's object began.
  var offset: Int?
  /// Paths already reported (a wrong type, a number out of any range): not checked again.
  var settled: Set<String> = []

  init(index: Int) {
    self.index = index
  }

  /// The draft of a counter built in code.
  init(index: Int, _ counter: VoteExport.Counter) {
    self.index = index
    let record = counter.record
    id = record.id
    namespace = record.namespace
    key = record.key
    value = record.value
    enableReset = record.enableReset
    updateLowerBound = record.updateLowerBound
    updateUpperBound = record.updateUpperBound
    createdAt = record.createdAt
    updatedAt = record.updatedAt
    voters = counter.voters
    imported = counter.imported
  }

  /// `namespace/key`, shortened and escaped, when both were read.
  var label: String? {
    guard let namespace, let key else { return nil }
    return CounterNames.display(namespace, limit: 64) + "/" + CounterNames.display(key, limit: 64)
  }

  /// The counter, when every field was read.
  var counter: VoteExport.Counter? {
    guard let id, let namespace, let key, let value, let enableReset, let updateLowerBound,
      let updateUpperBound, let createdAt, let updatedAt, let voters
    else { return nil }
    return VoteExport.Counter(
      record: CounterRecord(
        id: id, namespace: namespace, key: key, value: value, enableReset: enableReset,
        updateLowerBound: updateLowerBound, updateUpperBound: updateUpperBound,
        createdAt: createdAt, updatedAt: updatedAt),
      voters: voters, imported: imported)
  }
}

/// A problem before it is placed: which counter, which path below it, which byte offset.
struct DraftProblem {
  var index: Int?
  var path: String
  var offset: Int?
  var message: String
}
