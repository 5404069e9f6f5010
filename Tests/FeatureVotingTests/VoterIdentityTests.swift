import FeatureVoting
import Foundation
import Testing

@Suite("VoterIdentity")
struct VoterIdentityTests {
  @Test("a per-install id is made once, kept in its file, and survives new instances")
  func installation() throws {
    let directory = try temporaryDirectory()
    let file = directory.appendingPathComponent("state/voter-id")
    let first = try VoterIdentity.installation(file: file).id()
    #expect(UUID(uuidString: first) != nil)
    #expect(try VoterIdentity.installation(file: file).id() == first)
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(text == first + "\n")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        == ["voter-id"])
  }

  @Test("many instances creating the id at once agree on one")
  func concurrentCreation() async throws {
    let file = try temporaryDirectory().appendingPathComponent("voter-id")
    let ids = await withTaskGroup(of: String?.self) { group in
      for _ in 0..<16 { group.addTask { try? VoterIdentity.installation(file: file).id() } }
      var ids: Set<String?> = []
      for await id in group { ids.insert(id) }
      return ids
    }
    #expect(ids.count == 1)
    #expect(ids.first! != nil)
  }

  @Test("forget() removes the file; the next id is a new one")
  func forget() throws {
    let file = try temporaryDirectory().appendingPathComponent("voter-id")
    let identity = VoterIdentity.installation(file: file)
    let old = try identity.id()
    try identity.forget()
    #expect(!FileManager.default.fileExists(atPath: file.path))
    let new = try identity.id()
    #expect(new != old)
    try identity.forget()
    try identity.forget()
  }

  /// Two voters of one app (a settings screen's, the roadmap's) each make their own
  /// `VoterIdentity.installation()`. One forgot the id, and the other went on voting with it,
  /// from its memory, as the voter the user had asked to forget.
  @Test("forget() through one instance is the forgetting of every instance over the file")
  func forgetThroughAnotherInstance() throws {
    let file = try temporaryDirectory().appendingPathComponent("voter-id")
    let settings = VoterIdentity.installation(file: file)
    let roadmap = VoterIdentity.installation(file: file)
    let old = try roadmap.id()
    #expect(try settings.id() == old)
    try settings.forget()
    let new = try roadmap.id()
    #expect(new != old)
    #expect(try settings.id() == new)
    #expect(try String(contentsOf: file, encoding: .utf8) == new + "\n")
  }

  @Test("a damaged id file is an error naming it, and is left as it is")
  func damaged() throws {
    let file = try temporaryDirectory().appendingPathComponent("voter-id")
    try Data("not a voter id!\n\u{0}".utf8).write(to: file)
    let error = #expect(throws: VotingError.self) {
      try VoterIdentity.installation(file: file).id()
    }
    #expect(error?.kind == .storage)
    #expect(error?.file == file.path)
    #expect(error?.message.contains(file.path) == true)
    #expect(try Data(contentsOf: file) == Data("not a voter id!\n\u{0}".utf8))
  }

  @Test("an app's user id is used as given, if the server can take it")
  func appUserID() throws {
    #expect(try VoterIdentity(appUserID: "user@example.com").id() == "user@example.com")
    #expect(try VoterIdentity(appUserID: "user@example.com").file == nil)
    for bad in ["", "two words", "line\nbreak", String(repeating: "x", count: 129)] {
      #expect(throws: VotingError.self) { try VoterIdentity(appUserID: bad) }
    }
  }
}
