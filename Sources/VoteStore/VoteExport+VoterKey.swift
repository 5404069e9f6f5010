extension VoteExport {
  /// The export with every voter as the store keeps it: a version-1 export's clear ids hashed
  /// with `key`; a version-2 export's hashes accepted only when made with `key`. An export
  /// without any voter id has nothing to match: it is accepted whatever key it names. Call
  /// after ``validate()``.
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
    let hasVoters = counters.contains { !$0.voters.isEmpty }
    guard voterKey == key.fingerprint || !hasVoters else {
      throw Self.voterKeyMismatch(named: voterKey, store: key)
    }
    return result
  }

  /// The refusal of an export whose voter hashes were made with another key than the store's.
  static func voterKeyMismatch(named voterKey: String?, store key: VoterKey) -> VoteStoreError {
    VoteStoreError(
      .invalid,
      "the export's voter ids are hashes made with voter key \(voterKey ?? "(none named)"), "
        + "and this store's key is \(key.fingerprint): its voters could never be matched. "
        + "Give this store the key of the store the export came from, then import or restore again: "
        + "SQLite keeps it in the file votes.sqlite3-voter-key beside the database, "
        + "PostgreSQL in the table voter_key (the same 64 hex digits); a store takes a new "
        + "key only while it holds no voters. See docs/storage.md, 'Moving the voter key'.")
  }
}

extension CheckedVoteExport {
  /// What ``VoteExport/hashingVoters(with:)`` does, a counter at a time: the closure turns a
  /// counter's voters into what the store keeps (clear ids hashed with `key`, sorted); a
  /// version-2 export with voters is refused unless its hashes were made with `key`.
  func voterHashing(
    with key: VoterKey
  ) throws(VoteStoreError) -> @Sendable (VoteExport.Counter) -> VoteExport.Counter {
    if version == 1 {
      return { counter in
        var counter = counter
        counter.voters = counter.voters.map(key.hash).sorted()
        return counter
      }
    }
    guard voterKey == key.fingerprint || !hasVoters else {
      throw VoteExport.voterKeyMismatch(named: voterKey, store: key)
    }
    return { $0 }
  }
}
