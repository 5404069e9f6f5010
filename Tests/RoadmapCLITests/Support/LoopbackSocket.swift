import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A TCP socket bound to 127.0.0.1 on a port the system picks, listening when `listening`:
/// its descriptor and port. (Bound and not listening, a connection to it is refused at once.)
func loopbackSocket(listening: Bool) throws -> (descriptor: Int32, port: Int) {
  let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  try #require(descriptor >= 0)
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let ready = withUnsafeMutablePointer(to: &address) { pointer in
    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
      bind(descriptor, raw, length) == 0 && getsockname(descriptor, raw, &length) == 0
        && (!listening || listen(descriptor, 64) == 0)
    }
  }
  try #require(ready, "cannot bind a socket: \(String(cString: strerror(errno)))")
  return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
}
