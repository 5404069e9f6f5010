import CLazyLibraries

/// The system libraries the stores call, loaded on first use (CLazyLibraries): a process that
/// opens no store never maps them. Opening a connection loads them first, so a library that
/// is missing is a store error naming it instead of a crash at the first call.
enum SystemLibraries {
  /// Loads SQLite and libcrypto (voter ids are hashed with it).
  static func requireSQLite() throws(VoteStoreError) {
    try require(rb_sqlite3_load)
    try require(rb_crypto_load)
  }

  /// Loads libpq and libcrypto.
  static func requirePostgres() throws(VoteStoreError) {
    try require(rb_pq_load)
    try require(rb_crypto_load)
  }

  private static func require(
    _ load: (UnsafeMutablePointer<CChar>?, Int) -> Int32
  ) throws(VoteStoreError) {
    let capacity = 1024
    let message = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
    defer { message.deallocate() }
    message.initialize(to: 0)
    guard load(message, capacity) == 0 else { return }
    throw VoteStoreError(.io, String(cString: message))
  }
}
