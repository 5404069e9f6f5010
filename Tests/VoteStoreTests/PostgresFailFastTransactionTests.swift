import Foundation
import Testing

@testable import VoteStore

/// A connection whose transaction is cut short because another connection of the store has
/// just found the server not answering (the store then fails fast for a while): the
/// transaction must end there, never stay open on the pooled connection, where the next
/// write's `COMMIT` would commit it (a vote answered 503 counted later) and its row locks
/// would hold up every other instance meanwhile.
@Suite(.timeLimit(.minutes(3))) struct PostgresFailFastTransactionTests {
  /// Limits no loaded machine reaches: the failing fast here is the test's own
  /// (`availability.down`), and a CI run once took over the default 8 s for `CREATE TABLE`.
  static let generous = PostgresTimeouts(
    connectMilliseconds: 60_000, statementMilliseconds: 60_000, clientMilliseconds: 70_000)

  @Test func aTransactionCutShortByFailingFastIsRolledBack() async throws {
    let (url, _) = try await TestPostgres.shared.createDatabase()
    let availability = PostgresAvailability(retryMilliseconds: 600_000)
    let connection = try PostgresConnection(
      connectionString: url, timeouts: Self.generous, availability: availability)
    defer { connection.close() }
    try connection.execute("CREATE TABLE fail_fast (n INT)")

    let outcome = await storeError { () throws(VoteStoreError) in
      try connection.transaction { () throws(VoteStoreError) in
        try connection.execute("INSERT INTO fail_fast VALUES (1)")
        // Another connection's statement runs out of time here.
        availability.down("another connection timed out")
      }
    }

    // The next write on the same connection commits only itself: the first one was either
    // committed (and said so) or rolled back (and said so), never left open for this COMMIT
    // to take along.
    availability.up()
    try connection.transaction { () throws(VoteStoreError) in
      try connection.execute("INSERT INTO fail_fast VALUES (2)")
    }
    let observer = try PostgresConnection(connectionString: url)
    defer { observer.close() }
    let rows = try observer.query("SELECT n FROM fail_fast ORDER BY n").rows
    let expected: [[String?]] = outcome == nil ? [["1"], ["2"]] : [["2"]]
    #expect(rows == expected, "first write: \(String(describing: outcome)); rows: \(rows)")
  }

  @Test func failingFastBeforeAnythingIsSentSaysNothingWasChanged() async throws {
    let (url, _) = try await TestPostgres.shared.createDatabase()
    let availability = PostgresAvailability(retryMilliseconds: 600_000)
    let connection = try PostgresConnection(
      connectionString: url, timeouts: Self.generous, availability: availability)
    defer { connection.close() }
    try connection.execute("CREATE TABLE fail_fast (n INT)")
    availability.down("another connection timed out")

    let refused = await storeError { () throws(VoteStoreError) in
      try connection.writing { () throws(VoteStoreError) in
        try connection.transaction { () throws(VoteStoreError) in
          try connection.execute("INSERT INTO fail_fast VALUES (1)")
        }
      }
    }
    #expect(refused?.outcomeIsUnknown == false, "\(String(describing: refused))")
    #expect(refused?.isStoreFailure == true)
    #expect(refused?.message.contains("not answering") == true)
  }
}
