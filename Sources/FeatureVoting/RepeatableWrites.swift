import Foundation

/// A voter that can say whether a vote or unvote sent twice counts once: then one that timed
/// out, was rate limited or met a server error (it may or may not have been counted) can be
/// sent again without counting twice, and ``DurableVoter`` queues it as it queues one sent
/// while offline.
protocol RepeatableWrites {
  /// Whether the server applies this voter's vote and unvote at most once each, however often
  /// they are sent.
  var writesAreRepeatable: Bool { get }
}

extension CountingAPIVoter: RepeatableWrites {
  /// With a voter id on `roadmapctl serve`: a second vote of one voter changes nothing.
  var writesAreRepeatable: Bool { dialect.writesAreIdempotentWithVoterID && identity != nil }
}

extension VoteFirstVoter: RepeatableWrites {
  /// Always: every call carries the client's voter id, and the API's vote and unvote are
  /// idempotent.
  var writesAreRepeatable: Bool { true }
}

extension CoalescingVoter: RepeatableWrites {
  /// As its base, which its writes pass straight through to.
  var writesAreRepeatable: Bool { (base as? any RepeatableWrites)?.writesAreRepeatable == true }
}
