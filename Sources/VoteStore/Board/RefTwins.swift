/// Features of one project whose refs are one ref written in different Unicode forms (`é`
/// precomposed, or `e` + U+0301; `K` or the Kelvin sign U+212A).
///
/// The store compares refs by their bytes and keeps both; everything else (the Roadmap
/// package's ids, Swift's strings, the board API since refs in another form are refused)
/// treats them as one, so reads show one of them and the other's votes are hidden. A store
/// made before such refs were refused may hold pairs.
public struct RefTwins: Sendable, Equatable {
  /// The project.
  public var project: String
  /// The features (two or more), by id.
  public var features: [BoardFeatureRow]

  /// Creates a group.
  public init(project: String, features: [BoardFeatureRow]) {
    self.project = project
    self.features = features
  }
}

extension BoardTables {
  /// Every group of features whose refs are one ref in different Unicode forms, by project
  /// and then by the first feature's id; empty in a store without such pairs.
  public func refTwins() throws(VoteStoreError) -> [RefTwins] {
    var found: [RefTwins] = []
    for project in try projects() {
      // A dictionary keyed by String groups canonically equivalent refs.
      var byRef: [String: [BoardFeatureRow]] = [:]
      for feature in try features(project) {
        guard let ref = feature.ref else { continue }
        byRef[ref, default: []].append(feature)
      }
      for group in byRef.values where group.count > 1 {
        found.append(RefTwins(project: project, features: group.sorted { $0.id < $1.id }))
      }
    }
    return found.sorted { ($0.project, $0.features[0].id) < ($1.project, $1.features[0].id) }
  }
}

extension RefTwins {
  /// `text` with every character outside printable ASCII as `\u{…}`, so that two forms of a
  /// ref can be told apart in a terminal: `e\u{301}te\u{301}`.
  public static func spelled(_ text: String) -> String {
    var spelled = ""
    for scalar in text.unicodeScalars {
      if (0x20..<0x7F).contains(scalar.value) && scalar != "\\" {
        spelled.unicodeScalars.append(scalar)
      } else {
        spelled += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return spelled
  }
}

extension BoardTables {
  /// Moves every vote of the counter `source` into `target` and removes `source`: the
  /// anonymous parts are added, the voter sets joined (a voter who voted on both counts
  /// once), `target` created when missing (bounds [-1, 1], as `/hit` does) and its value made
  /// its anonymous part plus its voters. For merging the counters of ``RefTwins``; returns
  /// `target`'s value.
  @discardableResult
  public func mergeVotes(
    _ namespace: String, from source: String, into target: String, now: Int64
  ) throws(VoteStoreError) -> Int64 {
    guard !source.utf8.elementsEqual(target.utf8) else { return try votes(namespace, key: target) }
    let anonymous = min(
      CounterLimits.maximum,
      (try anonymousVotes(namespace, key: source) ?? 0)
        + (try anonymousVotes(namespace, key: target) ?? 0))
    try setAnonymousVotes(namespace, key: target, count: anonymous, now: now)
    try db.run(
      """
      INSERT INTO voters (counter_id, voter)
      SELECT t.id, v.voter FROM counters s JOIN voters v ON v.counter_id = s.id, counters t
      WHERE s.namespace = ?1 AND s.key = ?2 AND t.namespace = ?1 AND t.key = ?3
      ON CONFLICT DO NOTHING
      """, [.text(namespace), .text(source), .text(target)])
    try db.run(
      """
      DELETE FROM voters WHERE counter_id IN
        (SELECT id FROM counters WHERE namespace = ?1 AND key = ?2)
      """, [.text(namespace), .text(source)])
    try db.run(
      "DELETE FROM counters WHERE namespace = ?1 AND key = ?2", [.text(namespace), .text(source)])
    log?.touched(namespace: namespace, key: source)
    // Again, now that the voters are in: the value is the anonymous part plus the voters.
    return try setAnonymousVotes(namespace, key: target, count: anonymous, now: now)
  }
}
