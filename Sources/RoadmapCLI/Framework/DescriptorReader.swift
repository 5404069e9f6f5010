#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads whole files and pipes with read(2).
enum DescriptorReader {
  /// Reads a descriptor to its end straight into one array (no intermediate `Data`), so a large
  /// file costs its size in memory once.
  ///
  /// Returns nil when a read fails, with `errno` set. Retries on EINTR.
  static func readAll(_ descriptor: Int32) -> [UInt8]? {
    var status = stat()
    let expected = fstat(descriptor, &status) == 0 ? max(0, Int(status.st_size)) : 0
    var bytes = [UInt8](repeating: 0, count: expected)
    var count = 0
    var probe = [UInt8](repeating: 0, count: 65_536)
    while true {
      let result: Int
      if count < bytes.count {
        result = bytes.withUnsafeMutableBytes { buffer in
          read(descriptor, buffer.baseAddress! + count, buffer.count - count)
        }
      } else {
        // The file is at least as long as fstat said: read on (it may be growing, or a pipe).
        result = probe.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if result > 0 { bytes.append(contentsOf: probe[0..<result]) }
      }
      if result < 0 {
        if errno == EINTR { continue }
        return nil
      }
      if result == 0 { break }
      count += result
    }
    bytes.removeLast(bytes.count - count)
    return bytes
  }

}

/// Writes whole buffers with write(2).
enum DescriptorWriter {
  /// Writes all of `bytes` to `descriptor`, retrying on EINTR and after short writes.
  ///
  /// Returns 0, or the `errno` of the write that failed.
  static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Int32 {
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written >= 0 {
          offset += written
        } else if errno != EINTR {
          return errno
        }
      }
      return 0
    }
  }
}
