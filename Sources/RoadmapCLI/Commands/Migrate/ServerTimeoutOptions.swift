import Foundation

/// `--server-timeout` (or `ROADMAPCTL_SERVER_TIMEOUT`): how long each call to `--server`, and
/// each read of a counting API (`--votes-from`, `--counts`, `--from`), may take, from sending
/// it to the last byte of its answer, for `migrate`, `publish`, `reconcile` and `votes pull`.
///
/// Every call is bounded: a server that accepts the connection and never answers fails the
/// command after this long, naming the server and the limit, instead of holding a CI job or a
/// cron run until it is killed. The default, 120 s, is about 50 times the slowest call of a
/// 20,000-feature project measured against a debug `roadmapctl serve` sharing one busy core
/// (2.3 s for the batch of 20,000 features, 1.7 s for the export; docs/cli.md).
struct ServerTimeoutOptions: ParsableArguments {
  /// The default limit on one call, in seconds.
  static let defaultSeconds: TimeInterval = 120

  @Option(
    name: "server-timeout", valueName: "seconds", environment: "ROADMAPCTL_SERVER_TIMEOUT",
    help: "The most one call to --server (or read of a counting API) may take, answer included.",
    validate: { $0 > 0 ? nil : "--server-timeout must be more than 0 seconds." })
  var seconds: Double = ServerTimeoutOptions.defaultSeconds
}
