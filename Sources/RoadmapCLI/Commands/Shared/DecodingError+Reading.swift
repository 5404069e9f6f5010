import Foundation
import VoteFirstAPI

extension DecodingError {
  /// What a document read with `JSONDecoder` got wrong, for a person
  /// (``VoteFirstCoding/describe(_:)``).
  var readableDescription: String { VoteFirstCoding.describe(self) }
}
