import Foundation
import Testing

/// `roadmapctl validate` maps files of a megabyte or more instead of reading them; its output
/// must be the output for the same bytes read from standard input (always read into memory).
@Suite struct ValidateMappedEndToEndTests {
  /// A roadmap over `InputLoader.mappingThreshold` with problems near its start, middle and end.
  static func largeDocument() -> String {
    var features: [String] = []
    for index in 0..<6000 {
      var id = "\"\(index)\""
      if index % 997 == 0 { id = "\(index)" }
      if index == 4321 { id = "\"17\"" }
      let status = index % 1499 == 0 ? "Done" : "planned"
      features.append(
        """
          {
            "id": \(id),
            "title": "Feature \(index): ändern, 日本語",
            "status": "\(status)",
            "description": "\(String(repeating: "A sentence about it. ", count: 8))",
            "localizedTitle": [{"language": "en", "value": "Feature \(index)"}\
        \(index % 701 == 0 ? "" : #", {"language": "de", "value": "Funktion"}"#)]
          }
        """)
    }
    return "[\n" + features.joined(separator: ",\n") + "\n]\n"
  }

  @Test func aMappedFileReportsWhatStandardInputReports() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let text = Self.largeDocument()
    #expect(text.utf8.count > 1 << 20)
    try directory.write("large.json", text)
    for format in ["human", "json", "github"] {
      let mapped = try await Roadmapctl.run(
        ["validate", "--format", format, "large.json"], workingDirectory: directory.url)
      let piped = try await Roadmapctl.run(
        ["validate", "--format", format, "-"], stdin: Array(text.utf8),
        workingDirectory: directory.url)
      #expect(mapped.exitCode == 1)
      #expect(piped.exitCode == 1)
      #expect(mapped.stderrText.isEmpty)
      #expect(mapped.stdoutText.contains("id-not-string"))
      #expect(mapped.stdoutText.contains("duplicate-id"))
      #expect(
        mapped.stdoutText.replacingOccurrences(of: "large.json", with: "<stdin>")
          == piped.stdoutText, "format \(format)")
    }
  }
}
