import Foundation
import Testing

/// Every ```console block in README.md and docs/ is run and must print what it shows, so a
/// transcript cannot go stale (docs/testing.md, "Transcripts").
@Suite struct TranscriptTests {
  static var transcripts: [ConsoleTranscript] {
    PackageFiles.documentationPaths.flatMap { path in
      (try? PackageFiles.text(path)).map {
        ConsoleTranscript.parse($0, file: path).transcripts
      } ?? []
    }
  }

  @Test(arguments: transcripts)
  func transcriptPrintsWhatItShows(_ transcript: ConsoleTranscript) async throws {
    if let reason = transcript.skipReason {
      #expect(!reason.isEmpty, "\(transcript.file):\(transcript.line): a skip needs a reason")
      return
    }
    #expect(!transcript.steps.isEmpty, "\(transcript.file):\(transcript.line) has no `$ ` line")
    let outcome = try await TranscriptRunner.run(
      transcript, packageRoot: PackageFiles.packageRoot)
    for (step, actual) in zip(transcript.steps, outcome.outputs)
    where !ConsoleTranscript.isSkipped(step.command) {
      #expect(
        ConsoleTranscript.matches(actual, step.expected),
        """
        \(transcript.file):\(step.line): `\(step.command)` printed
        \(ConsoleTranscript.normalized(actual).joined(separator: "\n"))
        but the transcript shows
        \(ConsoleTranscript.normalized(step.expected).joined(separator: "\n"))
        """)
    }
  }

  @Test func everyTranscriptIsAConsoleBlock() throws {
    #expect(Self.transcripts.count >= 2, "README.md's transcripts were not found")
    for path in PackageFiles.documentationPaths {
      let misfenced = ConsoleTranscript.parse(try PackageFiles.text(path), file: path)
        .misfenced
      #expect(
        misfenced.isEmpty,
        """
        \(path): the blocks at lines \(misfenced) hold `$ ` lines: write them as ```console so \
        they are checked (or with a skip marker, see docs/testing.md)
        """)
    }
  }

  // The mechanism itself.

  static let sample = """
    Intro.

    ```console
    $ swift build
    Building...
    $ export PATH="$PWD/.build/debug:$PATH"
    $ roadmapctl validate Samples/roadmap.json
    Samples/roadmap.json: 5 features, no problems
    $ echo $?
    0
    $ roadmapctl validate Samples/none.json
    Error: cannot read 'Samples/none.json': no such file
    $ echo $?
    1
    $ roadmapctl --help
    OVERVIEW: Validate, inspect and serve the Roadmap JSON of AvdLee/Roadmap apps.
    …
      See 'roadmapctl help <subcommand>' for detailed help.
    $ export GREETING=hello
    $ cd Samples && echo "$GREETING from $(basename "$PWD")"
    hello from Samples
    ```

    <!-- transcript: skip needs a running server -->
    ```console
    $ roadmapctl serve
    Serving on http://127.0.0.1:8080
    ```

    ```text
    $ not checked
    ```
    """

  @Test func parsesCommandsOutputsAndMarkers() {
    let (transcripts, misfenced) = ConsoleTranscript.parse(Self.sample, file: "sample.md")
    #expect(transcripts.count == 2)
    #expect(misfenced == [30])
    let first = transcripts[0]
    #expect(first.line == 3)
    #expect(first.skipReason == nil)
    #expect(first.steps.map(\.command).first == "swift build")
    #expect(first.steps[2].expected == ["Samples/roadmap.json: 5 features, no problems"])
    #expect(first.steps[2].line == 7)
    #expect(transcripts[1].skipReason == "needs a running server")
    #expect(ConsoleTranscript.isSkipped("swift build -c release"))
    #expect(ConsoleTranscript.isSkipped("export PATH=\"$PWD/.build/debug:$PATH\""))
    #expect(!ConsoleTranscript.isSkipped("export GREETING=hello"))
    #expect(!ConsoleTranscript.isSkipped("roadmapctl validate x.json"))
  }

  @Test func ellipsisMatchesAnyNumberOfLines() {
    #expect(ConsoleTranscript.matches(["a", "b", "c"], ["a", "…", "c"]))
    #expect(ConsoleTranscript.matches(["a", "c"], ["a", "…", "c"]))
    #expect(ConsoleTranscript.matches(["a", "b  ", ""], ["a", "b"]))
    #expect(!ConsoleTranscript.matches(["a", "b"], ["a", "c"]))
    #expect(!ConsoleTranscript.matches(["a", "b", "x"], ["a", "…", "c"]))
    #expect(!ConsoleTranscript.matches(["a"], ["a", "b"]))
  }

  @Test func runsASampleAndSeesEveryStatus() async throws {
    let transcript = ConsoleTranscript.parse(Self.sample, file: "sample.md").transcripts[0]
    let outcome = try await TranscriptRunner.run(
      transcript, packageRoot: PackageFiles.packageRoot)
    for (step, actual) in zip(transcript.steps, outcome.outputs)
    where !ConsoleTranscript.isSkipped(step.command) {
      #expect(ConsoleTranscript.matches(actual, step.expected), "\(step.command): \(actual)")
    }
  }

  @Test func aStaleTranscriptIsCaught() async throws {
    let stale = """
      ```console
      $ roadmapctl validate Samples/roadmap.json
      Samples/roadmap.json: 4 features, no problems
      $ echo $?
      1
      ```
      """
    let transcript = ConsoleTranscript.parse(stale, file: "stale.md").transcripts[0]
    let outcome = try await TranscriptRunner.run(
      transcript, packageRoot: PackageFiles.packageRoot)
    #expect(outcome.outputs == [["Samples/roadmap.json: 5 features, no problems"], ["0"]])
    for (step, actual) in zip(transcript.steps, outcome.outputs) {
      #expect(!ConsoleTranscript.matches(actual, step.expected))
    }
  }
}
