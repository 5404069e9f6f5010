import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The connection limits a started ``HTTPServer`` enforces: its configuration's, lowered in
/// proportion where the process's descriptor limit (`ulimit -n`, `RLIMIT_NOFILE`) cannot
/// hold them.
///
/// Every connection takes a descriptor. A process allowed fewer descriptors than
/// ``HTTPServerConfiguration/maxConnections`` would run out of them before the table is
/// full: `accept` then fails, no one is answered 503, and a new client waits in the kernel's
/// queue until some connection closes (up to ``HTTPServerConfiguration/headerReadTimeout``
/// for idle ones). Worse, one address holding its whole
/// ``HTTPServerConfiguration/maxConnectionsPerAddress`` (1,000 by default) could take every
/// descriptor of a process at a common default limit of 1,024, and so delay every other
/// client. So ``HTTPServer/start()`` first raises the soft limit towards what the table needs
/// (never past the hard limit), and where that is not enough it lowers both limits to fit,
/// keeping their ratio: the connection beyond them is answered 503 at once, and one address
/// still holds at most its share.
@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
public struct HTTPConnectionLimits: Sendable, Equatable {
  /// The most open client connections the server takes.
  public var maxConnections: Int
  /// The most open connections from one client address, or nil for no such limit.
  public var maxConnectionsPerAddress: Int?
  /// The process's descriptor limit when it lowered the configured limits; nil when they fit.
  public var loweredForDescriptorLimit: Int?

  /// Descriptors kept free beside the connections: the event loop's own, the files and
  /// sockets a handler's store opens after the server starts, and one to accept a
  /// connection beyond the limit and answer it 503.
  public static let reservedDescriptors = 64

  /// Creates limits as given.
  public init(
    maxConnections: Int, maxConnectionsPerAddress: Int?, loweredForDescriptorLimit: Int? = nil
  ) {
    self.maxConnections = maxConnections
    self.maxConnectionsPerAddress = maxConnectionsPerAddress
    self.loweredForDescriptorLimit = loweredForDescriptorLimit
  }

  /// The limits of `configuration` for a process allowed `descriptorLimit` descriptors (nil:
  /// unlimited) that holds `descriptorsInUse` already.
  ///
  /// Unchanged when the connections and ``reservedDescriptors`` fit. Otherwise the
  /// connections get what is left (at least 1), and the per-address limit the same share of
  /// it as it had of ``HTTPServerConfiguration/maxConnections`` (at least 1).
  public static func fitting(
    _ configuration: HTTPServerConfiguration, descriptorLimit: Int?, descriptorsInUse: Int
  ) -> HTTPConnectionLimits {
    let configured = HTTPConnectionLimits(
      maxConnections: configuration.maxConnections,
      maxConnectionsPerAddress: configuration.maxConnectionsPerAddress)
    guard let descriptorLimit else { return configured }
    let room = descriptorLimit - max(0, descriptorsInUse) - reservedDescriptors
    guard room < configuration.maxConnections else { return configured }
    let connections = max(1, room)
    let perAddress = configuration.maxConnectionsPerAddress.map { limit in
      let share = Double(limit) / Double(max(1, configuration.maxConnections))
      return max(1, min(limit, Int((Double(connections) * share).rounded(.down))))
    }
    return HTTPConnectionLimits(
      maxConnections: connections, maxConnectionsPerAddress: perAddress,
      loweredForDescriptorLimit: descriptorLimit)
  }

  /// Raises the process's soft descriptor limit towards what `configuration`'s connections
  /// need (never past the hard limit, and never lowering it), then returns the limits that
  /// fit the descriptors there are.
  static func raisingDescriptorLimit(
    for configuration: HTTPServerConfiguration
  ) -> HTTPConnectionLimits {
    let inUse = DescriptorLimit.inUse()
    let needed = configuration.maxConnections + inUse + reservedDescriptors
    DescriptorLimit.raiseSoftLimit(to: needed)
    return fitting(
      configuration, descriptorLimit: DescriptorLimit.softLimit(), descriptorsInUse: inUse)
  }
}

/// The process's descriptor limit (`RLIMIT_NOFILE`).
enum DescriptorLimit {
  #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    /// glibc's `RLIM_INFINITY` (all bits set), which Swift does not import.
    private static let unlimited = rlim_t.max
  #else
    private static let resource = RLIMIT_NOFILE
    /// Darwin's `RLIM_INFINITY` (2^63 − 1), a macro Swift may not import.
    private static let unlimited = rlim_t(Int64.max)
  #endif

  /// The soft limit, or nil when it is unlimited or cannot be read.
  static func softLimit() -> Int? {
    var limit = rlimit()
    guard getrlimit(resource, &limit) == 0, limit.rlim_cur != unlimited else { return nil }
    return Int(clamping: limit.rlim_cur)
  }

  /// Raises the soft limit to `wanted`, or to the hard limit when that is lower; a system
  /// that refuses (a cap below the hard limit, as macOS has) keeps the limit it had.
  static func raiseSoftLimit(to wanted: Int) {
    var limit = rlimit()
    guard getrlimit(resource, &limit) == 0, limit.rlim_cur != unlimited else { return }
    let target = min(rlim_t(max(0, wanted)), limit.rlim_max)
    guard target > limit.rlim_cur else { return }
    limit.rlim_cur = target
    _ = setrlimit(resource, &limit)
  }

  /// How many descriptors the process has open (0 when the system does not say).
  static func inUse() -> Int {
    #if os(Linux)
      let directory = "/proc/self/fd"
    #else
      let directory = "/dev/fd"
    #endif
    // Listing the directory opens one descriptor of its own, which it also lists.
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory))?.count ?? 1
    return max(0, entries - 1)
  }
}
