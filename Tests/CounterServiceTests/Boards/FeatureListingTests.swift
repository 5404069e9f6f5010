import Foundation
import Testing
import VoteFirstAPI
import VoteStore

@testable import CounterService

/// The one-pass paging of `GET …/features` hands out the pages a full sort would, in every
/// order, page after page to the end; and the walk over a list made once in that order does
/// too.
@Suite struct FeatureListingTests {
  /// A small deterministic generator (tests must not depend on the run).
  struct Generator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
  }

  static func features(_ count: Int, seed: UInt64) -> [BoardFeatureSummary] {
    var random = Generator(state: seed)
    return (1...count).map { id in
      // Few distinct values, so ties (broken by id) are common.
      BoardFeatureSummary(
        id: Int64(id), board: "roadmap", stage: nil, comments: Int64(random.next(5)),
        createdAt: 1_700_000_000_000 + Int64(random.next(4)) * 86_400_000,
        votes: Int64(random.next(6)))
    }
  }

  /// The reference: sort everything, then cut.
  static func reference(
    _ listing: FeatureListing, _ features: [BoardFeatureSummary],
    after cursor: FeatureListing.Cursor?, limit: Int
  ) -> (ids: [Int64], next: String?) {
    var keyed = features.map { (key: listing.key($0), id: $0.id) }
    if let cursor {
      keyed = keyed.filter { listing.precedes(cursor.key, cursor.id, $0.key, $0.id) }
    }
    keyed.sort { listing.precedes($0.key, $0.id, $1.key, $1.id) }
    let page = Array(keyed.prefix(limit))
    guard keyed.count > limit, let last = page.last else { return (page.map(\.id), nil) }
    return (
      page.map(\.id),
      FeatureListing.Cursor(
        order: listing.order.rawValue, at: listing.at, key: last.key, id: last.id
      )
      .text
    )
  }

  @Test(arguments: FeatureOrder.allCases, [1, 3, 20, 200])
  func onePassPagesAreTheSortedPages(_ order: FeatureOrder, _ limit: Int) {
    let features = Self.features(157, seed: UInt64(limit))
    let listing = FeatureListing(order: order, at: 1_700_000_000_000 + 10 * 86_400_000)
    let ordered = features.sorted { a, b in
      listing.precedes(listing.key(a), a.id, listing.key(b), b.id)
    }.map { (key: listing.key($0), id: $0.id) }
    var cursor: FeatureListing.Cursor?
    var seen: [Int64] = []
    for _ in 0...features.count {
      let expected = Self.reference(listing, features, after: cursor, limit: limit)
      let page = listing.page(features, after: cursor, limit: limit)
      // A cursor's text is JSON whose key order may differ between encodings: compare values.
      let expectedNext = expected.next.flatMap(FeatureListing.Cursor.init(text:))
      #expect(page.ids == expected.ids)
      #expect(page.next.flatMap(FeatureListing.Cursor.init(text:)) == expectedNext)
      #expect((page.next == nil) == (expected.next == nil))
      let walked = listing.page(ordered: ordered, after: cursor, limit: limit)
      #expect(walked.ids == expected.ids)
      #expect(walked.next.flatMap(FeatureListing.Cursor.init(text:)) == expectedNext)
      #expect((walked.next == nil) == (expected.next == nil))
      seen += page.ids
      guard let next = page.next else { break }
      cursor = FeatureListing.Cursor(text: next)
      #expect(cursor != nil)
    }
    #expect(seen.count == features.count)
    #expect(Set(seen).count == features.count)
  }
}
