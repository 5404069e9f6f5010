import Foundation
import HTTPServer
import Testing
import VoteFirstAPI

@testable import CounterService

/// The HTTP server's own refusals with the service's common headers, and its 413 in the error
/// shape of the route it was meant for.
@Suite struct RefusalShapeTests {
  static func refusal(_ target: String, status: Int = 413) -> HTTPRefusal {
    HTTPRefusal(
      status: status, reason: "Content-Length exceeds 1048576 bytes",
      head: HTTPRequestHead(method: .post, target: target))
  }

  @Test func theVoteFirstAPIGetsItsOwnErrorBodyWithTheCommonHeaders() throws {
    let response = try #require(
      CounterService.answer(
        Self.refusal("/api/v1/demo/features/batch"), boards: true, origin: "https://a.example"))
    #expect(response.status == 413)
    let body = try JSONDecoder().decode(APIErrorBody.self, from: Data(response.body))
    #expect(body.code == VoteFirstContract.ErrorCode.tooLarge)
    #expect(body.message.contains("exceeds 1048576 bytes"))
    #expect(response.headers["Access-Control-Allow-Origin"] == "https://a.example")
    #expect(response.headers["X-Path"] == "/api/v1/demo/features/batch")
    // Without boards the prefix is nobody's: the server's own shape.
    let nobodys = try #require(
      CounterService.answer(Self.refusal("/api/v1/demo/x"), boards: false, origin: "*"))
    #expect(String(decoding: nobodys.body, as: UTF8.self).hasPrefix(#"{"error":"Content-Length"#))
  }

  @Test func counterapiRoutesGetCounterapisShape() throws {
    let response = try #require(
      CounterService.answer(Self.refusal("/v1/ns/name/set?count=1"), boards: false, origin: "*"))
    #expect(response.status == 413)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    #expect(object["code"] as? Int == 413)
    #expect((object["message"] as? String)?.contains("larger than this call takes") == true)
  }

  /// Bug: every other refusal (a 414 for a /counts of many keys, a malformed target, a 501)
  /// went out without Access-Control-Allow-Origin, so a browser saw a network error instead
  /// of the reason. They keep the server's own `{"error":"…"}`, with the common headers.
  @Test func countapiRoutesAndOtherRefusalsKeepTheServersShapeWithTheCommonHeaders() throws {
    let refusals = [
      Self.refusal("/hit/ns/key"), Self.refusal("/v1/ns/x", status: 400),
      HTTPRefusal(status: 413, reason: "x", head: nil),
      HTTPRefusal(status: 414, reason: "request line longer than 8192 bytes", head: nil),
    ]
    for refusal in refusals {
      let response = try #require(
        CounterService.answer(refusal, boards: true, origin: "https://a.example"))
      #expect(response.status == refusal.status)
      #expect(
        String(decoding: response.body, as: UTF8.self)
          == #"{"error":"\#(refusal.reason)"}"#)
      #expect(response.headers["Access-Control-Allow-Origin"] == "https://a.example")
      #expect(response.headers["X-Content-Type-Options"] == "nosniff")
    }
  }
}
