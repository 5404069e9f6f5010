import FeatureVoting

/// The counting API protocols `--dialect` names in `migrate`, `reconcile` and `votes pull`.
enum SyncDialect: String, CaseIterable, ExpressibleByArgument {
  case countapi, counterapi, tally, ours

  /// A raw value, or `roadmapctl`: the name `show` gives this protocol.
  init?(argument: String) {
    self.init(rawValue: argument == "roadmapctl" ? "ours" : argument)
  }

  /// The raw values, then `roadmapctl`.
  static var allValueStrings: [String] { allCases.map(\.rawValue) + ["roadmapctl"] }

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
