import Foundation
import HTTPServer
import RoadmapFormat
import Testing
import VoteStore

@testable import CounterService

/// Thousands of generated requests, most of them malformed or hostile, through every route of
/// the service (countapi, counterapi, the VoteFirst board API, the operations routes) over
/// real SQLite stores. Whatever comes in, the service answers as a client's error or a success,
/// never a server error, with a body its content type can be read as; and what it stored stays
/// whole: the project still exports, and the export imports into another project.
@Suite("Hostile traffic")
struct HostileTrafficTests {
  @Test(
    "every route answers generated hostile requests without a server error",
    arguments: [1, 2, 3] as [UInt64])
  func hostileRequests(seed: UInt64) async throws {
    try await BoardHarness.with { harness in
      await harness.seed()
      var generator = TrafficGenerator(seed: seed)
      var statuses: [Int: Int] = [:]
      for _ in 0..<1500 {
        let request = generator.request()
        let response = await harness.service.handler(request)
        statuses[response.status, default: 0] += 1
        Self.check(response, for: request)
      }
      // The mix reaches both successes and refusals, so the routes' own logic ran.
      #expect(statuses.filter { (200..<300).contains($0.key) }.values.reduce(0, +) > 150)
      #expect(statuses.filter { (400..<500).contains($0.key) }.values.reduce(0, +) > 300)
      try await Self.checkStillWhole(harness)
    }
  }

  @Test("hostile requests sent at once leave the stores consistent")
  func concurrentHostileRequests() async throws {
    try await BoardHarness.with { harness in
      await harness.seed()
      await withTaskGroup(of: Void.self) { group in
        for lane in 0..<8 {
          group.addTask {
            var generator = TrafficGenerator(seed: 100 + UInt64(lane))
            for _ in 0..<200 {
              let request = generator.request()
              let response = await harness.service.handler(request)
              Self.check(response, for: request)
            }
          }
        }
      }
      try await Self.checkStillWhole(harness)
    }
  }

  /// No server error, and a JSON body where the answer says JSON.
  static func check(
    _ response: HTTPResponse, for request: HTTPRequest,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    let described =
      "\(request.method) \(request.target) \(String(decoding: request.body.prefix(300), as: UTF8.self))"
    #expect(
      response.status < 500,
      "\(described) → \(response.status) \(String(decoding: response.body, as: UTF8.self))",
      sourceLocation: sourceLocation)
    let type = response.headers["Content-Type"] ?? ""
    if type.contains("json") && !response.body.isEmpty {
      let parsed = try? JSONSerialization.jsonObject(
        with: Data(response.body), options: [.fragmentsAllowed])
      #expect(
        parsed != nil, "\(described): not JSON: \(String(decoding: response.body, as: UTF8.self))",
        sourceLocation: sourceLocation)
    }
  }

  /// The service still answers, the project exports, and the export imports elsewhere whole.
  static func checkStillWhole(_ harness: BoardHarness) async throws {
    #expect(await harness.call(.get, "/healthz").status == 200)
    #expect(await harness.call(.get, "/get/demo-app/featureone").status < 500)
    let export = await harness.call(.get, "/api/v1/demo-app/export", admin: true)
    #expect(export.status == 200, "\(export.body)")
    let imported = await harness.call(
      .post, "/api/v1/copy-app/import", json: export.body, admin: true)
    #expect(imported.status == 200, "\(imported.body)")
    let copy = await harness.call(.get, "/api/v1/copy-app/export", admin: true)
    for key in ["features", "stages", "tags", "releases"] {
      #expect(
        (copy.object[key] as? [Any])?.count == (export.object[key] as? [Any])?.count,
        "\(key) after import")
    }
    let features = await harness.call(.get, "/api/v1/demo-app/features?limit=100")
    #expect(features.status == 200)
    // What the board publishes for old app versions still reads as the app reads it.
    let roadmap = await harness.call(.get, "/roadmap/demo-app.json")
    #expect(roadmap.status == 200)
    let document = try RoadmapDocument.read(Array(roadmap.body.utf8), mode: .compatible)
    #expect(!document.features.isEmpty)
  }
}

/// Requests from a small grammar of the service's routes, with hostile parts mixed in.
struct TrafficGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }

  private mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  private mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
  private mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
  private mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

  // MARK: Parts

  private mutating func name() -> String {
    if chance(70) {
      return pick(["featureone", "featuretwo", "ns1", "abc", "feature1", "demo-app"])
    }
    return pick([
      "demo-app", "featureone", "featuretwo", "ns1", "abc", "feature1", "", "a", "..", ".",
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
        "{}", #"{"features":[{"title":"x"}]}"#, #"{"project":"demo-app","features":"x"}"#,
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

  private mutating func path() -> (String, HTTPMethod, admin: Bool) {
    let project = chance(85) ? "demo-app" : pick(["other", "%", "x"])
    let id =
      chance(70)
      ? pick(["1", "2", "3"]) : pick(["0", "-1", "99", "abc", "9223372036854775808", "1.0"])
    switch below(4) {
    case 0:
      let prefix = pick(["/get", "/hit", "/update", "/set", "/info"])
      let target = chance(80) ? "\(prefix)/\(name())/\(name())" : "\(prefix)/\(name())"
      return (target, pick([.get, .get, .get, .head, .post]), false)
    case 1:
      let target = pick([
        "/v1/\(name())/\(name())", "/v1/\(name())/\(name())/up", "/v1/\(name())/\(name())/down",
        "/v1/\(name())/\(name())/set", "/counts/\(name())", "/create", "/stats", "/healthz",
        "/metrics", "/roadmap/\(project).json", "/", "/\(name())",
      ])
      return (target, pick([.get, .get, .head, .options, .delete]), false)
    default:
      let base = "/api/v1/\(project)"
      let routes: [(String, [HTTPMethod], Bool)] = [
        ("/board", [.get], false), ("/features", [.get], false),
        ("/features/\(id)", [.get, .put, .delete], true),
        ("/features/ref/\(pick(["one", "two", "new", "a%2Fb", "%FF"]))", [.put], true),
        ("/features/batch", [.post], true), ("/features/\(id)/imported-votes", [.put], true),
        ("/features/\(id)/vote", [.post, .delete], false), ("/stages", [.post], true),
        ("/stages/\(id)", [.put, .delete], true), ("/tags", [.post], true),
        ("/tags/\(id)", [.put, .delete], true),
        ("/boards/\(pick(["beta", "roadmap", "BAD", "x"]))", [.put, .delete], true),
        ("/releases", [.get, .post], true), ("/releases/\(id)", [.get, .put, .delete], true),
        ("/settings", [.get, .put], true), ("/suggestions", [.get, .post], true),
        ("/suggestions/\(id)/approve", [.post], true),
        ("/suggestions/\(id)/reject", [.post], true), ("/export", [.get], true),
        ("/import", [.post], true),
      ]
      let (suffix, methods, admin) = pick(routes)
      let method =
        chance(90)
        ? pick(methods) : pick([.get, .post, .put, HTTPMethod(rawValue: "PATCH"), .delete, .head])
      return (base + suffix, method, admin)
    }
  }

  /// The next request.
  mutating func request() -> HTTPRequest {
    let (target, method, admin) = path()
    var headers = HTTPHeaders()
    if admin || chance(5) {
      switch below(20) {
      case 0: break
      case 1: headers.add(name: "Authorization", value: "Bearer wrong")
      case 2: headers.add(name: "Authorization", value: "Basic \(BoardHarness.token)")
      default: headers.add(name: "Authorization", value: "Bearer \(BoardHarness.token)")
      }
    }
    if chance(60) {
      headers.add(
        name: "X-Voter-ID",
        value: chance(80)
          ? "voter-\(below(5))" : pick(["", String(repeating: "v", count: 300), "é", "a b"]))
    }
    var payload: [UInt8] = []
    if [.post, .put, HTTPMethod(rawValue: "PATCH")].contains(method) && chance(90) {
      payload = spoil(body(for: target))
      headers.add(
        name: "Content-Type",
        value: chance(90)
          ? "application/json" : pick(["text/plain", "application/json; charset=utf-16"]))
    }
    if chance(5) { headers.add(name: "If-None-Match", value: pick(["\"x\"", "*", "W/\"1\""])) }
    return HTTPRequest(
      method: method, target: target + query(), headers: headers, body: payload,
      remoteAddress: pick(["127.0.0.1", "10.0.0.\(below(4))", "::1"]))
  }
}
