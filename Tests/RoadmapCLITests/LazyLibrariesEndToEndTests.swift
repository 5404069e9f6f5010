import Foundation
import Testing

// The system libraries `roadmapctl` loads on first use (CLazyLibraries, CLazyCurl), through the
// built binary. What a process maps is read from the dynamic loader's own report
// (`LD_DEBUG=files`, glibc), so these run on Linux only.
#if os(Linux)

  /// The shared libraries a run mapped, by file name ("libsqlite3.so.0"), from the
  /// `LD_DEBUG=files` lines on its standard error.
  private func mappedLibraries(_ stderr: String) -> Set<String> {
    var names: Set<String> = []
    for line in stderr.split(separator: "\n") {
      guard let range = line.range(of: "file=") else { continue }
      let path = line[range.upperBound...].prefix { $0 != " " && $0 != "\t" }
      if let name = path.split(separator: "/").last { names.insert(String(name)) }
    }
    return names
  }

  /// Runs `roadmapctl` with the dynamic loader reporting what it maps.
  private func runTraced(
    _ arguments: [String], environment: [String: String] = [:], binary: URL? = nil
  ) async throws -> (result: ProcessResult, libraries: Set<String>) {
    let result = try await Roadmapctl.run(
      arguments, environment: environment.merging(["LD_DEBUG": "files"]) { $1 },
      binary: binary)
    return (result, mappedLibraries(result.stderrText))
  }

  /// One counter to import, in `votes export`'s format.
  private let oneCounter = """
    {"version":1,"counters":[{"record":{"id":1,"namespace":"lazy-test","key":"feature1",\
    "value":41,"enableReset":false,"updateLowerBound":-1,"updateUpperBound":1,\
    "createdAt":1,"updatedAt":1},"voters":[]}]}
    """

  @Suite struct LazyLibrariesEndToEndTests {
    @Test func validateOfAFileMapsNoStoreLibrary() async throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let file = try directory.write("roadmap.json", Fixtures.good)
      let (result, libraries) = try await runTraced(["validate", file.path])
      #expect(result.exitCode == 0, "\(result.stderrText.suffix(2000))")
      #expect(result.stdoutText.contains("no problems"))
      for library in ["libsqlite3.so.0", "libpq.so.5"] {
        #expect(!libraries.contains(library), "validate mapped \(library)")
      }
      // The trace does see libraries: the C library at least.
      #expect(libraries.contains("libc.so.6"))
    }

    @Test func openingAStoreMapsSQLiteThen() async throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let export = try directory.write("export.json", oneCounter)
      let data = directory.url.appendingPathComponent("data").path
      let imported = try await Roadmapctl.run(["votes", "import", export.path, "--data-dir", data])
      #expect(imported.exitCode == 0, "\(imported.stderrText)")
      let (result, libraries) = try await runTraced(["votes", "export", "--data-dir", data])
      #expect(result.exitCode == 0, "\(result.stderrText.suffix(2000))")
      #expect(result.stdoutText.contains("\"value\" : 41"))
      #expect(libraries.contains("libsqlite3.so.0"))
      #expect(!libraries.contains("libpq.so.5"))
    }

    @Test func aMissingSQLiteIsAStoreErrorAndCreatesNothing() async throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let data = directory.url.appendingPathComponent("data")
      let missing = directory.url.appendingPathComponent("no/libsqlite3.so.0").path
      let environment = ["ROADMAPBRIDGE_SQLITE_LIBRARY": missing]
      let export = try directory.write("export.json", oneCounter)
      let result = try await Roadmapctl.run(
        ["votes", "import", export.path, "--data-dir", data.path], environment: environment)
      #expect(result.exitCode == 1)
      #expect(
        result.stderrText.contains(
          "cannot load SQLite from ROADMAPBRIDGE_SQLITE_LIBRARY=\(missing): \(missing): "
            + "cannot open shared object file"), "\(result.stderrText)")
      let files = { (try? FileManager.default.contentsOfDirectory(atPath: data.path)) ?? [] }
      #expect(files().isEmpty, "left behind: \(files())")

      let serve = try await Roadmapctl.run(
        ["serve", "--port", "0", "--data-dir", data.path], environment: environment)
      #expect(serve.exitCode != 0)
      #expect(serve.stderrText.contains("cannot load SQLite"), "\(serve.stderrText)")
      #expect(files().isEmpty, "left behind: \(files())")
    }

    @Test func aMissingLibcryptoIsAStoreError() async throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let missing = directory.url.appendingPathComponent("libcrypto.so.3").path
      let export = try directory.write("export.json", oneCounter)
      let data = directory.url.appendingPathComponent("data").path
      let result = try await Roadmapctl.run(
        ["votes", "import", export.path, "--data-dir", data],
        environment: ["ROADMAPBRIDGE_CRYPTO_LIBRARY": missing])
      #expect(result.exitCode == 1)
      #expect(
        result.stderrText.contains("cannot load libcrypto from ROADMAPBRIDGE_CRYPTO_LIBRARY="),
        "\(result.stderrText)")
      let files = (try? FileManager.default.contentsOfDirectory(atPath: data)) ?? []
      #expect(files.isEmpty, "left behind: \(files)")
    }

    @Test func aMissingLibpqIsAStoreError() async throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let missing = directory.url.appendingPathComponent("libpq.so.5").path
      // Nothing listens on port 1: the library is loaded before any connection is tried.
      let result = try await Roadmapctl.run(
        ["votes", "export", "--postgres", "postgresql://127.0.0.1:1/none"],
        environment: ["ROADMAPBRIDGE_PQ_LIBRARY": missing])
      #expect(result.exitCode == 1)
      #expect(
        result.stderrText.contains("cannot load libpq from ROADMAPBRIDGE_PQ_LIBRARY=\(missing)"),
        "\(result.stderrText)")
    }
  }

  /// The release build (Foundation linked in, libcurl loaded on first use): `.ci/run` builds it
  /// and names it in ROADMAPCTL_RELEASE_BINARY; a plain `swift test` has no release build to run.
  private let releaseBinary = ProcessInfo.processInfo.environment["ROADMAPCTL_RELEASE_BINARY"]
    .flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }

  @Suite(
    .enabled(
      if: releaseBinary != nil,
      "set ROADMAPCTL_RELEASE_BINARY to a `swift build -c release` roadmapctl (.ci/run does)"))
  struct ReleaseBuildEndToEndTests {
    let binary = releaseBinary ?? URL(fileURLWithPath: "/nonexistent")

    @Test func validateOfAFileMapsOnlyTheCAndCxxRuntimes() async throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let file = try directory.write("roadmap.json", Fixtures.good)
      let (result, libraries) = try await runTraced(["validate", file.path], binary: binary)
      #expect(result.exitCode == 0, "\(result.stderrText.suffix(2000))")
      let expected = try await Roadmapctl.run(["validate", file.path])
      #expect(result.stdoutText == expected.stdoutText)
      let allowed: Set = ["libc.so.6", "libm.so.6", "libstdc++.so.6", "libgcc_s.so.1"]
      #expect(
        libraries.subtracting(allowed).isEmpty, "also mapped: \(libraries.subtracting(allowed))")
      #expect(libraries.contains("libc.so.6"))
    }

    @Test func aURLLoadsLibcurlOnFirstUse() async throws {
      let server = try await TestHTTPServer.start()
      defer { server.stop() }
      let (result, libraries) = try await runTraced(
        ["validate", server.url("/good.json")], binary: binary)
      #expect(result.exitCode == 0, "\(result.stderrText.suffix(2000))")
      #expect(result.stdoutText.contains("no problems"))
      #expect(libraries.contains("libcurl.so.4") || libraries.contains("libcurl-gnutls.so.4"))
      // An HTTP error reads as it does from the debug build.
      let arguments = ["validate", server.url("/missing.json")]
      let missing = try await Roadmapctl.run(arguments, binary: binary)
      let expected = try await Roadmapctl.run(arguments)
      #expect(missing.exitCode == 1)
      #expect(missing.stdoutText.contains("HTTP 404"))
      #expect(missing.stdoutText == expected.stdoutText)
      #expect(missing.stderrText == expected.stderrText)
    }

    @Test func aMissingLibcurlEndsTheRunWithItsName() async throws {
      let server = try await TestHTTPServer.start()
      defer { server.stop() }
      let result = try await Roadmapctl.run(
        ["validate", server.url("/good.json")],
        environment: ["ROADMAPBRIDGE_CURL_LIBRARY": "/nonexistent/libcurl.so.4"], binary: binary)
      #expect(result.exitCode == 1)
      #expect(
        result.stderrText.contains(
          "Error: cannot load libcurl from ROADMAPBRIDGE_CURL_LIBRARY=/nonexistent/libcurl.so.4"),
        "\(result.stderrText)")
    }

    @Test func servesAndCountsVotes() async throws {
      let directory = try TemporaryDirectory()
      defer { directory.remove() }
      let export = try directory.write("export.json", oneCounter)
      let data = directory.url.appendingPathComponent("data")
      let imported = try await Roadmapctl.run(
        ["votes", "import", export.path, "--data-dir", data.path], binary: binary)
      #expect(imported.exitCode == 0, "\(imported.stderrText)")
      let server = try await ServeProcess.start(dataDirectory: data, binary: binary)
      let hit = try await server.get("/hit/lazy-test/feature1")
      let get = try await server.get("/get/lazy-test/feature1")
      #expect(try await server.stop() == 0)
      #expect(hit.status == 200)
      #expect(hit.body == #"{"value":42}"#)
      #expect(get.body == #"{"value":42}"#)
      let exported = try await Roadmapctl.run(
        ["votes", "export", "--data-dir", data.path], binary: binary)
      #expect(exported.stdoutText.contains("\"value\" : 42"), "\(exported.stdoutText)")
    }
  }

#endif
