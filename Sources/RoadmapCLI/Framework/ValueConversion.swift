import Foundation

/// Turns the texts given for a row into typed values, with the framework's error messages.
enum ValueConversion {
  /// `text` as a `T`, or the usage error that names the row (and lists the allowed values).
  static func convert<T: ExpressibleByArgument>(
    _ text: String, for row: Parameter
  ) throws(CommandError) -> T {
    if let value = T(argument: text) { return value }
    let message = "The value '\(text)' is invalid for '\(row.displayName)'."
    if !T.allValueStrings.isEmpty {
      throw .usage(
        message + " Please provide one of " + Suggestion.quotedList(T.allValueStrings) + ".")
    }
    throw .validation(message)
  }

  /// Every occurrence, split at `separator` when given, trimmed, blanks dropped, converted.
  static func convertAll<T: ExpressibleByArgument>(
    _ texts: [String], separator: Character?, for row: Parameter
  ) throws(CommandError) -> [T] {
    var parts: [String] = texts
    if let separator {
      parts = texts.flatMap { $0.split(separator: separator) }
        .map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }
    }
    var values: [T] = []
    for part in parts { values.append(try convert(part, for: row)) }
    return values
  }

  /// Runs a declaration's validation: its message becomes a validation error (exit 64).
  static func check<T>(_ value: T, with validate: (@Sendable (T) -> String?)?) throws(CommandError)
  {
    if let message = validate?(value) { throw .validation(message) }
  }
}
