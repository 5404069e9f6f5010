import Foundation

/// One generated request, in plain values so that an in-process test and one over a socket
/// can both send it.
public struct HostileRequest: Sendable {
  /// The method token.
  public var method: String
  /// The request target: path and query, possibly with raw bytes an HTTP client would
  /// percent-encode (see ``wireTarget``).
  public var target: String
  /// The header fields, in order.
  public var headers: [(name: String, value: String)]
  /// The body.
  public var body: [UInt8]
  /// The client's address, for the rate limiter and the log.
  public var remoteAddress: String

  /// The target with every byte outside visible ASCII percent-encoded, as it can travel in a
  /// request line.
  public var wireTarget: String {
    var out = ""
    for byte in target.utf8 {
      if byte > 0x20 && byte < 0x7F {
        out.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
      }
    }
    return out
  }
}

/// Requests from a small grammar of the counter service's routes (countapi, counterapi, the
/// VoteFirst board API of `project`, the operations routes), most of them malformed or
/// hostile somewhere: names, numbers, query parameters, headers and JSON bodies (cut short,
/// a byte changed, nested thousands deep, not JSON at all). Deterministic for a seed.
public struct HostileTraffic {
  private let project: String
  private let adminToken: String
  private var random: SeededRandom

  /// What in an answer's body shows that the markup this traffic stores came out unescaped
  /// (a script, an event handler, a `javascript:` link in an HTML page), or nil.
  public static func unescapedMarkup(in body: String, contentType: String) -> String? {
    guard contentType.lowercased().contains("html") else { return nil }
    let lowered = body.lowercased()
    for sign in ["<script>alert(1)", "onmouseover=\"alert(1)", "<img src=x", "href=\"javascript:"]
    where lowered.contains(sign) {
      return "an HTML page holds \(sign)"
    }
    return nil
  }

  /// A generator for `project`, whose admin calls mostly carry `adminToken`.
  public init(seed: UInt64, project: String, adminToken: String) {
    random = SeededRandom(seed: seed)
    self.project = project
    self.adminToken = adminToken
  }

  private mutating func next() -> UInt64 { random.next() }

  private mutating func below(_ bound: Int) -> Int { random.below(bound) }
  private mutating func chance(_ percent: Int) -> Bool { random.chance(percent) }
  private mutating func pick<T>(_ items: [T]) -> T { random.pick(items) }

  // MARK: Parts

  private mutating func name() -> String {
    if chance(70) {
      return pick(["featureone", "featuretwo", "ns1", "abc", "feature1", project])
    }
    return pick([
      project, "featureone", "featuretwo", "ns1", "abc", "feature1", "", "a", "..", ".",
      "%00", "%2F", "%2e%2e", "%FF", "%", "%zz", "a%20b", "é", "%C3%A9", "💥", "-_.",
      String(repeating: "x", count: 65), String(repeating: "y", count: 400), "feature%0A",
      "a:b", "key?x", "NUL\u{0}",
    ])
  }

  private mutating func number() -> String {
    if chance(50) { return pick(["1", "2", "5", "-1"]) }
    return pick([
      "1", "0", "-1", "2", "42", "1e3", "1.5", "-0", "9223372036854775807",
      "-9223372036854775808", "9223372036854775808", "99999999999999999999", "abc", "",
      "0x10", "NaN", "Infinity", "+5", "007", "9007199254740993",
    ])
  }

  private mutating func query() -> String {
    guard chance(60) else { return "" }
    let keys = [
      "amount", "value", "callback", "keys", "namespace", "key", "enable_reset",
      "update_lowerbound", "update_upperbound", "board", "stage", "tag", "q", "order", "limit",
      "cursor", "state",
    ]
    var parts: [String] = []
    for _ in 0..<(1 + below(3)) {
      let key = pick(keys)
      let value: String
      switch key {
      case "callback":
        value = pick(["cb", "a.b", "alert(1)", "x" + String(repeating: "y", count: 200), ""])
      case "keys":
        value = pick(["featureone,featuretwo", ",", String(repeating: "k,", count: 300), "%FF"])
      case "order": value = pick(["top", "trending", "newest", "discussed", "TOP", ""])
      case "cursor":
        value = pick(["", "AAAA", "eyJ4IjoxfQ", "!!!", String(repeating: "A", count: 500)])
      case "q": value = pick(["one", "%", "%25", "ü", ""])
      case "board": value = pick(["roadmap", "beta", "nope", ""])
      case "state": value = pick(["pending", "approved", "x"])
      default: value = number()
      }
      parts.append(key + "=" + value)
    }
    return "?" + parts.joined(separator: "&")
  }

  private mutating func jsonString() -> String {
    if chance(60) { return pick([#""One""#, #""Two words""#, #""Ünïcödé 🚀""#]) }
    return pick([
      #""One""#, #""""#, #""\u0000""#, #""é\n\t""#, #""\ud800""#, "1", "null", "true", "[]",
      "{}", "\"" + String(repeating: "w", count: 300) + "\"",
      "\"" + String(repeating: "z", count: 2100) + "\"", ##""#feature{id}""##,
      // Markup for the web board's pages, which must come out escaped.
      #""<script>alert(1)</script>""#, #""\" onmouseover=\"alert(1)""#,
      #""[link](javascript:alert(1)) **bold** <img src=x onerror=alert(1)>""#,
    ])
  }

  private mutating func jsonNumber() -> String {
    if chance(50) { return pick(["1", "2", "3", "0"]) }
    return pick([
      "1", "2", "0", "-1", "3", "100", "101", "1.5", "1e300", "-1e300", "9007199254740991",
      "9007199254740992", "9223372036854775807", "18446744073709551616", #""1""#, "null",
      "true",
    ])
  }

  private mutating func jsonValue(depth: Int = 0) -> String {
    switch below(depth > 2 ? 2 : 4) {
    case 0: return jsonString()
    case 1: return jsonNumber()
    case 2:
      return "[" + (0..<below(3)).map { _ in jsonValue(depth: depth + 1) }.joined(separator: ",")
        + "]"
    default: return "{\"k\":" + jsonValue(depth: depth + 1) + "}"
    }
  }

  private mutating func localized() -> String {
    pick([
      #"[{"language":"en","value":"One"},{"language":"de","value":"Eins"}]"#, #"{"en":"x"}"#,
      #"[{"language":1}]"#, "[]", "null", #"[{"language":"en"}]"#,
    ])
  }

  private mutating func featureInput(ref: Bool) -> String {
    if chance(50) {
      // A valid input, so the writes behind the checks run too.
      var fields = [#""title":"Feature \#(below(1000))""#]
      if chance(50) { fields.append(#""stage":\#(1 + below(2))"#) }
      if chance(50) { fields.append(#""tags":[1]"#) }
      if chance(30) { fields.append(#""importedVotes":\#(below(50))"#) }
      if chance(30) { fields.append(#""localizedTitle":[{"language":"de","value":"Funktion"}]"#) }
      if chance(30) { fields.append(#""status":"Planned ","isFinished":\#(chance(50))"#) }
      if ref { fields.append(#""ref":"r\#(below(20))""#) }
      return "{" + fields.joined(separator: ",") + "}"
    }
    var fields: [String] = []
    if chance(90) { fields.append("\"title\":" + (chance(70) ? #""Feature""# : jsonString())) }
    let candidates = [
      "description", "response", "board", "stage", "due", "tags", "comments", "progress",
      "release", "status", "isFinished", "localizedTitle", "localizedStatus",
      "localizedDescription", "extra", "importedVotes", "ref", "views", "votes", "unknown",
    ]
    for key in candidates where chance(20) {
      let value: String
      switch key {
      case "board": value = pick([#""roadmap""#, #""beta""#, #""nope""#, "1"])
      case "stage", "release", "comments", "progress", "importedVotes", "views", "votes":
        value = jsonNumber()
      case "due": value = pick([#""2026-12""#, #""2026-13""#, #""bad""#, "202612"])
      case "tags": value = pick(["[1]", "[1,1]", "[]", #"["x"]"#, "[99]", "null", "[-1]"])
      case "isFinished": value = pick(["true", "false", #""true""#, "null"])
      case "localizedTitle", "localizedStatus", "localizedDescription": value = localized()
      case "extra":
        value = pick([
          #"[{"key":"url","json":"\"https://x\""}]"#, #"[{"key":"x","json":"{"}]"#,
          #"[{"key":"","json":"1"}]"#, "[]", #"{"x":1}"#,
        ])
      case "ref":
        value = ref ? pick([#""one""#, #""new""#, #""a/b""#, #""""#, #""\u0001""#]) : jsonString()
      default: value = jsonValue()
      }
      fields.append("\"\(key)\":\(value)")
    }
    return "{" + fields.joined(separator: ",") + "}"
  }

  private mutating func body(for path: String) -> String {
    switch true {
    case path.hasSuffix("/features/batch"):
      let items = (0..<(1 + below(4))).map { _ in featureInput(ref: true) }
      if chance(80) { return "{\"features\":[" + items.joined(separator: ",") + "]}" }
      return pick([#"{"features":{}}"#, "[]", #"{"features":[]}"#])
    case path.contains("/features"):
      if path.hasSuffix("imported-votes") { return "{\"count\":" + jsonNumber() + "}" }
      return featureInput(ref: path.hasSuffix("/batch"))
    case path.contains("/stages"):
      return
        "{\"name\":\(jsonString()),\"board\":\(pick([#""roadmap""#, #""beta""#, #""x""#])),"
        + "\"position\":\(jsonNumber()),\"color\":\(pick([##""#36F""##, #""blue""#, "1"])),"
        + "\"isArchived\":\(pick(["true", "false", "1"])),\"isFinished\":\(pick(["true", "false"]))}"
    case path.contains("/tags"):
      return "{\"name\":\(jsonString()),\"color\":\(pick([##""#FF9500""##, ##""#GGG""##, "null"]))}"
    case path.contains("/boards"):
      return
        "{\"slug\":\(pick([#""beta""#, #""roadmap""#, #""Bad Slug""#])),\"name\":\(jsonString()),"
        + "\"isPublic\":\(pick(["true", "false", "0"])),\"votingEnabled\":\(pick(["true", "false"]))}"
    case path.contains("/releases"):
      return
        "{\"title\":\(jsonString()),\"notes\":\(jsonString()),"
        + "\"date\":\(pick([#""2026-11-30T00:00:00Z""#, #""bad""#, "0"])),"
        + "\"features\":\(pick(["[1]", "[1,2]", "[99]", "[]", #"["x"]"#]))}"
    case path.hasSuffix("/settings"):
      return
        "{\"name\":\(jsonString()),\"votingEnabled\":\(pick(["true", "false"])),"
        + "\"voteKeyTemplate\":\(pick([#""feature{id}""#, #""{id}{id}""#, #""no""#, #""x\u0001{id}""#, #""f{id}""#])),"
        + "\"theme\":{\"accent\":\(pick([##""#FFF""##, #""red""#])),\"radius\":\(pick([#""8px""#, #""-1px""#, "8"]))}}"
    case path.contains("/suggestions"):
      return "{\"title\":\(jsonString()),\"description\":\(jsonString()),\"stage\":\(jsonNumber())}"
    case path.hasSuffix("/import"):
      return pick([
        "{}", #"{"features":[{"title":"x"}]}"#, #"{"project":project,"features":"x"}"#,
      ])
    default:
      return jsonValue()
    }
  }

  /// A body made hostile: cut short, a byte changed, nested too deep, not JSON at all.
  private mutating func spoil(_ body: String) -> [UInt8] {
    var bytes = Array(body.utf8)
    switch below(30) {
    case 0 where !bytes.isEmpty: bytes = Array(bytes.prefix(below(bytes.count)))
    case 1 where !bytes.isEmpty: bytes[below(bytes.count)] = UInt8(truncatingIfNeeded: next())
    case 2: bytes = Array(String(repeating: "[", count: 5000).utf8)
    case 3: bytes = Array(("{\"title\":" + String(repeating: "{\"a\":", count: 3000)).utf8)
    case 4: bytes = (0..<below(64)).map { _ in UInt8(truncatingIfNeeded: next()) }
    default: break
    }
    return bytes
  }

  // MARK: Requests

  private mutating func path() -> (String, String, admin: Bool) {
    let project = chance(85) ? self.project : pick(["other", "%", "x"])
    let id =
      chance(70)
      ? pick(["1", "2", "3"]) : pick(["0", "-1", "99", "abc", "9223372036854775808", "1.0"])
    switch below(5) {
    case 4:
      let page = pick([
        "/b/\(project)", "/b/\(project)/changelog", "/b/\(project)/theme.css",
        "/b/\(project)/features/\(id)", "/b/\(project)/\(pick(["roadmap", "beta", "x"]))",
        "/assets/\(pick(["board.css", "board-0000.css", "..%2F..%2Fetc%2Fpasswd", "x"]))",
      ])
      return (page, pick(["GET", "GET", "GET", "HEAD", "POST"]), false)
    case 0:
      let prefix = pick(["/get", "/hit", "/update", "/set", "/info"])
      let target = chance(80) ? "\(prefix)/\(name())/\(name())" : "\(prefix)/\(name())"
      return (target, pick(["GET", "GET", "GET", "HEAD", "POST"]), false)
    case 1:
      let target = pick([
        "/v1/\(name())/\(name())", "/v1/\(name())/\(name())/up", "/v1/\(name())/\(name())/down",
        "/v1/\(name())/\(name())/set", "/counts/\(name())", "/create", "/stats", "/healthz",
        "/metrics", "/roadmap/\(project).json", "/", "/\(name())",
      ])
      return (target, pick(["GET", "GET", "HEAD", "OPTIONS", "DELETE"]), false)
    default:
      let base = "/api/v1/\(project)"
      let routes: [(String, [String], Bool)] = [
        ("/board", ["GET"], false), ("/features", ["GET"], false),
        ("/features/\(id)", ["GET", "PUT", "DELETE"], true),
        ("/features/ref/\(pick(["one", "two", "new", "a%2Fb", "%FF"]))", ["PUT"], true),
        ("/features/batch", ["POST"], true), ("/features/\(id)/imported-votes", ["PUT"], true),
        ("/features/\(id)/vote", ["POST", "DELETE"], false), ("/stages", ["POST"], true),
        ("/stages/\(id)", ["PUT", "DELETE"], true), ("/tags", ["POST"], true),
        ("/tags/\(id)", ["PUT", "DELETE"], true),
        ("/boards/\(pick(["beta", "roadmap", "BAD", "x"]))", ["PUT", "DELETE"], true),
        ("/releases", ["GET", "POST"], true), ("/releases/\(id)", ["GET", "PUT", "DELETE"], true),
        ("/settings", ["GET", "PUT"], true), ("/suggestions", ["GET", "POST"], true),
        ("/suggestions/\(id)/approve", ["POST"], true),
        ("/suggestions/\(id)/reject", ["POST"], true), ("/export", ["GET"], true),
        ("/import", ["POST"], true),
      ]
      let (suffix, methods, admin) = pick(routes)
      let method =
        chance(90)
        ? pick(methods) : pick(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"])
      return (base + suffix, method, admin)
    }
  }

  /// The next request.
  public mutating func request() -> HostileRequest {
    let (target, method, admin) = path()
    var headers: [(name: String, value: String)] = []
    if admin || chance(5) {
      switch below(20) {
      case 0: break
      case 1: headers.append((name: "Authorization", value: "Bearer wrong"))
      case 2: headers.append((name: "Authorization", value: "Basic \(adminToken)"))
      default: headers.append((name: "Authorization", value: "Bearer \(adminToken)"))
      }
    }
    if chance(60) {
      headers.append(
        (
          name: "X-Voter-ID",
          value: chance(80)
            ? "voter-\(below(5))" : pick(["", String(repeating: "v", count: 300), "é", "a b"])
        ))
    }
    var payload: [UInt8] = []
    if ["POST", "PUT", "PATCH"].contains(method) && chance(90) {
      payload = spoil(body(for: target))
      headers.append(
        (
          name: "Content-Type",
          value: chance(90)
            ? "application/json" : pick(["text/plain", "application/json; charset=utf-16"])
        ))
    }
    if chance(5) {
      headers.append((name: "If-None-Match", value: pick(["\"x\"", "*", "W/\"1\""])))
    }
    return HostileRequest(
      method: method, target: target + query(), headers: headers, body: payload,
      remoteAddress: pick(["127.0.0.1", "10.0.0.\(below(4))", "::1"]))
  }
}
