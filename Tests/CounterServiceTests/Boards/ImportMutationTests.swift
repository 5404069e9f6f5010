import Foundation
import HTTPServer
import TestProcess
import Testing
import VoteStore

@testable import CounterService

/// `POST …/import` of a real export changed in one place (a key dropped, a value of another
/// type or out of range, an element repeated, the text cut short): the import is either whole
/// (the project exports as the original did) or refused with a client's error and nothing of
/// it left behind (no object, no counter).
@Suite("Import of mutated exports")
struct ImportMutationTests {
  @Test("a mutated export imports whole or not at all", arguments: [1, 2] as [UInt64])
  func mutatedExports(seed: UInt64) async throws {
    try await BoardHarness.with { harness in
      await harness.seed()
      await harness.admin(.put, "/features/1/imported-votes", #"{"count":7}"#)
      _ = await harness.call(.post, "/api/v1/demo-app/features/2/vote", voter: "voter-1")
      let export = await harness.call(.get, "/api/v1/demo-app/export", admin: true)
      #expect(export.status == 200)
      let original = try #require(
        try JSONSerialization.jsonObject(with: Data(export.body.utf8)) as? [String: Any])
      let refs = (original["features"] as? [[String: Any]] ?? []).compactMap {
        $0["ref"] as? String
      }
      var generator = ExportMutator(seed: seed)
      var accepted = 0
      var refused = 0
      for round in 0..<150 {
        let project = "import-\(seed)-\(round)"
        let (body, change) = generator.mutate(original)
        let answer = await harness.call(.post, "/api/v1/\(project)/import", json: body, admin: true)
        #expect(answer.status < 500, "\(change): \(answer.status) \(answer.body)")
        let after = await harness.call(.get, "/api/v1/\(project)/export", admin: true)
        let object = after.object
        if (200..<300).contains(answer.status) {
          accepted += 1
          #expect(after.status == 200, "\(change): \(after.body)")
          if change == "unchanged" {
            // The same project under another name.
            var copy = object
            var source = original
            for key in ["project", "exportedAt"] {
              copy[key] = nil
              source[key] = nil
            }
            #expect(
              NSDictionary(dictionary: copy) == NSDictionary(dictionary: source), "\(after.body)")
          }
        } else {
          refused += 1
          for key in ["features", "stages", "tags", "releases", "suggestions"] {
            #expect(
              (object[key] as? [Any])?.isEmpty ?? true,
              "\(change): refused (\(answer.body)) but \(key) left: \(after.body.prefix(300))")
          }
          for ref in refs {
            let counter = await harness.call(.get, "/get/\(project)/feature\(ref)")
            #expect(counter.status == 404, "\(change): a counter for \(ref) left after a refusal")
          }
        }
      }
      #expect(accepted > 10, "accepted \(accepted)")
      #expect(refused > 10, "refused \(refused)")
    }
  }
}
