import Foundation

/// What the client-side modules (they ship inside iOS 15+ / macOS 12+ apps) may import and use,
/// checked over their sources because the compiler cannot tell on Linux. docs/architecture.md,
/// "Client-side modules", is the documented version of this file.
enum ClientModuleRules {
  /// Each client module, and the other modules it may import besides Foundation.
  static let modules: [(name: String, mayImport: Set<String>)] = [
    ("RoadmapFormat", []),
    ("VoteFirstAPI", []),
    ("FeatureVoting", ["RoadmapFormat", "VoteFirstAPI"]),
  ]

  /// Modules that may be imported only inside `#if canImport(<the module>)`.
  static let guardedImports: Set<String> = ["FoundationNetworking", "Glibc", "Darwin", "Musl"]

  /// API newer than iOS 15 / macOS 12, as a pattern over code (comments and string literals
  /// removed), with the first version that has it.
  static let newerAPI: [(pattern: String, what: String)] = [
    (#"\bDuration\b"#, "Duration (iOS 16, macOS 13)"),
    (#"\b(ContinuousClock|SuspendingClock)\b"#, "Clock types (iOS 16, macOS 13)"),
    (#"\b(any|some)\s+Clock\b|:\s*Clock\b|\bClock\s*<"#, "the Clock protocol (iOS 16, macOS 13)"),
    (#"\bsleep\s*\(\s*(for|until)\s*:"#, "Task.sleep(for:)/(until:) (iOS 16, macOS 13)"),
    (
      #"\b(Mutex|Atomic|AtomicLazyReference)\b"#,
      "Synchronization's Mutex/Atomic (iOS 18, macOS 15)"
    ),
    (#"\bOSAllocatedUnfairLock\b"#, "OSAllocatedUnfairLock (iOS 16, macOS 13)"),
    (#"\bRegex\b|#/|\bRegexBuilder\b"#, "Regex and regex literals (iOS 16, macOS 13)"),
    (
      #"\.(firstMatch|wholeMatch|prefixMatch)\s*\(\s*of:|\.matches\s*\(\s*of:"#,
      "Regex matching (iOS 16, macOS 13)"
    ),
    (#"\bURL\s*\(\s*filePath\s*:"#, "URL(filePath:) (iOS 16, macOS 13)"),
    (
      #"\.appending\s*\(\s*(path|component|components|queryItems)\s*:"#,
      "URL.appending(path:/component:/queryItems:) (iOS 16, macOS 13)"
    ),
    (#"\.path\s*\(\s*percentEncoded\s*:"#, "URL.path(percentEncoded:) (iOS 16, macOS 13)"),
    (#"\bdirectoryHint\s*:"#, "URL directory hints (iOS 16, macOS 13)"),
    (
      #"\bencodingInvalidCharacters\s*:"#,
      "URL(string:encodingInvalidCharacters:) (iOS 17, macOS 14)"
    ),
    (
      #"\bURL\s*\.\s*(homeDirectory|documentsDirectory|temporaryDirectory|cachesDirectory|applicationSupportDirectory)\b"#,
      "URL's static directories (iOS 16, macOS 13)"
    ),
    (
      #"\bLocale\s*\.\s*(Language|LanguageCode|Region|Script)\b|\.language\s*\.\s*languageCode\b"#,
      "Locale.Language and its parts (iOS 16, macOS 13)"
    ),
    (#"\bLocalizedStringResource\b"#, "LocalizedStringResource (iOS 16, macOS 13)"),
    (#"\.formatted\s*\(\s*\.(url|units|byteCount)\b"#, "newer format styles (iOS 16, macOS 13)"),
    (#"@Observable\b|\bObservationRegistrar\b"#, "Observation (iOS 17, macOS 14)"),
  ]

  /// A line with this comment is not checked against ``newerAPI`` (it is guarded by
  /// `if #available`, which the check cannot see).
  static let exemption = "availability: guarded"

  /// One rule broken at one place.
  struct Violation: Sendable, Equatable, CustomStringConvertible {
    var file: String
    var line: Int
    var problem: String
    var description: String { "\(file):\(line): \(problem)" }
  }

  /// The rules broken by `source`, a file of `module` named `file` for messages.
  static func violations(in source: String, module: String, file: String) -> [Violation] {
    let mayImport = modules.first { $0.name == module }?.mayImport ?? []
    var violations: [Violation] = []
    let patterns = newerAPI.map { (try! NSRegularExpression(pattern: $0.pattern), $0.what) }
    for line in SwiftSourceLines.lines(of: source) {
      let code = line.code.trimmingCharacters(in: .whitespaces)
      if let imported = importedModule(code) {
        if imported == "Foundation" || mayImport.contains(imported) { continue }
        if guardedImports.contains(imported) {
          if !line.conditions.contains(where: { $0.contains("canImport(\(imported))") }) {
            violations.append(
              Violation(
                file: file, line: line.number,
                problem: "import \(imported) outside #if canImport(\(imported))"))
          }
          continue
        }
        violations.append(
          Violation(
            file: file, line: line.number,
            problem: "imports \(imported); \(module) may import only Foundation"
              + (mayImport.isEmpty ? "" : " and " + mayImport.sorted().joined(separator: ", "))))
        continue
      }
      if line.comment.contains(exemption) { continue }
      let range = NSRange(code.startIndex..., in: code)
      for (pattern, what) in patterns where pattern.firstMatch(in: code, range: range) != nil {
        violations.append(
          Violation(
            file: file, line: line.number, problem: "uses \(what), newer than iOS 15 / macOS 12"))
      }
    }
    return violations
  }

  /// The module an `import` declaration names (`import Foundation`, `@preconcurrency import
  /// struct Foundation.Data`, `public import X`), or nil when the code is not an import.
  static func importedModule(_ code: String) -> String? {
    var words = code.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    while let first = words.first,
      first.hasPrefix("@")
        || [
          "public", "package", "internal",
          "private", "fileprivate",
        ].contains(first)
    {
      words.removeFirst()
    }
    guard words.first == "import", words.count >= 2 else { return nil }
    var path = words[1]
    let kinds = ["struct", "class", "enum", "protocol", "typealias", "func", "let", "var"]
    if kinds.contains(path), words.count >= 3 { path = words[2] }
    return String(path.split(separator: ".").first ?? "")
  }
}
