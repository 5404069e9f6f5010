// file-voter-stress: a helper for FeatureVotingTests (not a product). Votes as a second process
// would, so a test can run two at once over one file.
//
//   file-voter-stress FILE VOTER-PREFIX VOTES FEATURES
//     FileVoter over FILE: vote i goes to feature (i % FEATURES) from voter "PREFIX-i"; every
//     fifth vote is anonymous.
//   file-voter-stress durable SERVER DIRECTORY NAMESPACE FEATURE-PREFIX VOTES
//     DurableVoter over a CountingAPIVoter of SERVER (its state in DIRECTORY): one vote each for
//     features "FEATURE-PREFIX-0" ... "FEATURE-PREFIX-(VOTES-1)", queued when SERVER is down.
//
// Exits 0 after printing "cast VOTES", or 1 with the first error on stderr.
import FeatureVoting
import Foundation
import RoadmapFormat

let arguments = CommandLine.arguments

func fail(_ message: String, status: Int32) -> Never {
  FileHandle.standardError.write(Data("file-voter-stress: \(message)\n".utf8))
  exit(status)
}

if arguments.count == 7, arguments[1] == "durable", let server = URL(string: arguments[2]),
  let votes = Int(arguments[6])
{
  let directory = URL(fileURLWithPath: arguments[3])
  let voter = DurableVoter(
    base: CountingAPIVoter(
      server: server, namespace: arguments[4],
      identity: .installation(file: directory.appendingPathComponent("voter-id")),
      readRetry: RetryPolicy(attempts: 1)),
    directory: directory)
  do {
    for i in 0..<votes {
      _ = try await voter.castVote(for: RoadmapFeature(id: "\(arguments[5])-\(i)"))
    }
    print("cast \(votes)")
  } catch {
    fail("\(error)", status: 1)
  }
  exit(0)
}

guard arguments.count == 5, let votes = Int(arguments[3]), let features = Int(arguments[4]),
  features > 0
else {
  fail(
    "usage: file-voter-stress FILE VOTER-PREFIX VOTES FEATURES\n"
      + "       file-voter-stress durable SERVER DIRECTORY NAMESPACE FEATURE-PREFIX VOTES",
    status: 64)
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
  fail("\(error)", status: 1)
}
