import Foundation
import Testing
import VoteFirstAPI
import VoteStore

@testable import CounterService

/// The memo of decoded board documents gives what decoding gives, keeps at most its
/// capacity, and lets a document that does not decode fail as a damaged store every time.
@Suite struct DecodedDocumentsTests {
  @Test func aRememberedDocumentIsTheDecodedOneAndTheMemoIsBounded() throws {
    let memo = DecodedDocuments<Stage>(capacity: 2)
    let texts = (1...3).map { id in
      try! BoardJSON.encode(Stage(id: id, name: "Stage \(id)", position: id))
    }
    for _ in 0..<2 {
      for (index, text) in texts.enumerated() {
        let stage = try memo.value(text)
        #expect(stage == (try BoardJSON.decode(Stage.self, text)))
        #expect(stage.id == index + 1)
      }
    }
    for _ in 0..<2 {
      #expect(throws: VoteStoreError.self) { try memo.value("[]") }
    }
  }
}
