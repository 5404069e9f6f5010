import Testing

@testable import RoadmapCLI

@Suite struct VersionTests {
  @Test func versionIsSemantic() {
    #expect(RoadmapCLI.version.split(separator: ".").count == 3)
  }
}
