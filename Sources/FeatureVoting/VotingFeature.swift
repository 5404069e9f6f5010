import RoadmapFormat

/// The feature type FeatureVoting's voters take: RoadmapFormat's `RoadmapFeature`.
///
/// In a file that imports both the Roadmap package and FeatureVoting, `RoadmapFeature` names two
/// types; this name is the FeatureVoting one, without importing RoadmapFormat:
///
///     let ours = VotingFeature(id: feature.id, title: feature.title, status: feature.status)
public typealias VotingFeature = RoadmapFeature
