import Foundation
import Testing

/// A file that is not JSON at all (cut short, a missing comma) given to `restore`, `convert`
/// or `--status-map` is refused with its line and column, as `votes import` refuses one. They
/// said "not JSON (The given data was not valid JSON.)" or "The operation could not be
/// completed. The data is not in the correct format.", with no place and no hint that the
/// file was cut short.
@Suite struct JSONSyntaxPositionTests {
  func run(_ arguments: [String], in directory: TemporaryDirectory) async throws -> ProcessResult {
    try await Roadmapctl.run(arguments, workingDirectory: directory.url, timeout: .seconds(120))
  }

  @Test func restoreOfABackupCutShortSaysWhere() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write(
      "cut.json", "{\"format\":\"roadmapctl-backup\",\"version\":1,\n \"votes\": {\"counters\":[\n")
    let result = try await run(["restore", "cut.json", "--data-dir", "data"], in: directory)
    #expect(result.exitCode == 1)
    #expect(
      result.stderrText
        == "Error: cut.json:3:1: not valid JSON: the text ends where a value should be; it is "
        + "not a roadmapctl backup\n")
    // Nothing was made.
    #expect(
      !FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("data").path))
  }

  @Test func convertOfAnExportWithAMissingCommaSaysWhere() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("export.json", "{\"project\":\"demo\"\n \"features\":[]}")
    let result = try await run(["convert", "export.json", "--to", "roadmap"], in: directory)
    #expect(result.exitCode == 1)
    #expect(result.stdoutText.isEmpty)
    #expect(
      result.stderrText
        == "Error: cannot read the VoteFirst export: export.json:2:2: not valid JSON: expected "
        + "',' or '}', found '\"'\n")
  }

  @Test func aStatusMapThatIsNotJSONSaysWhere() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    try directory.write("roadmap.json", #"[{"id":"1","status":"A"}]"#)
    try directory.write("map.json", #"{"stages":[{"name":"A","statuses":["#)
    let result = try await run(
      [
        "convert", "roadmap.json", "--to", "votefirst-export", "--project", "demo",
        "--status-map", "map.json",
      ], in: directory)
    #expect(result.exitCode == 1)
    #expect(
      result.stderrText
        == "Error: cannot use the status map: map.json:1:36: not valid JSON: the text ends "
        + "where a value should be\n")
  }
}
