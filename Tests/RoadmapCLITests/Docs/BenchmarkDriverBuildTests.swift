import Foundation
import Testing

/// `Benchmarks/http.sh` and `Benchmarks/store.sh` compile their drivers with `swiftc` from
/// `Sources/HTTPServer` and `Sources/VoteStore`, outside the package, naming the C modules those
/// sources import themselves. When a module gained a C file (CEpoll's io_uring sends) or a
/// module of its own (VoteStore's CLazyLibraries and CCrypto), the scripts stopped building,
/// unnoticed, in a plain clone as anywhere. Each script is run here with `BUILD_ONLY=1` and
/// `SWIFT_OPT=-Onone` (the same build, unoptimized, and nothing measured).
@Suite struct BenchmarkDriverBuildTests {
  /// Runs `Benchmarks/<script>` with bash and `environment`; returns its status and output.
  static func run(_ script: String, environment: [String: String]) async throws -> (
    status: Int32, output: String
  ) {
    let child = try ChildProcess(
      binary: URL(fileURLWithPath: "/usr/bin/env"),
      arguments: ["bash", "-c", "exec 2>&1; exec bash Benchmarks/\(script)"], stdin: nil,
      environment: environment, workingDirectory: PackageFiles.packageRoot, keepStdinOpen: false)
    defer { child.kill() }
    // An unoptimized whole-module build of a module's sources: about a minute of CPU, more wall
    // time beside the rest of the suite on two loaded cores.
    let status = try await child.waitForExit(timeout: .seconds(900))
    try await child.waitForOutputEnd(timeout: .seconds(60))
    return (status, child.stdoutText)
  }

  @Test func httpShBuildsItsServerWithEveryCFileOfCEpoll() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (status, output) = try await Self.run(
      "http.sh",
      environment: [
        "BUILD_ONLY": "1", "SWIFT_OPT": "-Onone", "HTTP_BENCH_OUT": directory.url.path,
      ])
    #expect(status == 0, "\(output)")
    let server = directory.url.appendingPathComponent("http-bench-server")
    #expect(FileManager.default.isExecutableFile(atPath: server.path), "\(output)")
  }

  @Test func storeShBuildsItsDriverWithVoteStoresCModules() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let (status, output) = try await Self.run(
      "store.sh",
      environment: [
        "BUILD_ONLY": "1", "SWIFT_OPT": "-Onone", "DIR": directory.url.path, "ANCHORS": "0",
      ])
    #expect(status == 0, "\(output)")
    #expect(output.contains("built the driver"), "\(output)")
  }
}

/// A benchmark's knobs that name something it does not have stop it with that said, before it
/// builds or starts anything: a mistyped row once measured nothing and exited 0.
@Suite struct BenchmarkKnobTests {
  @Test func serviceShRefusesARowItDoesNotHave() async throws {
    let (status, output) = try await BenchmarkDriverBuildTests.run(
      "service.sh", environment: ["ROWS": "get gets", "ROADMAPCTL": "/nonexistent"])
    #expect(status == 1)
    #expect(
      output == "error: ROWS names \"gets\"; the rows are get, hit, scale and idle\n", "\(output)")
  }
}
