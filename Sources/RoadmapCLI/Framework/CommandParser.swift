import Foundation

/// Parses one command's arguments against its parameter table (``ParameterTable``).
///
/// Accepts `--name value`, `--name=value`, `-n value`, flags, repeated options, `--` (everything
/// after it is positional) and `-` as a positional value (standard input). A value that starts
/// with `-` is taken as an option's value only when it is `-` itself or a negative number.
enum CommandParser {
  static func parse(
    _ arguments: [String],
    table: ParameterTable,
    environment: [String: String] = [:]
  ) throws(CommandError) -> ParsedValues {
    var given: [String: [String]] = [:]
    var positionals: [String] = []
    var index = 0
    var afterTerminator = false
    while index < arguments.count {
      let token = arguments[index]
      index += 1
      if afterTerminator || token == "-" || !token.hasPrefix("-") || isNegativeNumber(token) {
        positionals.append(token)
        continue
      }
      if token == "--" {
        afterTerminator = true
        continue
      }
      var name: String
      var inlineValue: String? = nil
      let parameter: Parameter
      if token.hasPrefix("--") {
        name = String(token.dropFirst(2))
        if let equals = name.firstIndex(of: "=") {
          inlineValue = String(name[name.index(after: equals)...])
          name = String(name[..<equals])
        }
        guard let found = table.options.first(where: { $0.name == name }) else {
          throw .usage(unknownOption("--\(name)", table: table))
        }
        parameter = found
      } else {
        let letters = token.dropFirst()
        guard letters.count == 1, let letter = letters.first,
          let found = table.options.first(where: { $0.shortName == letter })
        else {
          throw .usage(unknownOption(token, table: table))
        }
        parameter = found
      }
      switch parameter.kind {
      case .flag:
        if inlineValue != nil {
          throw .usage("The flag '\(parameter.displayName)' does not take a value.")
        }
        given[parameter.name, default: []].append("true")
      case .option:
        let value: String
        if let inlineValue {
          value = inlineValue
        } else if index < arguments.count,
          arguments[index] == "-" || !arguments[index].hasPrefix("-")
            || isNegativeNumber(arguments[index])
        {
          value = arguments[index]
          index += 1
        } else {
          throw .usage("Missing value for '\(parameter.displayName)'.")
        }
        try check(value, for: parameter)
        given[parameter.name, default: []].append(value)
      case .argument:
        preconditionFailure("arguments are not looked up by name")
      }
    }

    try assign(positionals, to: table.arguments, into: &given)

    for parameter in table.options where given[parameter.name] == nil {
      if let variable = parameter.environmentVariable, let value = environment[variable],
        !value.isEmpty || parameter.emptyEnvironmentIsAValue
      {
        try check(value, for: parameter)
        given[parameter.name] = [value]
      } else if parameter.isRequired {
        if let variable = parameter.environmentVariable {
          throw .usage(
            "Missing expected argument '\(parameter.displayName)' (or set \(variable)).")
        }
        throw .usage("Missing expected argument '\(parameter.displayName)'.")
      }
    }
    return ParsedValues(given)
  }

  private static func assign(
    _ positionals: [String],
    to arguments: [Parameter],
    into given: inout [String: [String]]
  ) throws(CommandError) {
    var remaining = positionals[...]
    for argument in arguments {
      if argument.isRepeating {
        if !remaining.isEmpty {
          given[argument.name] = Array(remaining)
          remaining = []
        }
      } else if let value = remaining.first {
        given[argument.name] = [value]
        remaining = remaining.dropFirst()
      }
      if given[argument.name] == nil, argument.isRequired {
        throw .usage("Missing expected argument '\(argument.displayName)'.")
      }
    }
    if let extra = remaining.first {
      throw .usage("Unexpected argument '\(extra)'.")
    }
  }

  /// Rejects a value outside the row's allowed values as soon as it is read (each part of a
  /// comma-separated list on its own).
  private static func check(_ value: String, for parameter: Parameter) throws(CommandError) {
    guard !parameter.allowedValues.isEmpty else { return }
    let parts =
      parameter.separator.map { separator in
        value.split(separator: separator).map { $0.trimmingCharacters(in: .whitespaces) }
          .filter { !$0.isEmpty }
      } ?? [value]
    guard let value = parts.first(where: { !parameter.allowedValues.contains($0) }) else {
      return
    }
    throw .usage(
      "The value '\(value)' is invalid for '\(parameter.displayName)'. Please provide one of "
        + Suggestion.quotedList(parameter.allowedValues) + ".")
  }

  private static func unknownOption(_ token: String, table: ParameterTable) -> String {
    let names = table.options.map { "--\($0.name)" } + ["--help"]
    var message = "Unknown option '\(token)'."
    if token.hasPrefix("--"), let suggestion = Suggestion.closest(to: token, in: names) {
      message += " Did you mean '\(suggestion)'?"
    }
    return message
  }

  static func isNegativeNumber(_ token: String) -> Bool {
    guard token.count > 1, token.hasPrefix("-") else { return false }
    return Double(token.dropFirst()) != nil
  }
}
