/// Renders help and usage lines from a command's configuration, in swift-argument-parser's layout.
enum HelpFormatter {
  static let width = 80
  static let labelColumn = 26

  /// The full help: OVERVIEW, USAGE, ARGUMENTS, OPTIONS, SUBCOMMANDS.
  static func help(for path: [any Command.Type], isRoot: Bool) -> String {
    let configuration = path.last!.configuration
    let table = ParameterTable(path.last!.init())
    var sections: [String] = []
    sections.append(wrap("OVERVIEW: " + configuration.abstract, indent: 0))
    if !configuration.discussion.isEmpty {
      sections.append(
        configuration.discussion.split(separator: "\n", omittingEmptySubsequences: false)
          .map { $0.hasPrefix("  ") ? String($0) : wrap(String($0), indent: 0) }
          .joined(separator: "\n"))
    }
    sections.append(wrapUsage("USAGE: " + usage(for: path)))

    let arguments = table.arguments
    if !arguments.isEmpty {
      sections.append(
        "ARGUMENTS:\n"
          + arguments.map { row(label: "<\($0.valueName)>", text: describe($0)) }.joined())
    }
    var optionRows = table.options.map { parameter -> String in
      var label = parameter.shortName.map { "-\($0), " } ?? ""
      label += parameter.displayName
      return row(label: label, text: describe(parameter))
    }
    if isRoot {
      optionRows.append(row(label: "--version", text: "Show the version."))
    }
    optionRows.append(row(label: "-h, --help", text: "Show help information."))
    sections.append("OPTIONS:\n" + optionRows.joined())

    if !configuration.subcommands.isEmpty {
      let names = path.map { $0.configuration.name }
      let helpCommand = ([names[0], "help"] + names.dropFirst() + ["<subcommand>"])
        .joined(separator: " ")
      let rows = configuration.subcommands.map {
        row(label: $0.configuration.name, text: $0.configuration.abstract)
      }
      sections.append(
        "SUBCOMMANDS:\n" + rows.joined() + "\n  See '\(helpCommand)' for detailed help.\n")
    }
    return sections.map { $0.hasSuffix("\n") ? $0 : $0 + "\n" }.joined(separator: "\n")
  }

  /// The one-line usage: `roadmapctl validate [<inputs> ...] [--format <format>] [--strict]`.
  static func usage(for path: [any Command.Type]) -> String {
    let configuration = path.last!.configuration
    var parts = [path.map { $0.configuration.name }.joined(separator: " ")]
    if !configuration.subcommands.isEmpty {
      parts.append("<subcommand>")
      return parts.joined(separator: " ")
    }
    for parameter in ParameterTable(path.last!.init()).rows {
      var text = parameter.displayName
      if parameter.isRepeating { text += " ..." }
      parts.append(parameter.isRequired ? text : "[\(text)]")
    }
    return parts.joined(separator: " ")
  }

  /// A long usage line broken between its parts, continuation lines indented.
  static func wrapUsage(_ line: String) -> String {
    guard line.count > width else { return line }
    var lines: [String] = []
    var current = ""
    var depth = 0
    var part = ""
    var parts: [String] = []
    for character in line {
      if character == "[" { depth += 1 }
      if character == "]" { depth -= 1 }
      if character == " ", depth == 0 {
        parts.append(part)
        part = ""
      } else {
        part.append(character)
      }
    }
    parts.append(part)
    let indent = String(repeating: " ", count: 8)
    for part in parts {
      if !current.isEmpty, current.count + 1 + part.count > width {
        lines.append(current)
        current = indent + part
      } else {
        current += (current.isEmpty ? "" : " ") + part
      }
    }
    lines.append(current)
    return lines.joined(separator: "\n")
  }

  private static func describe(_ parameter: Parameter) -> String {
    var notes: [String] = []
    if !parameter.allowedValues.isEmpty {
      notes.append("values: " + parameter.allowedValues.joined(separator: ", "))
    }
    if let shown = parameter.defaultDescription { notes.append("default: \(shown)") }
    if let variable = parameter.environmentVariable { notes.append("env: \(variable)") }
    return notes.isEmpty
      ? parameter.help : parameter.help + " (" + notes.joined(separator: "; ") + ")"
  }

  /// `  label                   text`, the text wrapped at the help column.
  private static func row(label: String, text: String) -> String {
    let head = "  " + label
    let body = wrap(text, indent: labelColumn)
    let bodyText = String(body.dropFirst(labelColumn))
    if head.count < labelColumn - 1 {
      return head + String(repeating: " ", count: labelColumn - head.count) + bodyText + "\n"
    }
    return head + "\n" + body + "\n"
  }

  /// Wraps `text` to ``width`` columns, every line indented by `indent` spaces.
  static func wrap(_ text: String, indent: Int) -> String {
    let pad = String(repeating: " ", count: indent)
    var lines: [String] = []
    var line = pad
    for word in text.split(separator: " ", omittingEmptySubsequences: true) {
      if line.count > indent, line.count + 1 + word.count > width {
        lines.append(line)
        line = pad
      }
      line += (line.count > indent ? " " : "") + word
    }
    lines.append(line)
    return lines.joined(separator: "\n")
  }
}
