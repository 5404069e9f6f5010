// swift-tools-version: 6.0
import PackageDescription

// RoadmapBridge. Module map and import rules: docs/architecture.md.
// Client-side modules (RoadmapFormat; later VoteFirstAPI, FeatureVoting) use Foundation only
// and must build for iOS 15+ / macOS 12+. Server modules may need macOS 15.

/// Apple's platforms, where the system libraries are linked as usual (CLazyLibraries).
let darwin: [Platform] = [.macOS, .iOS, .tvOS, .watchOS, .visionOS]

let package = Package(
  name: "RoadmapBridge",
  platforms: [.macOS(.v12), .iOS(.v15)],
  products: [
    .library(name: "RoadmapFormat", targets: ["RoadmapFormat"]),
    .library(name: "VoteFirstAPI", targets: ["VoteFirstAPI"]),
    .library(name: "HTTPServer", targets: ["HTTPServer"]),
    .library(name: "VoteStore", targets: ["VoteStore"]),
    .library(name: "CounterService", targets: ["CounterService"]),
    .library(name: "FeatureVoting", targets: ["FeatureVoting"]),
    .library(name: "RoadmapSync", targets: ["RoadmapSync"]),
    .library(name: "WebBoard", targets: ["WebBoard"]),
    .executable(name: "roadmapctl", targets: ["roadmapctl"]),
  ],
  targets: [
    .systemLibrary(
      name: "CSQLite", path: "Sources/CSQLite",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
    .systemLibrary(
      name: "CPostgres", path: "Sources/CPostgres",
      providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
    .systemLibrary(
      name: "CCrypto", path: "Sources/CCrypto",
      providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
    // SQLite, libpq and libcrypto loaded on first use (Linux; linked as usual elsewhere), so a
    // command that opens no store never maps them: docs/performance.md, "Start-up".
    .target(
      name: "CLazyLibraries",
      linkerSettings: [
        .linkedLibrary("dl", .when(platforms: [.linux])),
        .linkedLibrary("sqlite3", .when(platforms: darwin)),
        .linkedLibrary("pq", .when(platforms: darwin)),
        .linkedLibrary("crypto", .when(platforms: darwin)),
      ]),
    // libcurl loaded on first use, for roadmapctl's static release build (CLazyCurl.h).
    .target(name: "CLazyCurl", dependencies: ["CLazyLibraries"]),
    // epoll and accept4 for HTTPServer on Linux (Swift's Glibc module exports neither).
    .target(name: "CEpoll", path: "Sources/CEpoll"),
    .target(name: "RoadmapFormat"),
    .target(name: "VoteFirstAPI"),
    .target(
      name: "HTTPServer",
      dependencies: [.target(name: "CEpoll", condition: .when(platforms: [.linux]))]),
    .target(name: "FeatureVoting", dependencies: ["RoadmapFormat", "VoteFirstAPI"]),
    // The hosted board's pages, rendered from VoteFirstAPI values (no I/O); served by
    // CounterService.
    .target(name: "WebBoard", dependencies: ["VoteFirstAPI", "HTTPServer", "RoadmapFormat"]),
    .target(
      name: "VoteStore", dependencies: ["CSQLite", "CPostgres", "CCrypto", "CLazyLibraries"]),
    .target(name: "RoadmapSync", dependencies: ["RoadmapFormat", "VoteFirstAPI", "FeatureVoting"]),
    .target(
      name: "CounterService",
      dependencies: [
        "HTTPServer", "VoteStore", "RoadmapFormat", "VoteFirstAPI", "RoadmapSync", "WebBoard",
      ]),
    .target(
      name: "RoadmapCLI",
      dependencies: [
        "RoadmapFormat", "HTTPServer", "VoteStore", "CounterService", "FeatureVoting",
        "RoadmapSync", "VoteFirstAPI",
      ]),
    // The release build links the Swift runtime and Foundation into the binary (what
    // `--static-swift-stdlib` does), so start-up maps 4 libraries instead of 53; libcurl then
    // comes from CLazyCurl, loaded on first use. docs/performance.md, "Start-up".
    .executableTarget(
      name: "roadmapctl",
      dependencies: [
        "RoadmapCLI", .target(name: "CLazyCurl", condition: .when(platforms: [.linux])),
      ],
      linkerSettings: [
        .unsafeFlags(
          [
            "-static-stdlib", "-use-ld=lld", "-l_CFURLSessionInterface", "-lCoreFoundation",
            "-l_FoundationCollections", "-l_FoundationCShims", "-l_FoundationICU", "-lstdc++",
          ], .when(platforms: [.linux], configuration: .release)),
        // The debug build links the shared FoundationNetworking; exporting these makes it call
        // CLazyCurl's guard against a head cut off by the server (curl.c) instead of libcurl's.
        .unsafeFlags(
          [
            "-Xlinker", "--export-dynamic-symbol=curl_easy_setopt",
            "-Xlinker", "--export-dynamic-symbol=curl_easy_cleanup",
            "-Xlinker", "--export-dynamic-symbol=curl_multi_info_read",
          ], .when(platforms: [.linux], configuration: .debug)),
      ]),
    // Support shared by test targets (see Tests/TestProcess): child processes without
    // Foundation's Process, generated hostile traffic for the counter service, and the mirror
    // of the Roadmap package's model.
    .target(name: "TestProcess", path: "Tests/TestProcess"),
    .testTarget(name: "RoadmapFormatTests", dependencies: ["RoadmapFormat", "TestProcess"]),
    .testTarget(name: "VoteFirstAPITests", dependencies: ["VoteFirstAPI"]),
    .testTarget(name: "WebBoardTests", dependencies: ["WebBoard", "VoteFirstAPI", "HTTPServer"]),
    // Headless Chromium through chromedriver against the built roadmapctl.
    .testTarget(
      name: "WebBoardBrowserTests", dependencies: ["WebBoard", "roadmapctl", "TestProcess"]),
    .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestProcess"]),
    .testTarget(name: "VoteStoreTests", dependencies: ["VoteStore", "TestProcess"]),
    .testTarget(
      name: "RoadmapSyncTests",
      dependencies: [
        "RoadmapSync", "RoadmapFormat", "VoteFirstAPI", "FeatureVoting",
      ]),
    .testTarget(
      name: "CounterServiceTests",
      dependencies: [
        "CounterService", "HTTPServer", "VoteStore", "RoadmapFormat", "VoteFirstAPI", "TestProcess",
      ]),
    .testTarget(
      name: "RoadmapCLITests",
      dependencies: [
        "TestProcess",
        "RoadmapCLI", "RoadmapFormat", "roadmapctl", "RoadmapSync", "VoteFirstAPI", "FeatureVoting",
      ]),
    .testTarget(
      name: "FeatureVotingTests",
      dependencies: [
        "TestProcess",
        "FeatureVoting", "RoadmapFormat", "HTTPServer", "CounterService", "VoteStore",
        "VoteFirstAPI",
        "roadmapctl", "file-voter-stress",
      ]),
    // A helper process for FeatureVotingTests (two processes voting through one file); not a
    // product.
    .executableTarget(
      name: "file-voter-stress", dependencies: ["FeatureVoting", "RoadmapFormat"],
      path: "Tests/FileVoterStress"),
  ],
  swiftLanguageModes: [.v6]
)
