import FeatureVoting
import Foundation
import RoadmapFormat
import Testing

/// A retry policy with short waits, so retry tests finish quickly.
let quickRetry = RetryPolicy(attempts: 3, initialDelay: 0.01, maxDelay: 0.5)

/// A fresh temporary directory for one test.
func temporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "feature-voting-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// Features with the given ids.
func features(_ ids: String...) -> [RoadmapFeature] {
  ids.map { RoadmapFeature(id: $0) }
}

/// The error `body` throws, or nil when it returns (any other error is recorded as an issue).
func votingError<T>(
  _ body: () async throws -> T, sourceLocation: Testing.SourceLocation = #_sourceLocation
) async -> VotingError? {
  do {
    _ = try await body()
    return nil
  } catch let error as VotingError {
    return error
  } catch {
    Issue.record("not a VotingError: \(error)", sourceLocation: sourceLocation)
    return nil
  }
}
