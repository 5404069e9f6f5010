import Testing

@testable import RoadmapCLI

/// `migrate` refuses the board's own counters as the source of its votes (every rerun counted
/// them again); the same server is found whatever the URL's spelling.
@Suite struct SameServerTests {
  @Test(arguments: [
    ("http://127.0.0.1:8080", "http://localhost:8080/"),
    ("http://LOCALHOST:8080", "http://[::1]:8080"),
    ("http://votes.example.com", "HTTP://votes.example.com:80"),
    ("https://votes.example.com:443/base", "https://Votes.Example.com/base/"),
  ])
  func theSameServerSpelledOtherwise(a: String, b: String) {
    #expect(MigrateCommand.sameServer(a, b))
  }

  @Test(arguments: [
    ("http://127.0.0.1:8080", "http://127.0.0.1:8081"),
    ("http://localhost:8080", "https://localhost:8080"),
    ("http://votes.example.com", "http://votes.example.org"),
    ("http://votes.example.com/a", "http://votes.example.com/b"),
    ("http://votes.example.com:8080", "http://votes.example.com"),
  ])
  func otherServers(a: String, b: String) {
    #expect(!MigrateCommand.sameServer(a, b))
  }
}
