import Foundation

/// A voter that holds a voter id of its own, apart from any ``VoterIdentity`` file, which
/// ``DurableVoter/forget()`` must have it forget too: otherwise it went on voting as the voter
/// the user asked to forget.
protocol HoldsVoterID {
  /// Votes as a new voter from now on.
  func forgetVoterID() async
}

extension VoteFirstVoter: HoldsVoterID {
  /// The client's `forget()`: a new random voter id.
  func forgetVoterID() async { await client.forget() }
}

extension CoalescingVoter: HoldsVoterID {
  /// Its base's, when it holds one.
  func forgetVoterID() async { await (base as? any HoldsVoterID)?.forgetVoterID() }
}
