import Foundation
import VoteStore

/// `roadmapctl votes import`: loads an export into a store, all or nothing.
struct VotesImportCommand: Command {
  static let configuration = CommandConfiguration(
    name: "import",
    abstract: "Load a 'votes export' file into a store, all or nothing.",
    discussion: """
      Counters that already exist are left as they are (and counted as skipped) unless \
      --replace is given, which overwrites them with the file's counts and voters. A --data-dir \
      without a store gets a new one.
      """)

  @Argument(help: "The export to load; '-' reads standard input.")
  var file: String

  @Flag(help: "Overwrite counters that already exist in the store.")
  var replace: Bool

  @OptionGroup var store: VotesStoreOptions

  func run(_ context: CommandContext) async throws -> Int32 {
    let bytes: [UInt8]
    do {
      bytes =
        file == "-"
        ? try context.stdin.readAll()
        : Array(try Data(contentsOf: URL(fileURLWithPath: context.resolvePath(file))))
    } catch {
      throw CommandError.failure("cannot read \(file): \(error.localizedDescription)")
    }
    let export = try Self.decode(bytes, file: file)
    let summary = try await importCleanly(export, context)
    context.stdout.writeLine(Self.summaryLine(summary))
    return 0
  }
}

extension VotesImportCommand {
  /// Imports `export` into the store the options name. A failed import into a data
  /// directory that held no store leaves no store (nor a directory it had to create)
  /// behind: a mistyped path or a bad file never leaves an empty `votes.sqlite3`.
  func importCleanly(_ export: VoteExport, _ context: CommandContext) async throws
    -> ImportSummary
  {
    let directory = URL(fileURLWithPath: context.resolvePath(store.dataDir))
    let database = directory.appendingPathComponent(SQLiteVoteStore.fileName)
    let usesDirectory = (store.postgres ?? "").isEmpty
    let manager = FileManager.default
    let hadDirectory = manager.fileExists(atPath: directory.path)
    let hadDatabase = manager.fileExists(atPath: database.path)
    func removeWhatWeCreated() {
      guard usesDirectory, !hadDatabase else { return }
      if !hadDirectory {
        try? manager.removeItem(at: directory)
        return
      }
      for suffix in ["", "-wal", "-shm", "-journal"] {
        try? manager.removeItem(atPath: database.path + suffix)
      }
    }
    let opened: any VoteStore
    do {
      opened = try store.open(context, mustExist: false)
    } catch {
      removeWhatWeCreated()
      throw error
    }
    do {
      let summary = try await opened.importAll(export, replace: replace)
      await opened.close()
      return summary
    } catch {
      await opened.close()
      removeWhatWeCreated()
      throw CommandError.failure("nothing was imported: \(error)")
    }
  }

  /// `Imported 1 counter.`, `Imported 3 counters, skipped 1 that already exists (…).`
  static func summaryLine(_ summary: ImportSummary) -> String {
    var line = "Imported \(summary.imported) \(summary.imported == 1 ? "counter" : "counters")"
    if summary.skipped > 0 {
      line +=
        summary.skipped == 1
        ? ", skipped 1 that already exists (use --replace to overwrite it)"
        : ", skipped \(summary.skipped) that already exist (use --replace to overwrite them)"
    }
    return line + "."
  }

  /// The export in `bytes`, or a failure that says in words what is wrong and where.
  static func decode(_ bytes: [UInt8], file: String) throws(CommandError) -> VoteExport {
    let what = "a 'roadmapctl votes export' file (JSON: {\"version\":1,\"counters\":[…]})"
    if bytes.contains(0) || String(bytes: bytes, encoding: .utf8) == nil {
      throw .failure("\(file) is not a text file; expected \(what).")
    }
    if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
      throw .failure("\(file) is empty; expected \(what).")
    }
    let tree: Any
    do {
      tree = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    } catch {
      let detail = (error as NSError).userInfo["NSDebugDescription"] as? String ?? "\(error)"
      throw .failure("\(syntaxPosition(detail, bytes, file)): not valid JSON: \(detail)")
    }
    do {
      return try JSONDecoder().decode(VoteExport.self, from: Data(bytes))
    } catch let error as DecodingError {
      throw .failure("\(file) is not \(what): \(describe(error, tree))")
    } catch {
      throw .failure("\(file) is not \(what): \(error.localizedDescription)")
    }
  }

  /// `file:LINE:COLUMN` when the parser's message names a character offset, else `file`.
  private static func syntaxPosition(_ detail: String, _ bytes: [UInt8], _ file: String) -> String {
    guard let range = detail.range(of: "character ") else { return file }
    let digits = detail[range.upperBound...].prefix { $0.isNumber }
    guard let offset = Int(digits), offset <= bytes.count else { return file }
    var line = 1
    var column = 1
    for byte in bytes[..<offset] {
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return "\(file):\(line):\(column)"
  }

  /// A decoding failure in words: where (the JSON path, and which counter), and what.
  private static func describe(_ error: DecodingError, _ tree: Any) -> String {
    switch error {
    case .typeMismatch(let type, let context):
      return "\(place(context.codingPath)): expected \(noun(type)), found "
        + "\(found(at: context.codingPath, in: tree))."
    case .valueNotFound(let type, let context):
      return "\(place(context.codingPath)): expected \(noun(type)), found null."
    case .keyNotFound(let key, let context):
      return "\(place(context.codingPath)): the member \"\(key.stringValue)\" is missing."
    case .dataCorrupted(let context):
      if let number = firstNonInteger(tree, path: "") {
        return "\(number.path): \(number.text) is not a whole number within ±(2^63−1)."
      }
      return "\(place(context.codingPath)): \(context.debugDescription)"
    @unknown default:
      return "\(error)"
    }
  }

  /// `the top level`, or `counters[2].record.value (counter 3)`.
  private static func place(_ path: [any CodingKey]) -> String {
    guard !path.isEmpty else { return "the top level" }
    var text = ""
    for key in path {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += (text.isEmpty ? "" : ".") + key.stringValue
      }
    }
    if path.first?.stringValue == "counters", path.count > 1, let index = path[1].intValue {
      text += " (counter \(index + 1))"
    }
    return text
  }

  private static func noun(_ type: Any.Type) -> String {
    switch type {
    case is Int64.Type, is Int.Type: return "an integer"
    case is String.Type: return "a string"
    case is Bool.Type: return "true or false"
    case is [Any].Type: return "an array"
    case is [String: Any].Type: return "an object"
    default: return "\(type)"
    }
  }

  /// What the JSON holds at `path`, in words.
  private static func found(at path: [any CodingKey], in tree: Any) -> String {
    var value: Any? = tree
    for key in path {
      if let index = key.intValue, let array = value as? [Any], array.indices.contains(index) {
        value = array[index]
      } else if let object = value as? [String: Any] {
        value = object[key.stringValue]
      } else {
        return "something else"
      }
    }
    switch value {
    case is [Any]: return "an array"
    case is [String: Any]: return "an object"
    case is String: return "a string"
    case is NSNull: return "null"
    case let number as NSNumber:
      return String(cString: number.objCType) == "c" ? "true or false" : "the number \(number)"
    default: return "something else"
    }
  }

  /// The first number in `tree` that is not a whole number within `Int64`, with its path.
  private static func firstNonInteger(_ tree: Any, path: String) -> (path: String, text: String)? {
    switch tree {
    case let array as [Any]:
      for (index, element) in array.enumerated() {
        if let found = firstNonInteger(element, path: path + "[\(index)]") { return found }
      }
    case let object as [String: Any]:
      for key in object.keys.sorted() {
        let child = path.isEmpty ? key : path + "." + key
        if let found = firstNonInteger(object[key]!, path: child) { return found }
      }
    case let number as NSNumber where String(cString: number.objCType) != "c":
      if Int64(number.description) == nil {
        let index = path.hasPrefix("counters[") ? path.dropFirst(9).prefix { $0.isNumber } : ""
        let counter = Int(index).map { " (counter \($0 + 1))" } ?? ""
        return (path + counter, number.description)
      }
    default: break
    }
    return nil
  }
}
