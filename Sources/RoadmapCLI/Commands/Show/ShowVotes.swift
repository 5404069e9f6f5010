import FeatureVoting
import Foundation
import RoadmapFormat

/// `show --votes-from`: the vote counts of a roadmap's features, read through
/// `CountingAPIVoter`, and the `--sort` order.
enum ShowVotes {
  /// The counting API protocols `--dialect` names.
  enum Dialect: String, CaseIterable, ExpressibleByArgument {
    case roadmapctl, countapi, counterapi, tally

    /// A raw value, or `ours`: the name `migrate`, `reconcile` and `votes pull` give
    /// `roadmapctl`'s own protocol.
    init?(argument: String) {
      self.init(rawValue: argument == "ours" ? "roadmapctl" : argument)
    }

    /// The raw values, then `ours`.
    static var allValueStrings: [String] { allCases.map(\.rawValue) + ["ours"] }

    /// The FeatureVoting dialect.
    var counting: CountingDialect {
      switch self {
      case .roadmapctl: .roadmapBridge
      case .countapi: .countapi
      case .counterapi: .counterAPIV1
      case .tally: .tally
      }
    }
  }

  /// The orders `--sort` names.
  enum Order: String, CaseIterable, ExpressibleByArgument {
    case file, votes
  }

  /// Why `--votes-from` is not a server URL, or nil when it is one.
  static func problem(with url: String) -> String? {
    guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
      scheme == "http" || scheme == "https", parsed.host?.isEmpty == false
    else {
      return "--votes-from needs an http or https URL, such as https://votes.example.com."
    }
    return nil
  }

  /// The counts of `features` by id from the server, and the features whose counter the
  /// server refused (a key it does not take), with its reason, in file order. Any other
  /// failure (no server, a 5xx, an answer that does not read) is thrown: the first, in file
  /// order.
  static func counts(
    of features: [RoadmapFeature], server: String, dialect: Dialect, namespace: String,
    keys: KeyTemplate
  ) async throws(VotingError) -> (counts: [String: Int], refused: [(id: String, reason: String)]) {
    guard let url = URL(string: server) else {
      throw .invalidRequest("--votes-from \(server) is not a URL")
    }
    let voter = CountingAPIVoter(
      server: url, namespace: namespace, dialect: dialect.counting, keys: keys)
    let results = await voter.countResults(for: features.filter { $0.isFinished != true })
    var counts: [String: Int] = [:]
    var refused: [(id: String, reason: String)] = []
    var seen: Set<String> = []
    for feature in features where seen.insert(feature.id).inserted {
      switch results[feature.id] {
      case .success(let count)?: counts[feature.id] = count
      case .failure(let error)? where error.kind == .refused:
        refused.append((feature.id, error.message))
      case .failure(let error)?: throw error
      case nil: break
      }
    }
    return (counts, refused)
  }

  /// `features` with the server's counts as their votes: nil for a finished feature and for
  /// one in `refused`, 0 for one the server has no counter for.
  static func apply(
    _ counts: [String: Int], refused: Set<String> = [], to features: [ResolvedFeature]
  ) -> [ResolvedFeature] {
    features.map { feature in
      var feature = feature
      feature.votes =
        feature.isFinished || refused.contains(feature.id) ? nil : counts[feature.id] ?? 0
      return feature
    }
  }

  /// Most votes first; ties and features without votes keep their order, the latter last.
  static func sortedByVotes(_ features: [ResolvedFeature]) -> [ResolvedFeature] {
    features.enumerated().sorted { left, right in
      switch (left.element.votes, right.element.votes) {
      case (let l?, let r?) where l != r: return l > r
      case (.some, nil): return true
      case (nil, .some): return false
      default: return left.offset < right.offset
      }
    }.map(\.element)
  }
}
