/// A JSON object that keeps its members in source order.
///
/// Duplicate keys are not merged here: the reader keeps only the first occurrence (as
/// `JSONDecoder` does) and reports the others.
public struct JSONObject: Sendable, Hashable {
  /// The members, in order.
  public var members: [(key: String, value: JSONValue)]

  /// Creates an object from its members, in order.
  ///
  /// - Parameter members: key/value pairs in the order they are written.
  public init(_ members: [(key: String, value: JSONValue)] = []) {
    self.members = members
  }

  /// Whether the object has no members.
  public var isEmpty: Bool { members.isEmpty }

  /// The keys, in order.
  public var keys: [String] { members.map(\.key) }

  /// The value of the first member named `key`, or nil.
  ///
  /// Setting a value replaces the first member of that name, or appends one; setting nil
  /// removes every member of that name.
  public subscript(key: String) -> JSONValue? {
    get { members.first(where: { $0.key == key })?.value }
    set {
      if let newValue {
        if let index = members.firstIndex(where: { $0.key == key }) {
          members[index].value = newValue
        } else {
          members.append((key, newValue))
        }
      } else {
        members.removeAll(where: { $0.key == key })
      }
    }
  }

  /// Compares member by member, in order.
  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    guard lhs.members.count == rhs.members.count else { return false }
    for (left, right) in zip(lhs.members, rhs.members)
    where left.key != right.key || left.value != right.value {
      return false
    }
    return true
  }

  /// Hashes the members in order.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(members.count)
    for member in members {
      hasher.combine(member.key)
      hasher.combine(member.value)
    }
  }
}
