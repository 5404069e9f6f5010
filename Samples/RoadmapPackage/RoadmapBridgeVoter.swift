// RoadmapBridgeVoter: add this one file to an app that uses the Roadmap package
// (github.com/AvdLee/Roadmap), next to a package dependency on RoadmapBridge's `FeatureVoting`
// product, to count its votes on a self-hosted `roadmapctl serve`:
//
//     RoadmapView(configuration: RoadmapConfiguration(
//       roadmapJSONURL: URL(string: "https://example.com/roadmap.json")!,
//       voter: RoadmapBridgeVoter(
//         server: URL(string: "https://votes.example.com")!,
//         namespace: Bundle.main.bundleIdentifier ?? "com.example.app")))
//
// What it adds to the Roadmap package's own voter: one vote per install (a random id kept in
// Application Support, or your user id), sent as X-Voter-ID so the server counts it once;
// voted state per namespace, marked when the server accepted the vote; votes cast offline (or
// met by a timeout, a 429 or a 5xx) kept and sent with a later call; percent-encoded ids;
// timeouts and retries; and the rows' reads, which the Roadmap package makes one by one,
// gathered into one request for the whole board. Step by step: README.md in this folder.
//
// To vote on a VoteFirst board of `roadmapctl serve` instead, add the `VoteFirstAPI` product
// too and pass the voter in, kept durable as the counting one is here:
// `RoadmapBridgeVoter(voter: DurableVoter(base: VoteFirstVoter(client: client), namespace: …,
// identity: …))` (README, "A self-hosted VoteFirst board").
import FeatureVoting
import Foundation
import Roadmap

/// The Roadmap package's `FeatureVoter`, counting through `roadmapctl serve`, or through any
/// FeatureVoting voter (`init(voter:)`).
struct RoadmapBridgeVoter: Roadmap.FeatureVoter {
  private let voter: any FeatureVoting.FeatureVoter

  /// A voter for `namespace` on `server`.
  ///
  /// - Parameters:
  ///   - server: where `roadmapctl serve` runs, such as `https://votes.example.com`.
  ///   - namespace: the counters' namespace; the Roadmap package uses the bundle identifier.
  ///   - voterID: your app's user id (1–128 of `A-Z a-z 0-9 _ - . : @ + = /`), or nil for a
  ///     random id made once per install.
  init(server: URL, namespace: String, voterID: String? = nil) {
    var identity = VoterIdentity.installation()
    if let voterID {
      do {
        identity = try VoterIdentity(appUserID: voterID)
      } catch {
        // An id the server would refuse is a bug to see while developing; a release build
        // keeps votes working with the per-install id.
        assertionFailure("RoadmapBridgeVoter: \(error)")
      }
    }
    let counting = CountingAPIVoter(
      server: server, namespace: namespace, dialect: .roadmapBridge, identity: identity)
    voter = CoalescingVoter(base: DurableVoter(base: counting))
  }

  /// The Roadmap package's side of any FeatureVoting voter, such as a `VoteFirstVoter`: their
  /// `FeatureVoter` is FeatureVoting's own protocol, which `RoadmapConfiguration` does not take.
  ///
  ///     RoadmapBridgeVoter(voter: VoteFirstVoter(client: client))
  init(voter: some FeatureVoting.FeatureVoter) {
    self.voter = voter
  }

  func fetch(for feature: Roadmap.RoadmapFeature) async -> Int {
    await voter.fetch(for: Self.ours(feature))
  }

  func vote(for feature: Roadmap.RoadmapFeature) async -> Int? {
    await voter.vote(for: Self.ours(feature))
  }

  func unvote(for feature: Roadmap.RoadmapFeature) async -> Int? {
    await voter.unvote(for: Self.ours(feature))
  }

  /// The Roadmap package shows only `id`, `title`, `status` and `votes` to other modules.
  /// `isFinished` is internal to it, so a finished row's count is read too (one more key in the
  /// board's one request).
  private static func ours(_ feature: Roadmap.RoadmapFeature) -> VotingFeature {
    VotingFeature(
      id: feature.id, title: feature.title, status: feature.status, votes: feature.votes)
  }
}
