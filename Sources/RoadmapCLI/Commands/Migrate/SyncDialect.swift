import FeatureVoting

/// The counting API protocols `--dialect` names in `migrate`, `reconcile` and `votes pull`.
enum SyncDialect: String, CaseIterable, ExpressibleByArgument {
  case countapi, counterapi, tally, ours

  /// The FeatureVoting dialect.
  var counting: CountingDialect {
    switch self {
    case .countapi: .countapi
    case .counterapi: .counterAPIV1
    case .tally: .tally
    case .ours: .roadmapBridge
    }
  }
}
