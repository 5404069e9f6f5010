// Chromium through chromedriver: one headless browser with its own profile directory.
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// chromedriver, the headless Chromium it drives, and the WebDriver session.
final class Browser: Sendable {
  let driver: ChildProcess
  let session: WebDriverSession
  let profile: URL

  /// Starts chromedriver on a free loopback port and opens a headless Chromium session.
  /// Fails (never skips) when Chromium or chromedriver is missing: CI installs both.
  static func start() async throws -> Browser {
    let chromium = try Programs.find(
      "chromium", extra: ["/usr/bin/chromium"], install: "apt-get install chromium")
    let chromedriver = try Programs.find(
      "chromedriver", extra: ["/usr/bin/chromedriver"], install: "apt-get install chromium-driver")
    let profile = FileManager.default.temporaryDirectory
      .appendingPathComponent("webboard-chromium-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
    let driver = try ChildProcess(chromedriver, ["--port=0", "--allowed-ips=127.0.0.1"])
    let line = try await driver.waitForLine(containing: "started successfully on port")
    guard let port = line.split(separator: " ").last.flatMap({ Int($0.filter(\.isNumber)) })
    else { throw ChildProcessError(description: "no port in: \(line)") }
    let capabilities: [String: Any] = [
      "browserName": "chrome",
      "goog:chromeOptions": [
        "binary": chromium.path,
        "args": [
          "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
          "--user-data-dir=\(profile.path)", "--no-first-run", "--no-default-browser-check",
          "--disable-background-networking", "--disable-component-update", "--disable-sync",
          "--disable-extensions", "--disable-default-apps", "--window-size=1280,900",
          "--lang=en-US",
        ],
      ],
      "goog:loggingPrefs": ["browser": "ALL"],
      // A page load or a script that never ends fails its command instead of waiting.
      "timeouts": ["pageLoad": 60_000, "script": 30_000],
    ]
    do {
      let session = try await WebDriverSession.open(port: port, capabilities: capabilities)
      return Browser(driver: driver, session: session, profile: profile)
    } catch {
      await driver.stop()
      killChromium(using: profile)
      try? FileManager.default.removeItem(at: profile)
      throw error
    }
  }

  private init(driver: ChildProcess, session: WebDriverSession, profile: URL) {
    self.driver = driver
    self.session = session
    self.profile = profile
  }

  /// Closes the browser, stops chromedriver and removes the profile.
  func stop() async {
    await session.close()
    await driver.stop()
    Browser.killChromium(using: profile)
    try? FileManager.default.removeItem(at: profile)
  }

  /// Ends every Chromium process this test started (those running with our own, unique profile
  /// directory), in case closing the session did not.
  static func killChromium(using profile: URL) {
    #if os(Linux)
      let marker = "--user-data-dir=\(profile.path)"
      let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
      for entry in entries {
        guard let pid = Int32(entry),
          let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
        else { continue }
        let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        if arguments.contains(marker) { kill(pid, SIGKILL) }
      }
    #endif
  }
}
