/// Counts by counter key, the keys compared by their bytes (UTF-8) as the stores compare them
/// (what ``VoteStore/values(namespace:keys:)`` returns).
///
/// A `[String: Int64]` took canonically equivalent keys for one (`é` precomposed and `e` +
/// U+0301, `K` and the Kelvin sign): of two such counters in a store, both showed one count.
/// Reads like a dictionary: `values["feature1"]` is the count, or nil for a key that does not
/// exist.
public struct CounterValues: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
  private var storage: [ExactText: Int64]

  /// No counts.
  public init() { storage = [:] }

  /// The counts of `pairs`; a key given twice keeps its last count.
  public init<S: Sequence>(_ pairs: S) where S.Element == (String, Int64) {
    storage = [:]
    for (key, value) in pairs { storage[ExactText(storing: key)] = value }
  }

  /// The counts of a dictionary literal; a key given twice keeps its last count.
  public init(dictionaryLiteral elements: (String, Int64)...) {
    self.init(elements)
  }

  /// The count of `key`, or nil when it is not among them. Setting nil removes it.
  public subscript(key: String) -> Int64? {
    get { storage[ExactText(key)] }
    set { storage[ExactText(storing: key)] = newValue }
  }

  /// How many counts there are.
  public var count: Int { storage.count }

  /// Whether there are none.
  public var isEmpty: Bool { storage.isEmpty }

  /// The keys, in no particular order.
  public var keys: [String] { storage.keys.map(\.text) }

  /// The counts, in no particular order.
  public var values: [Int64] { Array(storage.values) }

  /// Reserves room for `capacity` counts.
  public mutating func reserveCapacity(_ capacity: Int) { storage.reserveCapacity(capacity) }

  /// Each key with its count, in no particular order.
  public func makeIterator() -> some IteratorProtocol<(key: String, value: Int64)> {
    storage.lazy.map { (key: $0.key.text, value: $0.value) }.makeIterator()
  }
}
