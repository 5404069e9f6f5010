extension SQLiteCounterTable {
  /// Records which key the stored voter hashes were made with (`meta.voter_key`).
  func recordVoterKey(_ key: VoterKey) throws(VoteStoreError) {
    try db.statement(
      """
      INSERT INTO meta (name, value) VALUES ('voter_key', ?1)
      ON CONFLICT (name) DO UPDATE SET value = excluded.value
      """
    ).run([.integer(key.fingerprintNumber)])
  }

  /// The fingerprint of the key the stored hashes were made with, if recorded.
  func recordedVoterKey() throws(VoteStoreError) -> String? {
    try db.statement("SELECT value FROM meta WHERE name = 'voter_key'")
      .firstRow { VoterKey.fingerprint(fromNumber: $0.int64(0)) }
  }

  /// How many voter rows the store holds.
  func voterCount() throws(VoteStoreError) -> Int64 {
    try db.statement("SELECT count(*) FROM voters").firstRow { $0.int64(0) } ?? 0
  }
}
