#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The bytes of an export (or backup) file, held in an array or mapped read-only from the file,
/// so that a large file is read in pieces rather than held in memory whole.
///
/// The readers (``VoteExport/check(_:range:keepingKeys:)``, ``CheckedVoteExport``) hand the
/// pages they have read past back to the system as they go; the next access reads them from
/// the file again. As with any mapping, the file must not be cut short while it is read
/// (touching a page past its new end raises SIGBUS); `roadmapctl` reads pipes and standard
/// input into an unlinked temporary file first (``spool(_:)``).
public final class ExportFileBytes: @unchecked Sendable {
  /// The number of bytes.
  public let count: Int
  private let array: [UInt8]
  /// The start of the mapping, or nil when the bytes are in `array`.
  private let mapping: UnsafeRawPointer?

  /// How far a reader goes between two hand-backs of the pages it has read (1 MiB).
  static let releaseStep = 1 << 20

  /// Holds bytes already in memory.
  ///
  /// - Parameter bytes: the document.
  public init(_ bytes: [UInt8]) {
    array = bytes
    count = bytes.count
    mapping = nil
  }

  /// Maps the regular file open at `descriptor` read-only, from its start to its current size.
  /// The descriptor may be closed afterwards. Nil when it is not a regular file, the file is
  /// empty, or the system cannot map it.
  ///
  /// - Parameter descriptor: an open, readable file descriptor.
  public init?(mapping descriptor: Int32) {
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0,
      let size = Int(exactly: info.st_size)
    else { return nil }
    let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
    guard let address, address != UnsafeMutableRawPointer(bitPattern: -1) else { return nil }
    array = []
    count = size
    mapping = UnsafeRawPointer(address)
  }

  deinit {
    if let mapping {
      munmap(UnsafeMutableRawPointer(mutating: mapping), count)
    }
  }

  /// Why ``spool(_:)`` could not copy its input.
  public enum SpoolFailure: Error, Sendable, Equatable {
    /// Reading the input failed with this `errno`.
    case reading(Int32)
    /// Making or writing the temporary file in `directory` failed with this `errno` (a full
    /// or missing `$TMPDIR`).
    case writing(directory: String, Int32)
  }

  /// Everything readable from `descriptor` (a pipe, standard input), copied into a temporary
  /// file in `$TMPDIR` (else `/tmp`) that is unlinked at once and mapped: memory does not grow
  /// with the input.
  ///
  /// - Parameter descriptor: an open, readable file descriptor.
  /// - Throws: which side failed: reading the input, or making or writing the copy.
  public static func spool(_ descriptor: Int32) throws(SpoolFailure) -> ExportFileBytes {
    let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array((directory + "/roadmapctl-import-XXXXXX").utf8CString)
    let spool = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard spool >= 0 else { throw .writing(directory: directory, errno) }
    defer { close(spool) }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    var total = 0
    while true {
      let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if got < 0 {
        if errno == EINTR { continue }
        throw .reading(errno)
      }
      if got == 0 { break }
      var written = 0
      while written < got {
        let put = buffer.withUnsafeBytes {
          write(spool, $0.baseAddress! + written, got - written)
        }
        if put < 0 {
          if errno == EINTR { continue }
          throw .writing(directory: directory, errno)
        }
        written += put
      }
      total += got
    }
    if total == 0 { return ExportFileBytes([]) }
    guard let mapped = ExportFileBytes(mapping: spool) else {
      throw .writing(directory: directory, errno)
    }
    return mapped
  }

  /// The bytes in `range`, copied into memory.
  ///
  /// - Parameter range: which bytes; nil: all of them.
  /// - Returns: a copy.
  public func copy(_ range: Range<Int>? = nil) -> [UInt8] {
    withUnsafeBytes { Array($0[range ?? 0..<count]) }
  }

  /// Whether the bytes are mapped from a file (rather than held in an array).
  public var isMapped: Bool { mapping != nil }

  /// Calls `body` with the bytes; the pointer is valid only inside `body`.
  ///
  /// - Parameter body: reads the bytes.
  /// - Returns: what `body` returns.
  public func withUnsafeBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    guard let mapping else {
      return try array.withUnsafeBufferPointer(body)
    }
    return try withExtendedLifetime(self) {
      try body(
        UnsafeBufferPointer(start: mapping.assumingMemoryBound(to: UInt8.self), count: count))
    }
  }

  /// Calls `body` with the bytes in `range` (offsets in `body` count from its start).
  func withUnsafeBytes<R>(
    in range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) throws -> R
  ) rethrows -> R {
    try withUnsafeBytes { all in try body(UnsafeBufferPointer(rebasing: all[range])) }
  }

  /// Hands the whole pages inside `range` back to the system: the next access reads them from
  /// the file again (nothing is lost). Does nothing for bytes in an array.
  public func releasePages(_ range: Range<Int>) {
    guard let mapping else { return }
    let page = Self.pageSize
    let lower = (max(0, range.lowerBound) + page - 1) / page * page
    let upper = min(count, range.upperBound) / page * page
    guard upper > lower else { return }
    _ = madvise(UnsafeMutableRawPointer(mutating: mapping + lower), upper - lower, MADV_DONTNEED)
  }

  private static let pageSize = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))
}
