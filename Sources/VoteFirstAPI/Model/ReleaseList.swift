/// The answer of `GET …/releases`: every release, newest first.
public struct ReleaseList: Sendable, Hashable {
  /// The releases, newest first.
  public var releases: [Release]

  /// Creates a list.
  public init(releases: [Release]) {
    self.releases = releases
  }
}
