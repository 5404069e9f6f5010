import CSQLite
import Testing

@testable import VoteStore

/// What each SQLite result code means to a caller of the store.
@Suite struct SQLiteResultCodeTests {
  @Test func aFailedFsyncIsAnUnknownOutcomeNotAPlainIOError() {
    // SQLITE_IOERR_FSYNC and SQLITE_IOERR_DIR_FSYNC: the commit's frames were written, maybe
    // not to the disk.
    #expect(SQLiteResultCode(rawValue: SQLITE_IOERR | (4 << 8)).errorKind == .notDurable)
    #expect(SQLiteResultCode(rawValue: SQLITE_IOERR | (5 << 8)).errorKind == .notDurable)
    #expect(VoteStoreError(.notDurable, "x").outcomeIsUnknown)
    // Every other I/O error (a failed read or write) changed nothing.
    #expect(SQLiteResultCode(rawValue: SQLITE_IOERR).errorKind == .io)
    #expect(SQLiteResultCode(rawValue: SQLITE_IOERR | (1 << 8)).errorKind == .io)
    #expect(SQLiteResultCode(rawValue: SQLITE_IOERR | (3 << 8)).errorKind == .io)
    #expect(!VoteStoreError(.io, "x").outcomeIsUnknown)
    #expect(SQLiteResultCode(rawValue: SQLITE_FULL).errorKind == .full)
    #expect(SQLiteResultCode(rawValue: SQLITE_BUSY | (2 << 8)).errorKind == .busy)
  }
}
