import VoteFirstAPI
import VoteStore

/// A feature's `release` and the releases' `features` lists, kept as one relation within a
/// write: a feature placed in a release is taken off every other release's list and put at the
/// end of that one's. The API shows the relation from both sides (`GET /features/{id}` and
/// `GET /releases/{id}`), so a write to either side moves the other.
///
/// The releases are read at the first placement and written back by ``save(_:)``, once per
/// write however many features a batch places.
struct ReleaseMembership {
  private let project: String
  private var releases: [Int: (row: BoardItemRow, release: Release)]?
  private var changed: Set<Int> = []

  /// The releases of `project`, not read yet.
  init(project: String) {
    self.project = project
  }

  /// Feature `feature` is now in `release` (nil: in none).
  mutating func place(_ feature: Int, in release: Int?, _ tables: BoardTables) throws {
    let releases = try loaded(tables)
    for (id, entry) in releases where id != release && entry.release.features.contains(feature) {
      self.releases?[id]?.release.features.removeAll { $0 == feature }
      changed.insert(id)
    }
    if let release, let entry = releases[release], !entry.release.features.contains(feature) {
      self.releases?[release]?.release.features.append(feature)
      changed.insert(release)
    }
  }

  /// Writes back every release whose list changed.
  func save(_ tables: BoardTables) throws {
    for id in changed.sorted() {
      guard var entry = releases?[id] else { continue }
      entry.row.doc = try BoardJSON.encode(entry.release)
      try tables.put(.release, entry.row)
    }
  }

  private mutating func loaded(_ tables: BoardTables) throws
    -> [Int: (row: BoardItemRow, release: Release)]
  {
    if let releases { return releases }
    var read: [Int: (row: BoardItemRow, release: Release)] = [:]
    for row in try tables.items(.release, project) {
      read[Int(row.id)] = (row, try BoardJSON.decode(Release.self, row.doc))
    }
    releases = read
    return read
  }

  /// The release a stored feature document names.
  static func release(of row: BoardFeatureRow) throws -> Int? {
    try BoardJSON.decode(FeatureContent.self, row.doc).release
  }
}
