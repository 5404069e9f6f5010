import RoadmapFormat
import VoteFirstAPI

extension JSONValue {
  /// Whether `self` and `other` are the same JSON value: an object's members compared by key,
  /// whatever their order (the values of a key that comes more than once in their order);
  /// everything else as it is written, numbers by their text (`1.50` is not `1.5`).
  func isSameValue(as other: JSONValue) -> Bool {
    switch (self, other) {
    case (.array(let left), .array(let right)):
      return left.count == right.count
        && zip(left, right).allSatisfy { $0.isSameValue(as: $1) }
    case (.object(let left), .object(let right)):
      return left.isSameObject(as: right)
    default:
      return self == other
    }
  }
}

extension JSONObject {
  /// Whether the two objects have the same members, whatever their order (``JSONValue/isSameValue(as:)``).
  func isSameObject(as other: JSONObject) -> Bool {
    guard members.count == other.members.count else { return false }
    return Self.byKey(members.map { ($0.key, $0.value) }, other.members.map { ($0.key, $0.value) })
    {
      $0.isSameValue(as: $1)
    }
  }

  /// Whether `left` and `right` have the same keys with the same values, whatever the order of
  /// the keys; the values of one key are compared in their order with `same`.
  static func byKey<Value>(
    _ left: [(String, Value)], _ right: [(String, Value)], same: (Value, Value) -> Bool
  ) -> Bool {
    guard left.count == right.count else { return false }
    var rest: [String: [Value]] = [:]
    for (key, value) in right { rest[key, default: []].append(value) }
    var taken: [String: Int] = [:]
    for (key, value) in left {
      let index = taken[key, default: 0]
      guard let values = rest[key], index < values.count, same(value, values[index]) else {
        return false
      }
      taken[key] = index + 1
    }
    return true
  }
}

extension ExtraMember {
  /// Whether two features' extra members hold the same keys and JSON values, whatever the
  /// order of the keys and of the members of an object in them (the mapping's own member
  /// written in another key order is the same): a rerun that would write them in another
  /// order changes nothing. A value that is not readable JSON is compared as text.
  static func areSameValues(_ left: [ExtraMember], _ right: [ExtraMember]) -> Bool {
    if left == right { return true }
    return JSONObject.byKey(left.map { ($0.key, $0.json) }, right.map { ($0.key, $0.json) }) {
      a, b in
      if a == b { return true }
      guard let first = JSONValueText.value(of: a), let second = JSONValueText.value(of: b) else {
        return false
      }
      return first.isSameValue(as: second)
    }
  }
}
