import Foundation
import Testing

/// Client code other people wrote: the PyPI package `countapi` (1.0), a Python client of
/// countapi.xyz, pointed at `roadmapctl serve` instead, answers every call as it did against
/// countapi.xyz. `.ci/run` installs it; where Python lacks it, the test installs it with pip
/// into its own temporary directory (PyPI must be reachable then).
@Suite struct ServeCountAPIPythonClientTests {
  /// Calls every function of the client and writes what each returned (or the status it
  /// failed with) to the file given as its second argument, as JSON.
  static let script = #"""
    import json, sys
    sys.path.insert(0, sys.argv[3])
    import countapi, countapi.common, countapi.create, countapi.info, countapi.set
    import countapi.stats, countapi.value

    for module in (countapi.common, countapi.create, countapi.info, countapi.set,
                   countapi.stats, countapi.value):
        module.API_BASE = sys.argv[1]

    def call(f):
        try:
            return {k: str(v) if k == "created_at" else v for k, v in vars(f()).items()}
        except countapi.common.NotOKError as error:
            return {"error": str(error)}

    ns = "pyclient.example"
    made = countapi.create_counter()
    out = {
        "create": call(lambda: countapi.create_counter(
            namespace=ns, key="feature-a", value=5, enable_reset=True,
            update_lower_bound=-10, update_upper_bound=10)),
        "hit": call(lambda: countapi.hit_counter("feature-a", ns)),
        "get": call(lambda: countapi.get_value("feature-a", ns)),
        "update": call(lambda: countapi.update_counter(3, "feature-a", ns)),
        "set": call(lambda: countapi.set_value(42, "feature-a", ns)),
        "info": call(lambda: countapi.get_info("feature-a", ns)),
        "missing": call(lambda: countapi.get_value("missing-key", ns)),
        "outOfBounds": call(lambda: countapi.update_counter(30, "feature-a", ns)),
        "again": call(lambda: countapi.create_counter(namespace=ns, key="feature-a")),
        "made": vars(made),
        "hitMade": call(lambda: countapi.hit_counter(made.key, made.namespace)),
        "hitDefault": call(lambda: countapi.hit_counter("plain-key")),
        "hitEmptyNamespace": call(lambda: countapi.hit_counter("plain-key", "")),
        "getDefaultAfter": call(lambda: countapi.get_value("plain-key")),
        "stats": call(countapi.get_stats),
    }
    with open(sys.argv[2], "w") as file:
        json.dump(out, file)
    """#

  @Test func everyCallOfThePyPIClientIsAnswered() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let server = try await ServeProcess.start(
      dataDirectory: directory.url.appendingPathComponent("data"))
    defer { server.process.kill() }
    let script = directory.url.appendingPathComponent("client.py")
    try Self.script.write(to: script, atomically: true, encoding: .utf8)
    let results = directory.url.appendingPathComponent("results.json")
    let packages = directory.url.appendingPathComponent("site-packages")
    let installed = try await Roadmapctl.runTool(
      "/usr/bin/env", ["python3", "-c", "import countapi"], workingDirectory: directory.url)
    if installed != 0 {
      let pip = try await Roadmapctl.runTool(
        "/usr/bin/env",
        [
          "python3", "-m", "pip", "install", "-q", "--disable-pip-version-check",
          "--target", packages.path, "countapi==1.0",
        ], workingDirectory: directory.url, timeout: .seconds(180))
      #expect(pip == 0, "pip could not install countapi 1.0 from PyPI")
    }
    let status = try await Roadmapctl.runTool(
      "/usr/bin/env",
      [
        "python3", script.path, "http://127.0.0.1:\(server.port)", results.path, packages.path,
      ],
      workingDirectory: directory.url)
    #expect(status == 0, "the client script failed")
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: results))
    let out = try #require(object as? [String: [String: Any]])
    func value(_ call: String) -> Int? { out[call]?["value"] as? Int }
    #expect(out["create"]?["namespace"] as? String == "pyclient.example")
    #expect(out["create"]?["key"] as? String == "feature-a")
    #expect(value("create") == 5)
    #expect(value("hit") == 6)
    #expect(value("get") == 6)
    #expect(value("update") == 9)
    #expect(out["set"]?["old_value"] as? Int == 9)
    #expect(value("set") == 42)
    #expect(value("info") == 42)
    #expect(out["info"]?["enable_reset"] as? Bool == true)
    #expect(out["info"]?["update_lower_bound"] as? Int == -10)
    #expect(out["info"]?["update_upper_bound"] as? Int == 10)
    #expect((out["info"]?["created_at"] as? String)?.hasPrefix("20") == true)
    #expect((out["missing"]?["error"] as? String)?.contains("[status 404]") == true)
    #expect((out["outOfBounds"]?["error"] as? String)?.contains("[status 403]") == true)
    #expect((out["again"]?["error"] as? String)?.contains("[status 409]") == true)
    #expect(out["made"]?["namespace"] as? String == "default")
    #expect((out["made"]?["key"] as? String)?.isEmpty == false)
    #expect(value("made") == 0)
    #expect(value("hitMade") == 1)
    #expect(value("hitDefault") == 1)
    // An empty namespace (`/hit//plain-key`) is refused, not a vote on default's counter.
    #expect(
      (out["hitEmptyNamespace"]?["error"] as? String)?.contains("[status 400]") == true,
      "\(out["hitEmptyNamespace"] ?? [:])")
    #expect(value("getDefaultAfter") == 1)
    #expect((out["stats"]?["keys_created"] as? Int ?? 0) >= 2)
    #expect((out["stats"]?["requests"] as? Int ?? 0) >= 10)
    #expect(try await server.stop() == 0)
  }
}
