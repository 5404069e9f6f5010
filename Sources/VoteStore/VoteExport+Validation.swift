extension VoteExport {
  /// Checks an export before it is imported; throws ``VoteStoreError/Kind/invalid`` naming
  /// the first problem (wrong version, empty names, negative values, a duplicated counter).
  func validate() throws(VoteStoreError) {
    guard version == 1 || version == 2 else {
      throw VoteStoreError(.invalid, "unsupported export version \(version) (expected 1 or 2)")
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

extension VoteExport {
  /// The export with every voter as the store keeps it: a version-1 export's clear ids hashed
  /// with `key`; a version-2 export's hashes checked to be made with `key`.
  func hashingVoters(with key: VoterKey) throws(VoteStoreError) -> VoteExport {
    var result = self
    result.version = VoteExport.currentVersion
    result.voterKey = key.fingerprint
    if version == 1 {
      for index in result.counters.indices {
        result.counters[index].voters = result.counters[index].voters.map(key.hash).sorted()
      }
      return result
    }
    guard voterKey == key.fingerprint else {
      throw VoteStoreError(
        .invalid,
        "the export's voter ids are hashes made with voter key \(voterKey ?? "(none named)"), "
          + "and this store's key is \(key.fingerprint): its voters could never be matched. "
          + "Give this store the key of the store the export came from, then import again: "
          + "SQLite keeps it in the file votes.sqlite3-voter-key beside the database, "
          + "PostgreSQL in the table voter_key (the same 64 hex digits); a store takes a new "
          + "key only while it holds no voters. See docs/storage.md, 'Moving the voter key'.")
    }
    for (index, counter) in counters.enumerated() {
      if let bad = counter.voters.first(where: { !VoterKey.isHash($0) }) {
        throw VoteStoreError(
          .invalid,
          "counters[\(index)] (\(counter.record.namespace)/\(counter.record.key)): voter "
            + "\"\(bad.prefix(80))\" is not a voter hash (64 lowercase hex digits)")
      }
    }
    return result
  }
}
