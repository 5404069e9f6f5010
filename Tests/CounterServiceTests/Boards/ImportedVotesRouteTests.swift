import Foundation
import HTTPServer
import Testing

@testable import CounterService

/// `PUT …/features/{id}/imported-votes` refuses a count past the counters' bound as every
/// validation failure is refused: `422` naming its `field`.
@Suite struct ImportedVotesRouteTests {
  /// Bug: 2^53 was refused by the store, in its words and without `field`.
  @Test func aCountPastTheBoundIsRefusedNamingCount() async throws {
    try await BoardHarness.with { harness in
      await harness.admin(.put, "/features/ref/one", #"{"title":"One"}"#)
      let refused = await harness.call(
        .put, "/api/v1/demo-app/features/1/imported-votes", json: #"{"count":9007199254740992}"#,
        admin: true)
      #expect(refused.status == 422, "\(refused.body)")
      #expect(refused.body.contains(#""field":"count""#), "\(refused.body)")
      #expect(refused.body.contains("count lies between 0 and 9007199254740991"))
      let taken = await harness.admin(
        .put, "/features/1/imported-votes", #"{"count":9007199254740991}"#)
      #expect(taken.object["votes"] as? Int == 9_007_199_254_740_991, "\(taken.body)")
    }
  }
}
