extension VoteExport {
  /// Checks an export before it is imported; throws ``VoteStoreError/Kind/invalid`` naming
  /// the first problem (wrong version, empty names, negative values, a duplicated counter).
  func validate() throws(VoteStoreError) {
    guard version == 1 else {
      throw VoteStoreError(.invalid, "unsupported export version \(version) (expected 1)")
    }
    var seen = Set<[String]>()
    for (index, counter) in counters.enumerated() {
      let record = counter.record
      let name = "counters[\(index)] (\(record.namespace)/\(record.key))"
      if record.namespace.isEmpty || record.key.isEmpty {
        throw VoteStoreError(.invalid, "\(name): namespace and key must not be empty")
      }
      if record.value < 0 {
        throw VoteStoreError(.invalid, "\(name): value \(record.value) is below zero")
      }
      if !seen.insert([record.namespace, record.key]).inserted {
        throw VoteStoreError(.invalid, "\(name): the counter appears twice")
      }
    }
  }
}
