import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The bytes of one document: held in an array, or mapped read-only from a file.
///
/// A mapped file is read without a copy, and while it validates a mapped document the reader
/// hands back to the system the pages it has read past (they are read from the file again if
/// anything looks at them later), so a large file is never held in memory whole. Nothing
/// changes once it is made, so it is `Sendable`.
///
/// As with any mapping, the file must not be cut short while it is read: touching a page past
/// its new end stops the process (SIGBUS). Map only regular files that nothing else is
/// rewriting in place (an editor or `git checkout` writes a new file and renames it, which is
/// safe); read pipes and standard input into an array.
public final class DocumentBytes: @unchecked Sendable {
  /// The number of bytes.
  public let count: Int
  private let array: [UInt8]
  /// The start of the mapping, or nil when the bytes are in `array`.
  private let mapping: UnsafeRawPointer?

  /// Holds bytes already in memory.
  ///
  /// - Parameter bytes: the document.
  public init(_ bytes: [UInt8]) {
    array = bytes
    count = bytes.count
    mapping = nil
  }

  /// Maps the regular file open at `descriptor` read-only, from its start to its current size.
  ///
  /// The descriptor may be closed afterwards; the mapping stays until this value is released.
  /// Nil when the descriptor is not a regular file, the file is empty, or the system cannot map
  /// it (`errno` then says why); read it instead. Always nil on systems without `mmap`.
  ///
  /// - Parameter descriptor: an open file descriptor, readable.
  public init?(mapping descriptor: Int32) {
    #if canImport(Glibc) || canImport(Darwin)
      var info = stat()
      guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size > 0,
        let size = Int(exactly: info.st_size)
      else { return nil }
      let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
      guard let address, address != UnsafeMutableRawPointer(bitPattern: -1) else { return nil }
      array = []
      count = size
      mapping = UnsafeRawPointer(address)
    #else
      return nil
    #endif
  }

  deinit {
    #if canImport(Glibc) || canImport(Darwin)
      if let mapping {
        munmap(UnsafeMutableRawPointer(mutating: mapping), count)
      }
    #endif
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

  /// The bytes as an array: the array itself when they are held in one, else a copy of the file.
  public var bytes: [UInt8] {
    guard mapping != nil else { return array }
    return withUnsafeBytes { Array($0) }
  }

  /// Hands the whole pages inside `range` back to the system: the next access reads them from
  /// the file again (no copy was made, so nothing is lost). Does nothing for bytes in an array.
  func releasePages(_ range: Range<Int>) {
    #if canImport(Glibc) || canImport(Darwin)
      guard let mapping else { return }
      let page = Self.pageSize
      let lower = (max(0, range.lowerBound) + page - 1) / page * page
      let upper = min(count, range.upperBound) / page * page
      guard upper > lower else { return }
      _ = madvise(UnsafeMutableRawPointer(mutating: mapping + lower), upper - lower, MADV_DONTNEED)
    #endif
  }

  #if canImport(Glibc) || canImport(Darwin)
    private static let pageSize = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))
  #endif
}
