/// One connection's way of running the board tables' SQL, inside the caller's transaction.
///
/// The SQL is written once, for SQLite (`?1` parameters, `instr`); the PostgreSQL connection
/// translates it (`$1`, `strpos`). Every value is bound, never spliced.
protocol BoardSQL {
  /// Runs `sql` and returns its rows, each column as a ``BoardValue``.
  func rows(_ sql: String, _ values: [BoardValue]) throws(VoteStoreError) -> [[BoardValue]]
  /// Runs `sql` and returns how many rows it changed.
  @discardableResult
  func run(_ sql: String, _ values: [BoardValue]) throws(VoteStoreError) -> Int
  /// Holds `project`'s write lock until the transaction ends (see
  /// ``BoardTables/lockProject(_:)``).
  func lockProject(_ project: String) throws(VoteStoreError)
  /// What ends a `SELECT` that locks the rows it reads until the transaction ends: ` FOR
  /// UPDATE` on PostgreSQL, nothing on SQLite (its one writer runs writes one at a time).
  var rowLock: String { get }
}

extension BoardSQL {
  /// The first row of `sql`, or nil.
  func first(_ sql: String, _ values: [BoardValue]) throws(VoteStoreError) -> [BoardValue]? {
    try rows(sql, values).first
  }
}

/// SQLite SQL turned into PostgreSQL's: `?N` → `$N`, `instr(` → `strpos(`.
enum BoardSQLDialect {
  static func postgres(_ sql: String) -> String {
    var out = ""
    var index = sql.startIndex
    while index < sql.endIndex {
      let character = sql[index]
      let next = sql.index(after: index)
      if character == "?", next < sql.endIndex, sql[next].isNumber {
        out.append("$")
      } else {
        out.append(character)
      }
      index = next
    }
    return out.replacingOccurrences(of: "instr(", with: "strpos(")
  }
}
