/// Reading a Roadmap JSON document failed; the diagnostic says where and why.
public struct RoadmapReadError: Error, Sendable, CustomStringConvertible {
  /// The problem that stopped the reading.
  public var diagnostic: Diagnostic

  /// Creates an error from the diagnostic that caused it.
  ///
  /// - Parameter diagnostic: the problem, with its position.
  public init(diagnostic: Diagnostic) {
    self.diagnostic = diagnostic
  }

  /// `line:column: message [code]`.
  public var description: String {
    "\(diagnostic.line):\(diagnostic.column): \(diagnostic.message) [\(diagnostic.code)]"
  }
}
