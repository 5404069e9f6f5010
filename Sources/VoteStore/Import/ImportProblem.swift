/// One thing wrong with an export being imported: where it is and why.
///
/// Reading a file (``VoteExport/read(_:)``) reports every problem at once, each with the
/// counter's position in the file (its index and, when readable, `namespace/key`), the JSON
/// path of the value, and the value's line and column; nothing is imported while any exists.
public struct ImportProblem: Sendable, Equatable, CustomStringConvertible {
  /// The index of the counter in `counters`, or nil for a problem of the whole document.
  public var index: Int?
  /// `namespace/key` of the counter when both could be read (shortened and escaped).
  public var counter: String?
  /// The JSON path of the offending value, e.g. `counters[3].record.value`.
  public var path: String
  /// The 1-based line of the offending value in the file; nil for an export built in code.
  public var line: Int?
  /// The 1-based column (in characters) of the offending value; nil without a file.
  public var column: Int?
  /// What is wrong, in a sentence.
  public var message: String

  /// Creates a problem.
  public init(
    index: Int?, counter: String?, path: String, line: Int? = nil, column: Int? = nil,
    message: String
  ) {
    self.index = index
    self.counter = counter
    self.path = path
    self.line = line
    self.column = column
    self.message = message
  }

  /// `line:column: path (namespace/key): message`.
  public var description: String {
    var text = ""
    if let line, let column { text += "\(line):\(column): " }
    text += path
    if let counter { text += " (\(counter))" }
    return text + (path.isEmpty && counter == nil ? "" : ": ") + message
  }
}

/// Every problem found in an export; nothing was imported.
public struct VoteExportProblems: Error, Sendable, Equatable, CustomStringConvertible {
  /// The problems, in file order.
  public var problems: [ImportProblem]

  /// Creates the error.
  public init(problems: [ImportProblem]) {
    self.problems = problems
  }

  /// One problem per line.
  public var description: String { problems.map(\.description).joined(separator: "\n") }
}
