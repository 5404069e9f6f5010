/// What a streamed export wrote.
public struct ExportSummary: Sendable, Equatable {
  /// Counters written.
  public var counters: Int
  /// Voter hashes written (votes with a voter id).
  public var voters: Int

  /// Creates a summary.
  public init(counters: Int, voters: Int) {
    self.counters = counters
    self.voters = voters
  }
}
