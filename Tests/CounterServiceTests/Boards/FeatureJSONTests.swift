import Foundation
import Testing
import VoteFirstAPI

@testable import CounterService

/// The pre-encoded feature and page JSON of the board view are byte for byte what the
/// contract's encoder writes.
@Suite struct FeatureJSONTests {
  static let features: [Feature] = [
    Feature(
      id: 1, content: FeatureContent(title: "One"),
      createdAt: Date(timeIntervalSince1970: 1_764_000_000)),
    Feature(
      id: 42,
      content: FeatureContent(
        ref: "ref/42", title: "Ünïcode \"quoted\" \\ and </script>", description: "Line\nbreak",
        stage: 3, tags: [1, 2], comments: 9, views: 120, isFinished: true,
        localizedTitle: [LocalizedText(language: "de", value: "Eins")]),
      createdAt: Date(timeIntervalSince1970: 1_700_000_123)),
  ]

  @Test(arguments: features, [(0, false), (1, true), (9_007_199_254_740_993, true)])
  func aFeatureIsWhatTheEncoderWrites(_ feature: Feature, _ state: (Int, Bool)) throws {
    let json = try FeatureJSON(feature)
    var expected = feature
    expected.votes = state.0
    expected.voted = state.1
    #expect(
      try json.bytes(votes: Int64(state.0), voted: state.1)
        == Array(try VoteFirstCoding.encode(expected)))
  }

  @Test(arguments: [nil, "eyJvcmRlciI6InRvcCJ9"] as [String?])
  func aPageIsWhatTheEncoderWrites(_ next: String?) throws {
    let items = try Self.features.enumerated().map { index, feature in
      try FeatureJSON(feature).bytes(votes: Int64(index * 3), voted: index == 1)
    }
    let page = FeaturePage(
      features: Self.features.enumerated().map { index, feature in
        var feature = feature
        feature.votes = index * 3
        feature.voted = index == 1
        return feature
      }, next: next)
    #expect(try FeatureJSON.page(items, next: next) == Array(try VoteFirstCoding.encode(page)))
    #expect(
      try FeatureJSON.page([], next: nil)
        == Array(try VoteFirstCoding.encode(FeaturePage(features: [], next: nil))))
  }

  @Test func searchMatchesBytesAsTheDatabaseDoes() {
    #expect(ByteSearch("für").occurs(in: "dark mode\nfür alle"))
    #expect(ByteSearch("").occurs(in: "abc"))
    #expect(ByteSearch("abc").occurs(in: "abc"))
    #expect(!ByteSearch("abc").occurs(in: "ab"))
    #expect(!ByteSearch("abb").occurs(in: "aab"))
    #expect(ByteSearch("aab").occurs(in: "aaab"))
  }

  /// The linear search finds exactly what a plain scan finds, over a small alphabet where
  /// partial matches and restarts are common.
  @Test func searchAgreesWithAPlainScan() {
    var generator = SystemRandomNumberGenerator()
    func word(_ length: Int) -> String {
      String((0..<length).map { _ in "aab".randomElement(using: &generator)! })
    }
    for _ in 0..<20_000 {
      let text = word(Int.random(in: 0...24, using: &generator))
      let part = word(Int.random(in: 0...6, using: &generator))
      #expect(
        ByteSearch(part).occurs(in: text) == text.utf8.contains(part.utf8), "\(part) in \(text)")
    }
  }

  /// A needle that almost matches everywhere costs one pass over the text, not one per byte.
  @Test(.timeLimit(.minutes(5))) func searchIsLinearInTheText() {
    let text = String(repeating: "a", count: 20_000_000)
    let part = String(repeating: "a", count: 2_000) + "b"
    #expect(!ByteSearch(part).occurs(in: text))
    #expect(ByteSearch(String(repeating: "a", count: 2_000)).occurs(in: text + "b"))
  }
}
