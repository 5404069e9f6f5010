import Foundation
import Testing
import VoteFirstAPI

/// The wire types: exact keys, round trips, and what is refused.
@Suite struct WireFormatTests {
  static func text<T: Encodable>(_ value: T) throws -> String {
    String(decoding: try VoteFirstCoding.encode(value), as: UTF8.self)
  }

  static let sample = Feature(
    id: 7,
    content: FeatureContent(
      ref: "Available ", title: "Dark mode", description: "Please", response: "Soon",
      board: "roadmap", stage: 2, due: "2027-01", tags: [3, 1], comments: 4, views: 10,
      progress: 50, release: 1, status: "Available ", isFinished: false,
      localizedTitle: [
        LocalizedText(language: "de", value: "Dunkelmodus"),
        LocalizedText(language: "de", value: "second"),
      ],
      localizedDescription: [LocalizedText(language: "zh-Hans", value: "请")],
      localizedStatus: [LocalizedText(language: "fr", value: "")],
      extra: [
        ExtraMember(key: "url", json: #""https://example.com/a""#),
        ExtraMember(key: "weight", json: "1.50"),
      ]),
    votes: 12, voted: true, createdAt: Date(timeIntervalSince1970: 1_700_000_000))

  @Test func featureKeysAreTheContractsAndSorted() throws {
    let json = try Self.text(Self.sample)
    #expect(
      json
        == #"{"board":"roadmap","comments":4,"createdAt":"2023-11-14T22:13:20Z","description":"Please","due":"2027-01","extra":[{"json":"\"https://example.com/a\"","key":"url"},{"json":"1.50","key":"weight"}],"id":7,"isFinished":false,"localizedDescription":[{"language":"zh-Hans","value":"请"}],"localizedStatus":[{"language":"fr","value":""}],"localizedTitle":[{"language":"de","value":"Dunkelmodus"},{"language":"de","value":"second"}],"progress":50,"ref":"Available ","release":1,"response":"Soon","stage":2,"status":"Available ","tags":[3,1],"title":"Dark mode","views":10,"voted":true,"votes":12}"#
    )
  }

  @Test func featureRoundTripsLosslessly() throws {
    let again = try VoteFirstCoding.decode(
      Feature.self, from: try VoteFirstCoding.encode(Self.sample))
    #expect(again == Self.sample)
    #expect(again.title == "Dark mode")
    #expect(again.extra?[1].json == "1.50")
  }

  @Test func minimalFeatureTakesDefaults() throws {
    let feature = try VoteFirstCoding.decode(
      Feature.self, from: Data(#"{"id":1,"title":"","votes":0,"voted":false}"#.utf8))
    #expect(feature.content == FeatureContent(title: ""))
    #expect(feature.board == "roadmap" && feature.tags.isEmpty && feature.ref == nil)
  }

  @Test func featureWithoutTitleOrWithWrongTypeIsRefusedWithItsPath() throws {
    #expect(throws: DecodingError.self) {
      try VoteFirstCoding.decode(FeatureContent.self, from: Data(#"{"ref":"1"}"#.utf8))
    }
    do {
      _ = try VoteFirstCoding.decode(
        FeatureBatch.self,
        from: Data(#"{"features":[{"title":"a"},{"title":"b","tags":"x"}]}"#.utf8))
      Issue.record("decoded a batch with a string for tags")
    } catch let error as DecodingError {
      #expect(VoteFirstCoding.path(of: error) == "features[1].tags")
    }
    do {
      _ = try VoteFirstCoding.decode(FeatureBatch.self, from: Data(#"{"features":[{}]}"#.utf8))
      Issue.record("decoded a feature without a title")
    } catch let error as DecodingError {
      #expect(VoteFirstCoding.path(of: error) == "features[0].title")
    }
  }

  @Test func errorBodyShape() throws {
    let body = APIErrorBody(code: "validation_failed", message: "title is required", field: "title")
    #expect(
      try Self.text(body)
        == #"{"error":{"code":"validation_failed","field":"title","message":"title is required"}}"#)
    let read = try VoteFirstCoding.decode(
      APIErrorBody.self, from: Data(#"{"error":{"code":"x","message":"y"}}"#.utf8))
    #expect(read == APIErrorBody(code: "x", message: "y"))
  }

  @Test func pageWritesNullNext() throws {
    #expect(try Self.text(FeaturePage(features: [], next: nil)) == #"{"features":[],"next":null}"#)
  }

  @Test func exportRoundTripsAndRefusesOtherDocuments() throws {
    let export = ProjectExport(
      project: "demo-app", exportedAt: Date(timeIntervalSince1970: 1_700_000_000),
      settings: ProjectSettings(name: "Demo"),
      boards: [Board(slug: "roadmap", name: "Roadmap")],
      stages: [Stage(id: 2, name: "Planned", color: ThemeColor(css: "#36f"))],
      tags: [FeatureTag(id: 1, name: "iOS")],
      features: [ProjectExport.ExportedFeature(feature: Self.sample, importedVotes: 5)],
      releases: [
        Release(
          id: 1, title: "2.0", notes: "*new*", date: Date(timeIntervalSince1970: 0), features: [7])
      ],
      suggestions: [
        Suggestion(
          id: 1, title: "t", description: "d", state: .pending,
          createdAt: Date(timeIntervalSince1970: 5))
      ])
    let data = try VoteFirstCoding.encode(export)
    let json = String(decoding: data, as: UTF8.self)
    #expect(json.hasPrefix(#"{"boards":"#))
    #expect(json.contains(#""format":"votefirst-export""#))
    #expect(!json.contains(#""voted""#))
    var expected = export
    expected.features[0].feature.voted = false
    #expect(try VoteFirstCoding.decode(ProjectExport.self, from: data) == expected)

    let wrongFormat = json.replacingOccurrences(of: "votefirst-export", with: "roadmap")
    #expect(throws: DecodingError.self) {
      try VoteFirstCoding.decode(ProjectExport.self, from: Data(wrongFormat.utf8))
    }
    let newer = json.replacingOccurrences(of: #""version":1"#, with: #""version":2"#)
    #expect(throws: DecodingError.self) {
      try VoteFirstCoding.decode(ProjectExport.self, from: Data(newer.utf8))
    }
  }
}
