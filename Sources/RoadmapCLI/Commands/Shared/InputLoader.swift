import Foundation
import RoadmapFormat
import VoteFirstAPI
import VoteStore

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a command's input: a file (relative to the working directory), an http(s) URL fetched
/// the way an app fetches it, or `-` for standard input.
///
/// A file that cannot be read and a URL that cannot be reached are failures (exit 1) whose message
/// names the input. A URL that answers with a status other than 200, or with a body that is an
/// HTML page, loads with an error saying so: the Roadmap package hands such a body to its decoder
/// and shows an empty roadmap. A JSON body sent as `text/html` loads with a warning only, since
/// the app decodes it all the same.
enum InputLoader {
  /// How `-` is named in diagnostics.
  static let standardInputName = "<stdin>"

  static func isURL(_ input: String) -> Bool {
    let lowered = input.lowercased()
    return lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
  }

  /// Files from this size on are mapped rather than read when the caller asks for mapping.
  static let mappingThreshold = 1 << 20

  /// Loads `input`; with `mapping`, a regular file of `mappingThreshold` bytes or more is
  /// mapped read-only instead of read (see `DocumentBytes` for what that asks of the file).
  static func load(_ input: String, context: CommandContext, mapping: Bool = false)
    async throws(CommandError) -> LoadedInput
  {
    if input == "-" {
      return LoadedInput(
        displayPath: standardInputName, bytes: try readFileOrStandardInput(input, context: context))
    }
    if isURL(input) { return try await fetch(input) }
    if mapping {
      return LoadedInput(displayPath: input, document: try mapFile(input, context: context))
    }
    return LoadedInput(displayPath: input, bytes: try readFile(input, context: context))
  }

  /// The bytes of the file `input`, or of standard input for `-` (no URL: for documents a
  /// store loads, such as backups).
  static func readFileOrStandardInput(_ input: String, context: CommandContext)
    throws(CommandError) -> [UInt8]
  {
    guard input == "-" else { return try readFile(input, context: context) }
    do {
      return try context.stdin.readAll()
    } catch {
      throw .failure("cannot read standard input: \(standardInputProblem(error))")
    }
  }

  /// The bytes of the file `input`, or of standard input for `-`, for a document a store
  /// loads in pieces (an export, a backup): a regular file is mapped, a pipe copied to an
  /// unlinked temporary file and mapped, so memory does not grow with the document.
  static func exportBytes(_ input: String, context: CommandContext) throws(CommandError)
    -> ExportFileBytes
  {
    guard input == "-" else {
      return try withDescriptor(input, context: context) { descriptor throws(CommandError) in
        if let mapped = ExportFileBytes(mapping: descriptor) {
          MappedInputGuard.watch(input)
          return mapped
        }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
          return ExportFileBytes(try readFile(input, context: context))
        }
        do throws(ExportFileBytes.SpoolFailure) {
          return try ExportFileBytes.spool(descriptor)
        } catch {
          throw spoolFailure(error, reading: "'\(input)'")
        }
      }
    }
    let bytes: ExportFileBytes
    do {
      bytes = try context.stdin.readExportBytes()
    } catch let failure as ExportFileBytes.SpoolFailure {
      throw spoolFailure(failure, reading: "standard input")
    } catch {
      throw .failure("cannot read standard input: \(standardInputProblem(error))")
    }
    // A regular file on standard input is mapped too (`votes import - < FILE`): cut short
    // while it is read, it is an error like a file named on the command line, not a crash.
    if bytes.isMapped { MappedInputGuard.watch(standardInputFile()) }
    return bytes
  }

  /// The error for input that could not be copied to a temporary file: reading it failed, or
  /// writing the copy did (a full or missing `$TMPDIR`, which is not the input's fault).
  static func spoolFailure(
    _ failure: ExportFileBytes.SpoolFailure, reading name: String
  ) -> CommandError {
    switch failure {
    case .reading(let code):
      return .failure("cannot read \(name): \(String(cString: strerror(code)))")
    case .writing(let directory, let code):
      return .failure(
        "cannot copy \(name) to a temporary file in \(directory): "
          + "\(String(cString: strerror(code))). Set TMPDIR to a directory "
          + "with room for it, or give the file's path instead of a pipe")
    }
  }

  /// How an error names the file on standard input: its path where the system tells it.
  private static func standardInputFile() -> String {
    #if os(Linux)
      if let target = try? FileManager.default.destinationOfSymbolicLink(
        atPath: "/proc/self/fd/0"), target.hasPrefix("/")
      {
        return target
      }
    #endif
    return standardInputName
  }

  /// Why standard input could not be read, in words (Foundation's description of a POSIX
  /// error is "The operation could not be completed. Invalid argument").
  static func standardInputProblem(_ error: any Error) -> String {
    guard let posix = error as? POSIXError else { return "\(error)" }
    switch posix.code {
    case .EBADF: return "it is closed"
    case .EISDIR: return "it is a directory"
    default: return String(cString: strerror(posix.code.rawValue))
    }
  }

  static func readFile(_ input: String, context: CommandContext) throws(CommandError) -> [UInt8] {
    try withDescriptor(input, context: context) { descriptor throws(CommandError) in
      guard let bytes = DescriptorReader.readAll(descriptor) else {
        throw .failure("cannot read '\(input)': \(String(cString: strerror(errno)))")
      }
      return bytes
    }
  }

  /// A large regular file mapped, anything else (small, or not mappable) read.
  static func mapFile(_ input: String, context: CommandContext) throws(CommandError)
    -> DocumentBytes
  {
    try withDescriptor(input, context: context) { descriptor throws(CommandError) in
      var status = stat()
      if fstat(descriptor, &status) == 0, status.st_size >= mappingThreshold,
        let mapped = DocumentBytes(mapping: descriptor)
      {
        MappedInputGuard.watch(input)
        return mapped
      }
      guard let bytes = DescriptorReader.readAll(descriptor) else {
        throw .failure("cannot read '\(input)': \(String(cString: strerror(errno)))")
      }
      return DocumentBytes(bytes)
    }
  }

  /// Opens a file for reading, naming it in the failure when it is missing, a directory, or
  /// cannot be opened.
  static func withDescriptor<R>(
    _ input: String, context: CommandContext, _ body: (Int32) throws(CommandError) -> R
  ) throws(CommandError) -> R {
    // An empty name (an unset variable in a CI step) resolves to the working directory.
    guard !input.isEmpty else {
      throw .failure("cannot read '': the file name is empty (is a variable unset?)")
    }
    let path = context.resolvePath(input)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      // A name that is not UTF-8 reaches the command with U+FFFD in place of its bytes, so
      // no such file exists, though the file may well.
      throw .failure(
        "cannot read '\(input)': "
          + (input.contains("\u{FFFD}")
            ? "no such file (its name is not UTF-8 as given; rename the file or pass it as - "
              + "on standard input)"
            : "no such file"))
    }
    if isDirectory.boolValue {
      throw .failure("cannot read '\(input)': it is a directory")
    }
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else {
      throw .failure("cannot read '\(input)': \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    return try body(descriptor)
  }

  /// Rejects a malformed URL before anything is read or written (a usage error, exit 64).
  static func checkSyntax(_ input: String) throws(CommandError) {
    guard isURL(input) else { return }
    guard let url = URL(string: input), url.host?.isEmpty == false else {
      throw .validation("'\(input)' is not a valid URL.")
    }
  }

  /// The most bytes a fetched input may have: 1 GiB, several times the 200,000-feature files
  /// the benchmarks validate (159–275 MB). A longer body is cut off as it arrives.
  static let maximumFetchBytes = 1 << 30

  /// The seconds a whole fetch may take, from the request to the body's last byte.
  static let fetchTimeout: TimeInterval = 120

  /// Fetches `input` with a GET as an app would, through one data task that is cancelled
  /// once `timeout` seconds pass or its body passes `maximumBytes`.
  static func fetch(
    _ input: String, maximumBytes: Int = maximumFetchBytes, timeout: TimeInterval = fetchTimeout
  ) async throws(CommandError) -> LoadedInput {
    try checkSyntax(input)
    guard let url = URL(string: input) else {
      throw .validation("'\(input)' is not a valid URL.")
    }
    let (data, response) = try await CommandHTTP.load(
      URLRequest(url: url), through: LoadingSession(maximumBytes: maximumBytes),
      timeout: timeout, failure: "cannot fetch '\(input)'")
    var loaded = LoadedInput(displayPath: input, bytes: Array(data))
    guard let http = response as? HTTPURLResponse else { return loaded }
    let status = http.statusCode
    let reason = HTTPURLResponse.localizedString(forStatusCode: status)
    if (201...299).contains(status) {
      // A success all the same: the app decodes this body as it would a 200's, so it is
      // checked as usual, with a warning that the host answers unusually.
      loaded.transportProblems.append(
        Diagnostic(
          code: "http-status", severity: .warning,
          message: "The server answered HTTP \(status) (\(reason)), not 200. The Roadmap "
            + "package decodes the body all the same, so it is checked as usual; serve the "
            + "file with 200 so caches and proxies keep it.",
          path: "", line: 1, column: 1))
    } else if status != 200 {
      loaded.transportProblems.append(
        Diagnostic(
          code: "http-status", severity: .error,
          message: "The server answered HTTP \(status) (\(reason)), not 200. "
            + "The Roadmap package ignores the status and decodes the body (an error page "
            + "shows as an empty roadmap); publish the file at this URL or fix the URL.",
          path: "", line: 1, column: 1))
    }
    let contentType = (http.value(forHTTPHeaderField: "Content-Type") ?? "").lowercased()
    if looksLikeHTML(loaded.bytes) {
      loaded.transportProblems.append(
        Diagnostic(
          code: "html-body", severity: .error,
          message: "The body is an HTML page, not Roadmap JSON"
            + (contentType.isEmpty ? "" : " (Content-Type: \(contentType))")
            + ". Link the raw file (for GitHub: raw.githubusercontent.com), not the page "
            + "that shows it.",
          path: "", line: 1, column: 1))
    } else if contentType.contains("text/html") {
      // The app decodes any body whatever its type, so this works; but it is a sign of a
      // misconfigured host, and proxies or CDNs may treat an HTML page differently.
      loaded.transportProblems.append(
        Diagnostic(
          code: "html-content-type", severity: .warning,
          message: "The server sends this JSON with Content-Type: \(contentType). The Roadmap "
            + "package decodes it anyway, but serve it as application/json so caches and "
            + "proxies do not treat it as a page.",
          path: "", line: 1, column: 1))
    }
    return loaded
  }

  /// Whether a body starts (after a byte-order mark and white space) with `<`.
  static func looksLikeHTML(_ bytes: [UInt8]) -> Bool {
    var index = 0
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    return index < bytes.count && bytes[index] == UInt8(ascii: "<")
  }
}
