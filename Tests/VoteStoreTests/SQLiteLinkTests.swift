import Testing
import VoteStore

@Suite struct SQLiteLinkTests {
  /// `RETURNING` (used for atomic increments) needs SQLite 3.35 or newer.
  @Test func linkedSQLiteSupportsReturning() {
    let parts = sqliteLibraryVersion.split(separator: ".").compactMap { Int($0) }
    #expect(parts.count >= 2)
    #expect(parts[0] > 3 || (parts[0] == 3 && parts[1] >= 35))
  }
}
