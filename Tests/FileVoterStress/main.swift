// file-voter-stress: a helper for FeatureVotingTests (not a product). Casts votes through one
// FileVoter file, as a second process would, so a test can run two at once against one file.
//
//   file-voter-stress FILE VOTER-PREFIX VOTES FEATURES
//
// Vote i goes to feature (i % FEATURES) from voter "PREFIX-i"; every fifth vote is anonymous.
// Exits 0 after printing "cast VOTES", or 1 with the first error on stderr.
import FeatureVoting
import Foundation
import RoadmapFormat

let arguments = CommandLine.arguments
guard arguments.count == 5, let votes = Int(arguments[3]), let features = Int(arguments[4]),
  features > 0
else {
  FileHandle.standardError.write(
    Data("usage: file-voter-stress FILE VOTER-PREFIX VOTES FEATURES\n".utf8))
  exit(64)
}
let file = URL(fileURLWithPath: arguments[1])
let prefix = arguments[2]

do {
  for i in 0..<votes {
    let identity = i % 5 == 4 ? nil : try VoterIdentity(appUserID: "\(prefix)-\(i)")
    let voter = FileVoter(file: file, identity: identity)
    _ = try await voter.castVote(for: RoadmapFeature(id: "\(i % features)"))
  }
  print("cast \(votes)")
} catch {
  FileHandle.standardError.write(Data("file-voter-stress: \(error)\n".utf8))
  exit(1)
}
