/// One feature of an import: its content (with the ref it is found by) and, optionally, the
/// anonymous votes it brings along.
@dynamicMemberLookup
public struct FeatureUpsert: Sendable, Hashable {
  /// The feature's content.
  public var content: FeatureContent
  /// The votes to import (the count the source holds now: the first import sets the
  /// anonymous part, a later one moves it by the change); nil leaves them as they are.
  public var importedVotes: Int?

  /// Creates an upsert.
  public init(content: FeatureContent, importedVotes: Int? = nil) {
    self.content = content
    self.importedVotes = importedVotes
  }

  /// A field of ``content``.
  public subscript<Value>(dynamicMember path: WritableKeyPath<FeatureContent, Value>) -> Value {
    get { content[keyPath: path] }
    set { content[keyPath: path] = newValue }
  }
}
