import FeatureVoting
import Foundation
import RoadmapSync

/// The counting APIs the sync commands read, as `CountReader`s over `CountingAPIVoter`.
enum VoteSources {
  /// A reader of `server`'s counts in `namespace`, each request bounded by `timeout` seconds
  /// (the command's `--server-timeout`) and tried up to 3 times.
  static func reader(
    server: String, namespace: String, dialect: SyncDialect, keyTemplate: String,
    timeout: TimeInterval
  ) throws(CommandError) -> CountReader {
    guard let url = URL(string: server) else {
      throw .validation("'\(server)' is not a URL.")
    }
    let keys: KeyTemplate
    do {
      keys = try KeyTemplate(keyTemplate)
    } catch {
      throw .validation("--key-template: \(error.message)")
    }
    let voter = CountingAPIVoter(
      server: url, namespace: namespace, dialect: dialect.counting, keys: keys,
      timeout: timeout, maxConcurrentReads: 16)
    return CountReader(voter: voter, batch: dialect.counting.hasBatchRoute)
  }
}
