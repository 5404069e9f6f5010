// swift-tools-version: 6.0
import PackageDescription

// RoadmapBridge. Module map and import rules: docs/architecture.md.
// Client-side modules (RoadmapFormat; later VoteFirstAPI, FeatureVoting) use Foundation only
// and must build for iOS 15+ / macOS 12+. Server modules may need macOS 15.
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
    .target(name: "WebBoard", dependencies: ["VoteFirstAPI", "HTTPServer"]),
    .target(name: "VoteStore", dependencies: ["CSQLite", "CPostgres", "CCrypto"]),
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
    .executableTarget(name: "roadmapctl", dependencies: ["RoadmapCLI"]),
    .testTarget(name: "RoadmapFormatTests", dependencies: ["RoadmapFormat"]),
    .testTarget(name: "VoteFirstAPITests", dependencies: ["VoteFirstAPI"]),
    .testTarget(name: "WebBoardTests", dependencies: ["WebBoard", "VoteFirstAPI", "HTTPServer"]),
    // Headless Chromium through chromedriver against the built roadmapctl.
    .testTarget(name: "WebBoardBrowserTests", dependencies: ["WebBoard", "roadmapctl"]),
    .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer"]),
    .testTarget(name: "VoteStoreTests", dependencies: ["VoteStore"]),
    .testTarget(
      name: "RoadmapSyncTests",
      dependencies: [
        "RoadmapSync", "RoadmapFormat", "VoteFirstAPI", "FeatureVoting",
      ]),
    .testTarget(
      name: "CounterServiceTests",
      dependencies: ["CounterService", "HTTPServer", "VoteStore", "RoadmapFormat", "VoteFirstAPI"]),
    .testTarget(
      name: "RoadmapCLITests",
      dependencies: [
        "RoadmapCLI", "RoadmapFormat", "roadmapctl", "RoadmapSync", "VoteFirstAPI", "FeatureVoting",
      ]),
    .testTarget(
      name: "FeatureVotingTests",
      dependencies: [
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
