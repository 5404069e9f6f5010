import Testing

@testable import RoadmapCLI

/// Parsing against a parameter table, without running a command.
@Suite struct CommandParserTests {
  static let table = CommandConfiguration(
    name: "probe", abstract: "A probe.",
    parameters: [
      .argument("first", help: "The first."),
      .argument("rest", repeating: true, required: false, help: "The rest."),
      .option("format", short: "f", default: "human", allowed: ["human", "json"], help: "Format."),
      .option("tag", repeating: true, help: "Tags."),
      .option("amount", help: "An amount."),
      .option("token", environment: "PROBE_TOKEN", help: "A token."),
      .flag("strict", help: "Strict."),
    ])

  struct Case: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var check: @Sendable (ParsedValues) -> Bool
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let accepted: [Case] = [
    Case(arguments: ["a"]) {
      $0.string("first") == "a" && $0.strings("rest").isEmpty && $0.string("format") == "human"
        && !$0.flag("strict") && !$0.wasGiven("format")
    },
    Case(arguments: ["a", "b", "c"]) { $0.strings("rest") == ["b", "c"] },
    Case(arguments: ["--format", "json", "a"]) { $0.string("format") == "json" },
    Case(arguments: ["--format=json", "a"]) { $0.string("format") == "json" },
    Case(arguments: ["-f", "json", "a"]) { $0.string("format") == "json" },
    Case(arguments: ["a", "--strict"]) { $0.flag("strict") },
    Case(arguments: ["--tag", "x", "a", "--tag=y"]) { $0.strings("tag") == ["x", "y"] },
    Case(arguments: ["a", "--tag", "x,y", "--tag", "z"]) { $0.list("tag") == ["x", "y", "z"] },
    Case(arguments: ["--format", "human", "--format", "json", "a"]) {
      $0.string("format") == "json"
    },
    Case(arguments: ["--", "--strict", "-f"]) {
      $0.string("first") == "--strict" && $0.strings("rest") == ["-f"] && !$0.flag("strict")
    },
    Case(arguments: ["-"]) { $0.string("first") == "-" },
    Case(arguments: ["a", "--amount", "-1"]) { (try? $0.int("amount")) == -1 },
    Case(arguments: ["-5"]) { $0.string("first") == "-5" },
    Case(arguments: ["a", "--amount="]) { $0.string("amount") == "" },
  ]

  @Test(arguments: accepted)
  func accepts(_ testCase: Case) throws {
    let values = try CommandParser.parse(testCase.arguments, configuration: Self.table)
    #expect(testCase.check(values))
  }

  static let rejected: [(arguments: [String], message: String)] = [
    ([], "Missing expected argument '<first>'."),
    (["a", "--strct"], "Unknown option '--strct'. Did you mean '--strict'?"),
    (["a", "--formt=json"], "Unknown option '--formt'. Did you mean '--format'?"),
    (["a", "--zzzzzzzzzz"], "Unknown option '--zzzzzzzzzz'."),
    (["a", "-x"], "Unknown option '-x'."),
    (["a", "--format"], "Missing value for '--format <format>'."),
    (["a", "--format", "--strict"], "Missing value for '--format <format>'."),
    (
      ["a", "--format", "xml"],
      "The value 'xml' is invalid for '--format <format>'. Please provide one of 'human' or 'json'."
    ),
    (["a", "--strict=yes"], "The flag '--strict' does not take a value."),
  ]

  @Test(arguments: rejected)
  func rejects(_ arguments: [String], message: String) {
    #expect(throws: CommandError.usage(message)) {
      try CommandParser.parse(arguments, configuration: Self.table)
    }
  }

  @Test func extraArgumentIsUnexpected() {
    let table = CommandConfiguration(
      name: "one", abstract: "One.", parameters: [.argument("file", help: "A file.")])
    #expect(throws: CommandError.usage("Unexpected argument 'b'.")) {
      try CommandParser.parse(["a", "b"], configuration: table)
    }
  }

  @Test func environmentFillsAnOptionNotGiven() throws {
    let values = try CommandParser.parse(
      ["a"], configuration: Self.table, environment: ["PROBE_TOKEN": "secret"])
    #expect(values.string("token") == "secret")
    let overridden = try CommandParser.parse(
      ["a", "--token", "mine"], configuration: Self.table, environment: ["PROBE_TOKEN": "secret"])
    #expect(overridden.string("token") == "mine")
  }

  @Test func requiredOptionMustBeGiven() {
    let table = CommandConfiguration(
      name: "req", abstract: "Req.", parameters: [.option("port", required: true, help: "Port.")])
    #expect(throws: CommandError.usage("Missing expected argument '--port <port>'.")) {
      try CommandParser.parse([], configuration: table)
    }
  }

  @Test func nonIntegerIsAValidationError() throws {
    let values = try CommandParser.parse(["a", "--amount", "many"], configuration: Self.table)
    #expect(throws: CommandError.validation("The value 'many' is invalid for '--amount <amount>'."))
    {
      try values.int("amount")
    }
  }

  @Test func listIsNilWhenAbsent() throws {
    let values = try CommandParser.parse(["a"], configuration: Self.table)
    #expect(values.list("tag") == nil)
    #expect(try values.int("amount") == nil)
  }

  @Test func suggestionDistance() {
    #expect(Suggestion.editDistance("kitten", "sitting") == 3)
    #expect(Suggestion.closest(to: "valdate", in: ["validate", "show", "schema"]) == "validate")
    #expect(Suggestion.closest(to: "sch", in: ["validate", "show", "schema"]) == "schema")
    #expect(Suggestion.closest(to: "qqqqqq", in: ["validate"]) == nil)
    #expect(Suggestion.quotedList(["a", "b", "c"]) == "'a', 'b' or 'c'")
  }
}
