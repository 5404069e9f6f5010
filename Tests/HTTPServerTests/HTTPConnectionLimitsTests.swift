import Foundation
import Testing

@testable import HTTPServer

/// The connection limits fitted to the process's descriptor limit: a process at the common
/// default of 1,024 descriptors let one address (allowed 1,000 connections) take every
/// descriptor, and then no other client was answered until some connection timed out.
@Suite struct HTTPConnectionLimitsTests {
  @Test func limitsThatFitTheDescriptorsAreKept() {
    let configuration = HTTPServerConfiguration()
    let unlimited = HTTPConnectionLimits.fitting(
      configuration, descriptorLimit: nil, descriptorsInUse: 30)
    #expect(
      unlimited == HTTPConnectionLimits(maxConnections: 10_000, maxConnectionsPerAddress: 1_000))
    let plenty = HTTPConnectionLimits.fitting(
      configuration, descriptorLimit: 524_288, descriptorsInUse: 30)
    #expect(plenty.loweredForDescriptorLimit == nil)
    #expect(plenty.maxConnections == 10_000)
    // Exactly enough: the connections, those in use and the reserve.
    let exact = HTTPConnectionLimits.fitting(
      configuration, descriptorLimit: 10_000 + 30 + HTTPConnectionLimits.reservedDescriptors,
      descriptorsInUse: 30)
    #expect(exact.loweredForDescriptorLimit == nil)
  }

  @Test func tooFewDescriptorsLowerBothLimitsInProportion() {
    let configuration = HTTPServerConfiguration()
    let limits = HTTPConnectionLimits.fitting(
      configuration, descriptorLimit: 1_024, descriptorsInUse: 30)
    #expect(limits.maxConnections == 1_024 - 30 - HTTPConnectionLimits.reservedDescriptors)
    #expect(limits.maxConnectionsPerAddress == 93)  // a tenth, as 1,000 is of 10,000
    #expect(limits.loweredForDescriptorLimit == 1_024)

    var explicit = configuration
    explicit.maxConnections = 2_000
    explicit.maxConnectionsPerAddress = 1_000
    let half = HTTPConnectionLimits.fitting(explicit, descriptorLimit: 264, descriptorsInUse: 0)
    #expect(
      half
        == HTTPConnectionLimits(
          maxConnections: 200, maxConnectionsPerAddress: 100, loweredForDescriptorLimit: 264))

    var none = configuration
    none.maxConnectionsPerAddress = nil
    #expect(
      HTTPConnectionLimits.fitting(none, descriptorLimit: 1_024, descriptorsInUse: 30)
        .maxConnectionsPerAddress == nil)
  }

  @Test func aLimitBelowWhatIsInUseStillLeavesOneConnection() {
    let limits = HTTPConnectionLimits.fitting(
      HTTPServerConfiguration(), descriptorLimit: 20, descriptorsInUse: 30)
    #expect(limits.maxConnections == 1)
    #expect(limits.maxConnectionsPerAddress == 1)
  }

  @Test func aStartedServerReportsTheLimitsItEnforces() async throws {
    // This process's own limit is raised as far as its hard limit allows, so what the server
    // reports is the configured limits or the ones fitted to that hard limit.
    let server = HTTPServer(configuration: .init(port: 0)) { _ in .json("{}") }
    try server.start()
    let limits = server.connectionLimits
    if let descriptors = limits.loweredForDescriptorLimit {
      #expect(limits.maxConnections < descriptors)
    } else {
      #expect(limits.maxConnections == 10_000)
    }
    await server.shutdown(gracePeriod: .seconds(1))
  }
}
