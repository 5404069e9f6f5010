import Foundation
import VoteStore

/// Where a command reads standard input from (`-` as a file name): the process's, or given bytes.
public struct InputSource: Sendable {
  private let reader: @Sendable () throws -> [UInt8]
  private let terminal: @Sendable () -> Bool
  /// The descriptor it reads, when it is one (the process's standard input): a large
  /// document is then mapped or copied to a temporary file rather than read into memory.
  let descriptor: Int32?

  /// Creates a source from a function that reads everything; `isTerminal` says whether a
  /// person would have to type it (false by default).
  public init(
    isTerminal: @escaping @Sendable () -> Bool = { false },
    reader: @escaping @Sendable () throws -> [UInt8]
  ) {
    self.reader = reader
    self.terminal = isTerminal
    self.descriptor = nil
  }

  private init(
    descriptor: Int32, isTerminal: @escaping @Sendable () -> Bool,
    reader: @escaping @Sendable () throws -> [UInt8]
  ) {
    self.reader = reader
    self.terminal = isTerminal
    self.descriptor = descriptor
  }

  /// Whether the input is a terminal: reading it waits for someone to type.
  public var isTerminal: Bool { terminal() }

  /// The process's standard input.
  public static let standardInput = InputSource(
    descriptor: 0,
    isTerminal: { isatty(0) == 1 },
    reader: {
      try checkStandardInputIsOpen()
      guard let bytes = DescriptorReader.readAll(0) else {
        throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
      }
      return bytes
    })

  /// Fixed bytes, for running commands in-process in tests.
  public static func bytes(_ bytes: [UInt8]) -> InputSource {
    InputSource { bytes }
  }

  /// Fixed text, as UTF-8.
  public static func text(_ text: String) -> InputSource {
    bytes(Array(text.utf8))
  }

  /// Reads everything until end of input.
  public func readAll() throws -> [UInt8] {
    try reader()
  }

  /// Everything until end of input, for a document a store loads in pieces: a regular file
  /// behind the descriptor mapped, a pipe copied into an unlinked temporary file and mapped,
  /// given bytes as they are. A copy that cannot be made throws
  /// ``ExportFileBytes/SpoolFailure/writing(directory:_:)``.
  func readExportBytes() throws -> ExportFileBytes {
    guard let descriptor else { return ExportFileBytes(try reader()) }
    try Self.checkStandardInputIsOpen()
    // A file is mapped from its start: only when nothing of it was read before us (a
    // script's `read` may have taken its first line); else the rest is copied as from a pipe.
    if lseek(descriptor, 0, SEEK_CUR) == 0, let mapped = ExportFileBytes(mapping: descriptor) {
      return mapped
    }
    do {
      return try ExportFileBytes.spool(descriptor)
    } catch {
      // The copy's own failure (a full $TMPDIR) is said as such by the caller.
      guard case .reading(let code) = error else { throw error }
      throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
    }
  }

  /// Throws EBADF when standard input was closed when the process started.
  private static func checkStandardInputIsOpen() throws {
    #if os(Linux)
      // Started with standard input closed, the process's first descriptor went to something
      // the runtime opened (libdispatch's epoll): reading it is not reading standard input.
      if let target = try? FileManager.default.destinationOfSymbolicLink(
        atPath: "/proc/self/fd/0"),
        target.hasPrefix("anon_inode:")
      {
        throw POSIXError(.EBADF)
      }
    #endif
  }
}
