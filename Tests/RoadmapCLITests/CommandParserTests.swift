import Testing

@testable import RoadmapCLI

/// A command whose declarations cover every kind of parameter the framework offers.
private struct Probe: Command {
  static let configuration = CommandConfiguration(name: "probe", abstract: "A probe.")

  enum Format: String, CaseIterable, ExpressibleByArgument {
    case human, json
  }

  @Argument(help: "The first.")
  var first: String

  @Argument(help: "The rest.")
  var rest: [String]

  @Option(short: "f", help: "Format.")
  var format: Format = .human

  @Option(separator: nil, help: "Tags.")
  var tag: [String]

  @Option(help: "Comma-separated kinds.")
  var kinds: [Format]

  @Option(help: "An amount.", validate: { $0 <= 100 ? nil : "--amount is at most 100." })
  var amount: Int?

  @Option(help: "A ratio.")
  var ratio: Double = 0.5

  @Option(environment: "PROBE_TOKEN", help: "A token.")
  var token: String?

  @Flag(help: "Strict.")
  var strict: Bool

  @Option(name: "out-file", help: "Where to.")
  var destination: String = "-"

  @OptionGroup var shared: SharedProbeOptions

  func validate() throws {
    if strict, amount == nil { throw CommandError.validation("--strict needs --amount.") }
  }
}

/// A group of options declared once and shared.
private struct SharedProbeOptions: ParsableArguments {
  @Option(valueName: "dir", help: "A directory.")
  var dataDir: String = "./data"

  func validate() throws {
    if dataDir.isEmpty { throw CommandError.validation("--data-dir must not be empty.") }
  }
}

/// Parses `arguments` into a fresh `Probe`, as the framework does before `run`.
private func parse(_ arguments: [String], environment: [String: String] = [:]) throws -> Probe {
  let probe = Probe()
  let table = ParameterTable(probe)
  try table.bind(CommandParser.parse(arguments, table: table, environment: environment))
  return probe
}

/// Parsing and typed binding against a table read from property wrappers, without running.
@Suite struct CommandParserTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    fileprivate var check: @Sendable (Probe) -> Bool
    var testDescription: String { arguments.joined(separator: " ") }
  }

  static let accepted: [Case] = [
    Case(arguments: ["a"]) {
      $0.first == "a" && $0.rest.isEmpty && $0.format == .human && !$0.strict
        && $0.amount == nil && $0.ratio == 0.5 && $0.tag.isEmpty && $0.destination == "-"
        && $0.shared.dataDir == "./data"
    },
    Case(arguments: ["a", "b", "c"]) { $0.rest == ["b", "c"] },
    Case(arguments: ["--format", "json", "a"]) { $0.format == .json },
    Case(arguments: ["--format=json", "a"]) { $0.format == .json },
    Case(arguments: ["-f", "json", "a"]) { $0.format == .json },
    Case(arguments: ["a", "--strict", "--amount", "3"]) { $0.strict && $0.amount == 3 },
    Case(arguments: ["--tag", "x", "a", "--tag=y,z"]) { $0.tag == ["x", "y,z"] },
    Case(arguments: ["a", "--kinds", "json, human", "--kinds", "json"]) {
      $0.kinds == [.json, .human, .json]
    },
    Case(arguments: ["--format", "human", "--format", "json", "a"]) { $0.format == .json },
    Case(arguments: ["--", "--strict", "-f"]) {
      $0.first == "--strict" && $0.rest == ["-f"] && !$0.strict
    },
    Case(arguments: ["-"]) { $0.first == "-" },
    Case(arguments: ["a", "--amount", "-1"]) { $0.amount == -1 },
    Case(arguments: ["a", "--ratio", "-2.5"]) { $0.ratio == -2.5 },
    Case(arguments: ["-5"]) { $0.first == "-5" },
    Case(arguments: ["a", "--out-file", "x.json"]) { $0.destination == "x.json" },
    Case(arguments: ["a", "--data-dir", "/srv/votes"]) { $0.shared.dataDir == "/srv/votes" },
  ]

  @Test(arguments: accepted)
  func accepts(_ testCase: Case) throws {
    #expect(testCase.check(try parse(testCase.arguments)))
  }

  static let rejected: [(arguments: [String], error: CommandError)] = [
    ([], .usage("Missing expected argument '<first>'.")),
    (["a", "--strct"], .usage("Unknown option '--strct'. Did you mean '--strict'?")),
    (["a", "--formt=json"], .usage("Unknown option '--formt'. Did you mean '--format'?")),
    (["a", "--zzzzzzzzzz"], .usage("Unknown option '--zzzzzzzzzz'.")),
    (["a", "-x"], .usage("Unknown option '-x'.")),
    (["a", "--format"], .usage("Missing value for '--format <format>'.")),
    (["a", "--format", "--strict"], .usage("Missing value for '--format <format>'.")),
    (
      ["a", "--format", "xml"],
      .usage(
        "The value 'xml' is invalid for '--format <format>'. Please provide one of 'human' or "
          + "'json'.")
    ),
    (
      ["a", "--kinds", "json,xml"],
      .usage(
        "The value 'xml' is invalid for '--kinds <kinds>'. Please provide one of 'human' or "
          + "'json'.")
    ),
    (["a", "--strict=yes"], .usage("The flag '--strict' does not take a value.")),
    (
      ["a", "--amount", "many"], .validation("The value 'many' is invalid for '--amount <amount>'.")
    ),
    (["a", "--amount", "1.5"], .validation("The value '1.5' is invalid for '--amount <amount>'.")),
    (["a", "--ratio", "nan"], .validation("The value 'nan' is invalid for '--ratio <ratio>'.")),
    (["a", "--amount", "101"], .validation("--amount is at most 100.")),
    (["a", "--strict"], .validation("--strict needs --amount.")),
    (["a", "--data-dir="], .validation("--data-dir must not be empty.")),
    (["a", "--destination", "x"], .usage("Unknown option '--destination'.")),
  ]

  @Test(arguments: rejected)
  func rejects(_ arguments: [String], error: CommandError) {
    #expect(throws: error) { try parse(arguments) }
  }

  @Test func extraArgumentIsUnexpected() {
    struct One: Command {
      static let configuration = CommandConfiguration(name: "one", abstract: "One.")
      @Argument(help: "A file.") var file: String
    }
    let one = One()
    let table = ParameterTable(one)
    #expect(throws: CommandError.usage("Unexpected argument 'b'.")) {
      try CommandParser.parse(["a", "b"], table: table)
    }
  }

  @Test func environmentFillsAnOptionNotGiven() throws {
    #expect(try parse(["a"], environment: ["PROBE_TOKEN": "secret"]).token == "secret")
    #expect(try parse(["a"], environment: ["PROBE_TOKEN": ""]).token == nil)
    let overridden = try parse(["a", "--token", "mine"], environment: ["PROBE_TOKEN": "secret"])
    #expect(overridden.token == "mine")
  }

  @Test func requiredOptionMustBeGiven() throws {
    struct Required: Command {
      static let configuration = CommandConfiguration(name: "req", abstract: "Req.")
      @Option(help: "Port.") var port: Int
    }
    let missing = Required()
    #expect(throws: CommandError.usage("Missing expected argument '--port <port>'.")) {
      let table = ParameterTable(missing)
      try table.bind(CommandParser.parse([], table: table))
    }
    let given = Required()
    let table = ParameterTable(given)
    try table.bind(CommandParser.parse(["--port", "8080"], table: table))
    #expect(given.port == 8080)
  }

  @Test func aMissingOptionNamesItsEnvironmentVariable() throws {
    struct Keyed: Command {
      static let configuration = CommandConfiguration(name: "keyed", abstract: "Keyed.")
      @Option(environment: "PROBE_KEY", help: "Key.") var key: String
    }
    let missing = CommandError.usage(
      "Missing expected argument '--key <key>' (or set PROBE_KEY).")
    for environment in [[:], ["PROBE_KEY": ""]] {
      #expect(throws: missing) {
        let table = ParameterTable(Keyed())
        try table.bind(CommandParser.parse([], table: table, environment: environment))
      }
    }
    let keyed = Keyed()
    let table = ParameterTable(keyed)
    try table.bind(CommandParser.parse([], table: table, environment: ["PROBE_KEY": "k"]))
    #expect(keyed.key == "k")
  }

  @Test func tableComesFromTheDeclarations() {
    let rows = ParameterTable(Probe()).rows
    #expect(
      rows.map(\.displayName) == [
        "<first>", "<rest>", "--format <format>", "--tag <tag>", "--kinds <kinds>",
        "--amount <amount>", "--ratio <ratio>", "--token <token>", "--strict",
        "--out-file <out-file>", "--data-dir <dir>",
      ])
    let format = rows.first { $0.name == "format" }
    #expect(format?.allowedValues == ["human", "json"])
    #expect(format?.defaultDescription == "human")
    #expect(format?.shortName == "f")
    #expect(rows.first { $0.name == "first" }?.isRequired == true)
    #expect(rows.first { $0.name == "rest" }?.isRepeating == true)
    #expect(rows.first { $0.name == "tag" }?.isRepeating == true)
    #expect(rows.first { $0.name == "kinds" }?.isRepeating == false)
    #expect(rows.first { $0.name == "token" }?.environmentVariable == "PROBE_TOKEN")
    #expect(rows.first { $0.name == "amount" }?.defaultDescription == nil)
  }

  @Test func kebabCaseNames() {
    #expect(ParameterSpec.kebabCase("dataDir") == "data-dir")
    #expect(ParameterSpec.kebabCase("strictCountapi") == "strict-countapi")
    #expect(ParameterSpec.kebabCase("corsURL") == "cors-url")
    #expect(ParameterSpec.kebabCase("urlPath") == "url-path")
    #expect(ParameterSpec.kebabCase("http2Port") == "http2-port")
    #expect(ParameterSpec.kebabCase("format") == "format")
  }

  @Test func suggestionDistance() {
    #expect(Suggestion.editDistance("kitten", "sitting") == 3)
    #expect(Suggestion.closest(to: "valdate", in: ["validate", "show", "schema"]) == "validate")
    #expect(Suggestion.closest(to: "sch", in: ["validate", "show", "schema"]) == "schema")
    #expect(Suggestion.closest(to: "qqqqqq", in: ["validate"]) == nil)
    #expect(Suggestion.quotedList(["a", "b", "c"]) == "'a', 'b' or 'c'")
  }
}
