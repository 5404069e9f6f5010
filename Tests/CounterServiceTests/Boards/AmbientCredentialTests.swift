import Foundation
import HTTPServer
import Testing

@testable import CounterService

/// No ambient credential: the web board's `rb_voter` cookie, which any site's request to the
/// server would carry, never stands for a voter id, so a request forged by another site can
/// only vote under an id it made up itself (docs/threat_model.md).
@Suite struct AmbientCredentialTests {
  @Test func aVoteWithOnlyTheBoardsCookieIsRefusedAndCountsNothing() async throws {
    try await BoardHarness.with { harness in
      await harness.seed()
      let forged = HTTPRequest(
        method: .post, target: "/api/v1/\(BoardHarness.project)/features/1/vote",
        headers: ["Cookie": "rb_voter=v-1234567890abcdef", "Content-Type": "text/plain"],
        remoteAddress: "198.51.100.9")
      let answer = await harness.service.handler(forged)
      #expect(answer.status == 400)
      #expect(String(decoding: answer.body, as: UTF8.self).contains(#""code":"missing_voter""#))
      let feature = await harness.get("/features/1")
      #expect(feature.object["votes"] as? Int == 0, "\(feature.body)")
    }
  }
}
