import Foundation

/// `--server-timeout` (or `ROADMAPCTL_SERVER_TIMEOUT`): how long each call to `--server`, and
/// each read of a counting API (`--votes-from`, `--counts`, `--from`), may take, from sending
/// it to the last byte of its answer, for `migrate`, `publish`, `reconcile` and `votes pull`.
///
/// Every call is bounded: a server that accepts the connection and never answers fails the
/// command after this long, naming the server and the limit, instead of holding a CI job or a
/// cron run until it is killed. The default, 120 s, is about 50 times the slowest call of a
/// 20,000-feature project measured against a debug `roadmapctl serve` sharing one busy core
/// (2.3 s for the batch of 20,000 features, 1.7 s for the export; docs/cli.md). A read of a
/// counting API is one small counter, read 16 at a time and tried 3 times, so unless the limit
/// is given its default is 10 s: at 120 s a source that accepts and never answers held a pull
/// of 300 features for about two hours.
struct ServerTimeoutOptions: ParsableArguments {
  /// The default limit on one call to `--server`, in seconds.
  static let defaultSeconds: TimeInterval = 120
  /// The default limit on one read of a counting API, in seconds.
  static let defaultCountingReadSeconds: TimeInterval = 10

  @Option(
    name: "server-timeout", valueName: "seconds", environment: "ROADMAPCTL_SERVER_TIMEOUT",
    help:
      "The most one call to --server (default 120) or read of a counting API (default 10) may take, answer included.",
    validate: { $0 > 0 ? nil : "--server-timeout must be more than 0 seconds." })
  var given: Double?

  /// The limit on one call to `--server`.
  var seconds: TimeInterval { given ?? Self.defaultSeconds }
  /// The limit on one read of a counting API (`--votes-from`, `--counts`, `--from`).
  var countingReadSeconds: TimeInterval { given ?? Self.defaultCountingReadSeconds }
}
