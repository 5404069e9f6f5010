import Foundation
import Testing
import VoteFirstAPI

/// The real server's own 413 (a body over its limit, refused from `Content-Length` before
/// any handler) comes in the error shape of the route it was sent to, so each protocol's
/// clients read it as an error of theirs.
@Suite struct ServeRefusalShapeTests {
  @Test func aVoteFirstBatchOverTheLimitIsAContractErrorForTheClient() async throws {
    let server = try await VoteFirstServer.start()
    // About 1.3 MiB of features, without the admin token that grants 32 MiB.
    let features = (0..<1_300).map { n in
      FeatureUpsert(
        content: FeatureContent(
          ref: "f\(n)", title: "Feature \(n)", description: String(repeating: "d", count: 1_000)))
    }
    await expectFailure(.refused, code: VoteFirstContract.ErrorCode.tooLarge) {
      try await server.admin(token: nil).upsertFeatures(features)
    }
    // Raw: the contract's body, and the headers a browser needs to read it.
    let body = String(repeating: "x", count: 2 << 20)
    let answer = try await server.serve.get(
      "/api/v1/demo-app/features/batch", method: "POST",
      headers: ["Content-Length": "\(body.utf8.count)", "Origin": "https://app.example"])
    #expect(answer.status == 413)
    let error = try VoteFirstCoding.decode(APIErrorBody.self, from: Data(answer.body.utf8))
    #expect(error.code == VoteFirstContract.ErrorCode.tooLarge)
    #expect(error.message.contains("exceeds 1048576 bytes"), "\(error.message)")
    #expect(answer.header("Access-Control-Allow-Origin") == "*")
    #expect(answer.header("Connection")?.lowercased() == "close")
    try await server.stop()
  }

  @Test func counterapiAndCountapiRoutesKeepTheirOwnShapes() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(dataDirectory: directory.url)
    defer { server.process.kill() }
    let length = ["Content-Length": "\(2 << 20)"]
    let counterapi = try await server.get("/v1/app.example/big/up", method: "POST", headers: length)
    #expect(counterapi.status == 413)
    #expect(counterapi.object["code"] as? Int == 413, "\(counterapi.body)")
    #expect((counterapi.object["message"] as? String)?.contains("exceeds 1048576 bytes") == true)
    let countapi = try await server.get("/hit/app.example/big", method: "POST", headers: length)
    #expect(countapi.status == 413)
    #expect(countapi.body == #"{"error":"Content-Length exceeds 1048576 bytes"}"#)
    #expect(countapi.header("Access-Control-Allow-Origin") == "*")
    #expect(try await server.stop() == 0)
  }

  /// Bug: a refusal the server makes before any route (here a request line past 8 KiB: a
  /// `/counts` of 500 long keys) had no Access-Control-Allow-Origin, so a browser's page saw
  /// a network error instead of the reason.
  @Test func aRefusalBeforeAnyRouteCarriesTheCORSHeaders() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(dataDirectory: directory.url)
    defer { server.process.kill() }
    let keys = (0..<500).map { "feature\($0)-" + String(repeating: "k", count: 20) }
    let answer = try await server.get(
      "/counts/app.example?keys=" + keys.joined(separator: ","),
      headers: ["Origin": "https://app.example"])
    #expect(answer.status == 414)
    #expect(answer.body == #"{"error":"request line longer than 8192 bytes"}"#)
    #expect(answer.header("Access-Control-Allow-Origin") == "*")
    #expect(try await server.stop() == 0)
  }
}
