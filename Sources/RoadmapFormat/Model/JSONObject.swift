/// A JSON object that keeps its members in source order.
///
/// Duplicate keys are not merged here: the reader keeps only the first occurrence (as
/// `JSONDecoder` does) and reports the others.
public struct JSONObject: Sendable, Hashable {
  /// The members, in order.
  public var members: [(key: String, value: JSONValue)]

  /// The source text of members read from a document, by key (see ``MemberSource``); nil for
  /// an object built in code. Not part of the object's value: `==` and `hash(into:)` ignore it.
  var sources: [String: MemberSource]? = nil

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

/// How a member the Roadmap format does not define was written in the document it was read
/// from, so that a writer gives it back as it was: the reader decodes strings (an escape such
/// as `\u00e9` becomes `é`, a lone surrogate or a byte that is not UTF-8 becomes U+FFFD) and
/// reads a malformed number (`01`) as null, which would otherwise change data the app only
/// carries.
struct MemberSource: Sendable {
  /// The value as read: the text stands for the member only while its value is still this one.
  var value: JSONValue
  /// The key's text, quotes included, when it is written with escapes (`"\u0075rl"`); nil
  /// when it is its name written plainly, or broken (the app decodes keys: a key it cannot
  /// read rejects the file, so it is written as read).
  var key: [UInt8]?
  /// The value's text.
  var text: [UInt8]
  /// The value is not valid JSON (a lone surrogate, a raw control character, a malformed
  /// number, …): its text is written exactly, layout included. Valid JSON keeps every string,
  /// number and literal exactly and takes the writer's layout.
  var verbatim: Bool
}

extension JSONObject {
  /// The source of `member` when it is a member read from a document whose value has not
  /// changed since.
  func source(of member: (key: String, value: JSONValue)) -> MemberSource? {
    guard let source = sources?[member.key], source.value == member.value else { return nil }
    return source
  }

  /// Appends a member read from a document, with its source text when it has one.
  mutating func appendRead(_ key: String, _ value: JSONValue, source: MemberSource?) {
    members.append((key, value))
    guard let source else { return }
    if sources == nil { sources = [:] }
    sources?[key] = source
  }
}
