/// One problem found in a document, as a value.
///
/// Codes are stable and kebab-case (`trailing-comma`, `id-not-string`, `duplicate-id`); every
/// code is listed in `docs/roadmap-format.md`.
public struct Diagnostic: Sendable, Hashable, Codable {
  /// The stable code of the rule.
  public var code: String
  /// How serious it is.
  public var severity: Severity
  /// What is wrong and, where there is one, the fix.
  public var message: String
  /// JSON pointer of the value concerned; "" for the whole document.
  public var path: String
  /// 1-based line.
  public var line: Int
  /// 1-based column in Unicode scalars.
  public var column: Int
  /// Other places involved, such as the first occurrence of a duplicate id.
  public var related: [RelatedLocation]

  /// Creates a diagnostic.
  ///
  /// - Parameters:
  ///   - code: stable kebab-case code.
  ///   - severity: how serious it is.
  ///   - message: what is wrong and the fix.
  ///   - path: JSON pointer ("" for the document).
  ///   - line: 1-based line.
  ///   - column: 1-based column.
  ///   - related: other places involved.
  public init(
    code: String, severity: Severity, message: String, path: String, line: Int, column: Int,
    related: [RelatedLocation] = []
  ) {
    self.code = code
    self.severity = severity
    self.message = message
    self.path = path
    self.line = line
    self.column = column
    self.related = related
  }

  /// The position as a value.
  public var location: SourceLocation { SourceLocation(line: line, column: column) }
}

extension Diagnostic: CustomStringConvertible {
  /// `line:column: severity: message [code]`.
  public var description: String {
    "\(line):\(column): \(severity.rawValue): \(message) [\(code)]"
  }
}
