import Foundation
import Testing

/// `votes import -` and `restore -` map a regular file on standard input (`< FILE`) as they
/// map a file named on the command line.
@Suite struct VotesImportTruncatedStdinTests {
  /// Bug: a file on standard input cut short while it was read ended the import with "Bus
  /// error", a backtrace and status 135 (a file named on the command line gave the clear
  /// error); now it gives that error too, naming the file, with status 1, and imports nothing.
  @Test func aFileOnStandardInputCutShortIsAnErrorNotACrash() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let library = try await PreloadLibrary.compile(
      ValidateTruncatedFileTests.shim, named: "truncate", in: directory.url)
    let inputs = directory.url.appendingPathComponent("inputs")
    try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
    let counters = (0..<200).map { n in
      #"{"record":{"id":\#(n + 1),"namespace":"app.example","key":"feature\#(n)","value":1,"#
        + #""enableReset":false,"updateLowerBound":-1,"updateUpperBound":1,"#
        + #""createdAt":1700000000000,"updatedAt":1700000000001},"voters":[]}"#
    }
    let file = inputs.appendingPathComponent("export.json")
    try Data(#"{"version":1,"counters":[\#(counters.joined(separator: ","))]}"#.utf8)
      .write(to: file)
    let store = directory.url.appendingPathComponent("store")
    let shell = ["-c", #"exec "$0" votes import - --data-dir "$1" < "$2""#]
    let binary = try Roadmapctl.binaryURL().path

    // Unharmed, the file imports.
    let plain = try await Roadmapctl.run(
      shell + [binary, store.path + "-plain", file.path], binary: URL(fileURLWithPath: "/bin/sh"))
    #expect(plain.exitCode == 0, "\(plain.stderrText)")
    #expect(plain.stderrText.contains("Imported 200 counters."), "\(plain.stderrText)")

    let cut = try await Roadmapctl.run(
      shell + [binary, store.path, file.path],
      environment: [
        "LD_PRELOAD": library.path, "TRUNCATE_DIR": inputs.resolvingSymlinksInPath().path,
      ], binary: URL(fileURLWithPath: "/bin/sh"))
    #expect(cut.exitCode == 1, "\(cut.stderrText)")
    #expect(
      cut.stderrText.contains(
        "Error: '\(file.resolvingSymlinksInPath().path)' was cut short while it was being read "
          + "(another program truncated or rewrote it in place)"), "\(cut.stderrText)")
    #expect(try Data(contentsOf: file).isEmpty, "the shim did cut the file")
  }

  /// Bug: a pipe is copied to a temporary file in `$TMPDIR` before it is read; when that copy
  /// could not be made (a full or missing `$TMPDIR`) the error blamed the input: "cannot read
  /// standard input: No space left on device" (or "No such file or directory"). It now says
  /// that the temporary copy failed, where, and what to do.
  @Test func aTemporaryCopyThatCannotBeMadeIsNamedAsSuch() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let missing = directory.url.appendingPathComponent("no-such-dir").path
    let result = try await Roadmapctl.run(
      ["votes", "import", "-", "--data-dir", directory.url.appendingPathComponent("store").path],
      stdin: Array(#"{"version":1,"counters":[]}"#.utf8), environment: ["TMPDIR": missing])
    #expect(result.exitCode == 1)
    #expect(
      result.stderrText.contains(
        "cannot copy standard input to a temporary file in \(missing): No such file or "
          + "directory. Set TMPDIR to a directory with room for it"), "\(result.stderrText)")
  }
}
