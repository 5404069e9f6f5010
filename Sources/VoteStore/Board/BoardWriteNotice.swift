/// What one board write touched, told to a store's write observers after the write and
/// before it returns to its caller (``BoardStore/addWriteObserver(_:)``).
public struct BoardWriteNotice: Sendable, Hashable {
  /// The projects whose board tables the write changed (or may have changed).
  public var projects: Set<String>
  /// The counters the write set directly in the counters' tables (imported votes), as
  /// namespace and key.
  public var counters: [CounterKey]
  /// True when the write committed; false when its outcome is unknown (the store failed
  /// after the body ran: an observer must then forget what it knows of ``projects``).
  public var committed: Bool

  /// One counter's name.
  public struct CounterKey: Sendable, Hashable {
    /// The namespace.
    public var namespace: String
    /// The key.
    public var key: String

    /// Creates a name.
    public init(namespace: String, key: String) {
      self.namespace = namespace
      self.key = key
    }
  }

  /// Creates a notice.
  public init(projects: Set<String>, counters: [CounterKey], committed: Bool) {
    self.projects = projects
    self.counters = counters
    self.committed = committed
  }
}
