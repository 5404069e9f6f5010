import Testing
import VoteFirstAPI
import VoteStore

@testable import CounterService

/// Every counter the service's routes can make, the store's import takes back (a backup must
/// always restore), and the two sides agree on where the limits lie.
@Suite struct StoreKeyRulesTests {
  /// The VoteFirst board's longest key (the longest template around the longest ref) is the
  /// store's ``CounterNames/maximumKeyLength``, and a feature without a ref counts in
  /// ``CounterNames/refLessKeyPrefix`` + its id.
  @Test func theBoardsKeysAreKeysTheStoreImports() {
    let template = String(repeating: "t", count: 60) + "{id}"
    #expect(VoteFirstLimits.isValidVoteKeyTemplate(template))
    #expect(!VoteFirstLimits.isValidVoteKeyTemplate("t" + template))
    let ref = String(repeating: "é", count: VoteFirstLimits.maxRef)
    #expect(VoteFirstLimits.isValidRef(ref))
    let settings = ProjectSettings(voteKeyTemplate: template)
    let longest = VoteFirstContract.counterKey(ref: ref, id: 1, settings: settings)
    #expect(longest.unicodeScalars.count == CounterNames.maximumKeyLength)
    #expect(CounterNames.isValidKey(longest))
    #expect(!CounterNames.isValidKey(longest + "t"))

    #expect(VoteFirstContract.refLessKeyPrefix == CounterNames.refLessKeyPrefix)
    for id in [1, 42, Int.max] {
      let key = VoteFirstContract.counterKey(ref: nil, id: id, settings: ProjectSettings())
      #expect(CounterNames.isValidKey(key), "\(key)")
    }
    for ref in ["a/b", "1", "...", "a b", "ü", "{id}", "\u{80}"] {
      let key = VoteFirstContract.counterKey(ref: ref, id: 1, settings: ProjectSettings())
      #expect(VoteFirstLimits.isValidRef(ref))
      #expect(CounterNames.isValidKey(key), "\(key)")
    }
    // What the board refuses as a ref is no key either.
    for ref in ["", "a\u{1F}b", "a\nb", "\u{7F}"] {
      #expect(!VoteFirstLimits.isValidRef(ref))
      #expect(!CounterNames.isValidKey(ref))
    }
  }

  /// The counting routes' names (and every project) are the store's names, and keys.
  @Test func theRoutesNamesAreTheStoresNames() {
    let names = [
      "", "a", "ab", "abc", "...", "a..", "-_.", "feature1", "com.example.App",
      String(repeating: "a", count: 64), String(repeating: "a", count: 65), "ab c", "abé", "ab/c",
      "abc\u{0}",
    ]
    for name in names {
      #expect(NameRules.isValidName(name) == CounterNames.isValidName(name), "\(name)")
      if NameRules.isValidName(name) { #expect(CounterNames.isValidKey(name), "\(name)") }
    }
  }
}
