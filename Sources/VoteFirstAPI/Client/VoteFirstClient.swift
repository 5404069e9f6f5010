/// The calls an app makes to a VoteFirst board, shaped like VoteFirst's own Swift package.
///
/// ``VoteFirstHTTPClient`` speaks docs/votefirst-api.md to a server; anything else that
/// answers these calls (a cache, a fixture) can stand in for it. Every failure is a
/// ``VoteFirstError``.
public protocol VoteFirstClient: Sendable {
  /// The board: settings and theme, the board's stages, tags and the public custom boards.
  /// `slug` nil means the roadmap board.
  func board(slug: String?) async throws(VoteFirstError) -> BoardSnapshot

  /// One page of features matching `query`; follow ``FeaturePage/next`` for the next.
  func features(_ query: FeatureQuery) async throws(VoteFirstError) -> FeaturePage

  /// One feature, with whether this voter voted.
  func feature(id: Int) async throws(VoteFirstError) -> Feature

  /// Casts this voter's vote (idempotent).
  func upvote(featureID: Int) async throws(VoteFirstError) -> VoteState

  /// Withdraws this voter's vote (idempotent).
  func unvote(featureID: Int) async throws(VoteFirstError) -> VoteState

  /// Every release, newest first.
  func releases() async throws(VoteFirstError) -> [Release]

  /// One release.
  func release(id: Int) async throws(VoteFirstError) -> Release

  /// Sends a suggestion; it waits for the owner's approval.
  func submit(_ suggestion: SuggestionDraft) async throws(VoteFirstError) -> SuggestionReceipt

  /// Forgets this voter: later calls vote as a new, anonymous voter.
  func forget() async
}

extension VoteFirstClient {
  /// The roadmap board.
  public func board() async throws(VoteFirstError) -> BoardSnapshot {
    try await board(slug: nil)
  }

  /// Every feature matching `query`, following the pages to the end; by default the roadmap
  /// board's, newest first.
  ///
  /// Pages are read one after another, so in an order that votes change (``FeatureOrder/top``,
  /// ``FeatureOrder/trending``) a feature voted up meanwhile can move to a page already read and
  /// be missed. ``FeatureOrder/newest``, the default here, is an order votes do not move, so
  /// the listing is complete.
  ///
  /// A server that hands out a cursor it handed out before (one that ignores `cursor`, or a
  /// cache in front of it), or two pages in a row that list no feature not listed before (one
  /// that ignores `cursor` but hands out a fresh one with each page, as a cursor holding the
  /// moment its listing began is), would be read without end: that is a
  /// ``VoteFirstError/Kind/badAnswer`` naming the cursor.
  public func allFeatures(_ query: FeatureQuery = FeatureQuery(order: .newest))
    async throws(VoteFirstError)
    -> [Feature]
  {
    var stall: ListingStall?
    let listed = try await allFeatures(query, stall: &stall) {
      page throws(VoteFirstError) in try await self.features(page)
    }
    guard let stall else { return listed }
    let problem =
      stall.repeated
      ? "point back to the cursor '\(stall.cursor)'"
      : "list no feature not listed before, twice in a row (the last handing out the cursor "
        + "'\(stall.cursor)')"
    throw VoteFirstError(
      .badAnswer, message: "the features' pages \(problem): the listing would never end")
  }

  /// Every feature matching `query` as ``allFeatures(_:)`` reads them, each page read by
  /// `read` (given the page's query, at the largest page size): a caller that retries a call
  /// (after a 429, say) retries that page, not the listing from its first page.
  ///
  /// A cursor the server hands out a second time ends the listing there, and so do two pages in
  /// a row that list no feature not listed before; a feature listed twice is kept once: such a
  /// server was read without end, and this variant cannot throw an error of its own. What
  /// follows the stop may be missing, so a caller that must not act on a partial listing uses
  /// ``allFeatures(_:readingPagesWith:failingOnRepeatedCursor:)`` instead.
  public func allFeatures<Failure: Error>(
    _ query: FeatureQuery,
    readingPagesWith read: (FeatureQuery) async throws(Failure) -> FeaturePage
  ) async throws(Failure) -> [Feature] {
    var stall: ListingStall?
    return try await allFeatures(query, stall: &stall, readingPagesWith: read)
  }

  /// ``allFeatures(_:readingPagesWith:)``, throwing `failure(cursor)` when the server hands
  /// out a cursor it handed out before, or two pages in a row that list no feature not listed
  /// before (`cursor` is then the last page's): the listing would never end, and what it holds
  /// may be partial.
  public func allFeatures<Failure: Error>(
    _ query: FeatureQuery,
    readingPagesWith read: (FeatureQuery) async throws(Failure) -> FeaturePage,
    failingOnRepeatedCursor failure: (String) -> Failure
  ) async throws(Failure) -> [Feature] {
    var stall: ListingStall?
    let listed = try await allFeatures(query, stall: &stall, readingPagesWith: read)
    if let stall { throw failure(stall.cursor) }
    return listed
  }

  /// ``allFeatures(_:readingPagesWith:)``, setting `stall` when the listing ended before its
  /// last page because the server's pages did not move on.
  private func allFeatures<Failure: Error>(
    _ query: FeatureQuery, stall: inout ListingStall?,
    readingPagesWith read: (FeatureQuery) async throws(Failure) -> FeaturePage
  ) async throws(Failure) -> [Feature] {
    var query = query
    query.limit = VoteFirstLimits.maxPageSize
    var features: [Feature] = []
    var listed: Set<Int> = []
    var cursors: Set<String> = []
    // Pages in a row that listed no feature not listed before.
    var idle = 0
    while true {
      let page = try await read(query)
      let before = features.count
      for feature in page.features where listed.insert(feature.id).inserted {
        features.append(feature)
      }
      guard let next = page.next else { return features }
      guard cursors.insert(next).inserted else {
        stall = ListingStall(cursor: next, repeated: true)
        return features
      }
      // A server that ignores `cursor` but hands out a fresh one with each page (one holding
      // the moment its listing began, as `roadmapctl serve`'s do) repeats its first page.
      idle = features.count == before ? idle + 1 : 0
      if idle >= 2 {
        stall = ListingStall(cursor: next, repeated: false)
        return features
      }
      query.cursor = next
    }
  }
}

/// Why a listing of features ended before its last page: the server handed out `cursor` a
/// second time (`repeated`), or handed it out with the second page in a row that listed no
/// feature not listed before.
struct ListingStall {
  var cursor: String
  var repeated: Bool
}
