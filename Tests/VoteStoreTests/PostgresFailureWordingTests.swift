import Testing

@testable import VoteStore

/// What a client is told of a PostgreSQL failure that is "busy": each cause in its own words,
/// never SQLite's phrase for its file lock.
@Suite struct PostgresFailureWordingTests {
  /// Bug: a statement timeout (57014) and a server out of connections (53300) were told as
  /// "the database is locked by another process", which is SQLite's file lock, not what
  /// happened on PostgreSQL.
  @Test(arguments: [
    ("55P03", "locked by another change"), ("57014", "time limit"),
    ("53300", "no more connections"),
  ])
  func busyCausesAreToldAsThemselves(sqlState: String, words: String) {
    let error = PostgresConnection.failure(sqlState: sqlState, message: "ERROR:  canceling")
    #expect(error.kind == .busy)
    #expect(error.publicMessage.contains(words), "\(error.publicMessage)")
    #expect(!error.publicMessage.contains("another process"), "\(error.publicMessage)")
    #expect(!error.publicMessage.contains("canceling"), "\(error.publicMessage)")
  }
}
