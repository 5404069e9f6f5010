// A small W3C WebDriver client: plain HTTP JSON to a chromedriver listening on 127.0.0.1
// (through LoopbackHTTP). Just the commands the browser tests use.
import Foundation

/// A WebDriver failure: the command, the HTTP status and WebDriver's error and message.
struct WebDriverError: Error, CustomStringConvertible {
  var command: String
  var status: Int
  var error: String
  var message: String
  var description: String { "WebDriver \(command): \(status) \(error): \(message.prefix(400))" }
}

/// One element of the page, as WebDriver names it.
struct WebElement: Sendable {
  static let key = "element-6066-11e4-a52e-4f735466cecf"
  let id: String
}

/// One WebDriver session: a browser window driven over HTTP.
final class WebDriverSession: Sendable {
  let port: Int
  let sessionID: String

  /// Opens a session on chromedriver at `127.0.0.1:port` with `capabilities`.
  static func open(port: Int, capabilities: [String: Any]) async throws -> WebDriverSession {
    let value = try await WebDriverSession.send(
      port, "POST", "/session", ["capabilities": ["alwaysMatch": capabilities]])
    guard let object = value as? [String: Any], let id = object["sessionId"] as? String else {
      throw WebDriverError(
        command: "new session", status: 0, error: "bad answer", message: "\(value)")
    }
    return WebDriverSession(port: port, sessionID: id)
  }

  private init(port: Int, sessionID: String) {
    self.port = port
    self.sessionID = sessionID
  }

  private static func send(
    _ port: Int, _ method: String, _ path: String, _ body: Any?
  ) async throws -> Any {
    let payload = try body.map { try JSONSerialization.data(withJSONObject: $0) }
    let (status, data) = try await LoopbackHTTP.request(
      port: port, method: method, path: path, body: payload)
    let object = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
    let value = (object as? [String: Any])?["value"] ?? NSNull()
    guard (200..<300).contains(status) else {
      let details = value as? [String: Any]
      throw WebDriverError(
        command: "\(method) \(path)", status: status,
        error: details?["error"] as? String ?? "unknown",
        message: details?["message"] as? String ?? String(decoding: data, as: UTF8.self))
    }
    return value
  }

  @discardableResult
  func command(_ method: String, _ path: String, _ body: Any? = nil) async throws -> Any {
    try await WebDriverSession.send(
      port, method, "/session/\(sessionID)\(path)",
      body ?? (method == "POST" ? [String: Any]() : nil))
  }

  /// Goes to `url` and waits for the page to load.
  func go(_ url: String) async throws { try await command("POST", "/url", ["url": url]) }

  /// Reloads the page.
  func refresh() async throws { try await command("POST", "/refresh") }

  /// The current URL.
  func currentURL() async throws -> String { try await command("GET", "/url") as? String ?? "" }

  /// The page's title.
  func title() async throws -> String { try await command("GET", "/title") as? String ?? "" }

  /// The first element matching `css`.
  func find(_ css: String) async throws -> WebElement {
    let value = try await command("POST", "/element", ["using": "css selector", "value": css])
    guard let object = value as? [String: Any], let id = object[WebElement.key] as? String else {
      throw WebDriverError(command: "find \(css)", status: 0, error: "bad answer", message: "")
    }
    return WebElement(id: id)
  }

  /// Every element matching `css`.
  func findAll(_ css: String) async throws -> [WebElement] {
    let value = try await command("POST", "/elements", ["using": "css selector", "value": css])
    return (value as? [[String: Any]] ?? []).compactMap {
      ($0[WebElement.key] as? String).map(WebElement.init)
    }
  }

  /// Clicks `element`.
  func click(_ element: WebElement) async throws {
    try await command("POST", "/element/\(element.id)/click")
  }

  /// Types `text` into `element`.
  func type(_ element: WebElement, _ text: String) async throws {
    try await command("POST", "/element/\(element.id)/value", ["text": text])
  }

  /// Empties an input.
  func clear(_ element: WebElement) async throws {
    try await command("POST", "/element/\(element.id)/clear")
  }

  /// The rendered text of `element`.
  func text(_ element: WebElement) async throws -> String {
    try await command("GET", "/element/\(element.id)/text") as? String ?? ""
  }

  /// An attribute of `element`, or nil.
  func attribute(_ element: WebElement, _ name: String) async throws -> String? {
    try await command("GET", "/element/\(element.id)/attribute/\(name)") as? String
  }

  /// A DOM property of `element` (`value`, `checked`), as text, or nil.
  func property(_ element: WebElement, _ name: String) async throws -> String? {
    let value = try await command("GET", "/element/\(element.id)/property/\(name)")
    if value is NSNull { return nil }
    return value as? String ?? "\(value)"
  }

  /// Whether `element` is enabled.
  func isEnabled(_ element: WebElement) async throws -> Bool {
    try await command("GET", "/element/\(element.id)/enabled") as? Bool ?? false
  }

  /// Runs `script` in the page (its `return` value comes back).
  @discardableResult
  func execute(_ script: String, _ arguments: [Any] = []) async throws -> Any {
    try await command("POST", "/execute/sync", ["script": script, "args": arguments])
  }

  /// Presses and releases `key` (a WebDriver key code such as `"\u{E004}"` for Tab) on the
  /// keyboard, with `shift` held when asked.
  func press(_ key: String, shift: Bool = false) async throws {
    var actions: [[String: Any]] = []
    if shift { actions.append(["type": "keyDown", "value": "\u{E008}"]) }
    actions.append(["type": "keyDown", "value": key])
    actions.append(["type": "keyUp", "value": key])
    if shift { actions.append(["type": "keyUp", "value": "\u{E008}"]) }
    try await command(
      "POST", "/actions",
      ["actions": [["type": "key", "id": "keyboard", "actions": actions]]])
    try await command("DELETE", "/actions")
  }

  /// A Chrome DevTools command (`Emulation.setEmulatedMedia`, …) through chromedriver.
  @discardableResult
  func devTools(_ command: String, _ parameters: [String: Any]) async throws -> Any {
    try await self.command("POST", "/goog/cdp/execute", ["cmd": command, "params": parameters])
  }

  /// Sets the window size.
  func resize(width: Int, height: Int) async throws {
    try await command("POST", "/window/rect", ["width": width, "height": height])
  }

  /// A PNG of the viewport.
  func screenshot() async throws -> Data {
    let base64 = try await command("GET", "/screenshot") as? String ?? ""
    return Data(base64Encoded: base64) ?? Data()
  }

  /// Polls `condition` until it holds (a browser test waits for the page, never for time),
  /// for at most `limit` from now: a count of attempts alone was no bound, since one attempt
  /// can take as long as a WebDriver call may (see ``LoopbackHTTP``).
  func wait(
    _ what: String, within limit: Duration = .seconds(90), _ condition: () async throws -> Bool
  ) async throws {
    let deadline = ContinuousClock.now + limit
    repeat {
      if (try? await condition()) == true { return }
      try await Task.sleep(nanoseconds: 50_000_000)
    } while ContinuousClock.now < deadline
    throw WebDriverError(
      command: "wait", status: 0, error: "timeout", message: "\(what), within \(limit)")
  }

  /// Ends the session and closes the browser.
  func close() async {
    _ = try? await WebDriverSession.send(port, "DELETE", "/session/\(sessionID)", nil)
  }
}
