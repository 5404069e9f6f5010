import Foundation

/// Finds an executable this package builds (`roadmapctl`, test helpers) for the tests to run.
public enum BuiltProduct {
  /// The built executable `name`: the path in the environment variable `override` when set,
  /// else next to the test bundle, else `.build/debug` or `.build/release` of the package.
  public static func url(named name: String, override: String) throws -> URL {
    let environment = ProcessInfo.processInfo.environment
    if let path = environment[override], !path.isEmpty {
      return URL(fileURLWithPath: path)
    }
    var directories: [URL] = []
    #if os(Linux)
      // The Linux test runner is .build/<triple>/<config>/RoadmapBridgePackageTests.xctest.
      directories.append(
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
          .deletingLastPathComponent())
    #endif
    // macOS: .build/<config>/RoadmapBridgePackageTests.xctest/Contents/MacOS/…
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      directories.append(bundle.bundleURL.deletingLastPathComponent())
    }
    directories.append(
      URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent())
    let packageRoot = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    directories.append(packageRoot.appendingPathComponent(".build/debug"))
    directories.append(packageRoot.appendingPathComponent(".build/release"))
    for directory in directories {
      let candidate = directory.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw BuiltProductNotFound(name: name, searched: directories.map(\.path))
  }
}

/// The executable was not found where `swift build` puts it.
public struct BuiltProductNotFound: Error, CustomStringConvertible {
  /// The executable's name.
  public var name: String
  /// The directories looked in.
  public var searched: [String]
  /// Says where it looked and what to run.
  public var description: String {
    "\(name) not found in \(searched.joined(separator: ", ")); run swift build --build-tests"
  }
}
