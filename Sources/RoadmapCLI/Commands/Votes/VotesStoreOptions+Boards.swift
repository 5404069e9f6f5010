import Foundation
import VoteStore

extension VotesStoreOptions {
  /// The VoteFirst board store on the same database as `store` (the SQLite file in the data
  /// directory, or the same PostgreSQL database).
  func openBoards(beside store: any VoteStore) throws(CommandError) -> any BoardStore {
    do {
      if let sqlite = store as? SQLiteVoteStore {
        return try SQLiteBoardStore(sharing: sqlite)
      }
      if let url = postgres {
        return try PostgresBoardStore(connectionString: url)
      }
    } catch {
      throw .failure("cannot open the board store: \(error)")
    }
    throw .failure("this vote store has no board store beside it")
  }
}
