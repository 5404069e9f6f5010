/// Why an ``HTTPServer`` could not start or keep serving.
///
/// A struct with a kind rather than an enum, so that new kinds break no caller. It carries
/// the failing system call's name and `errno` when one failed.
public struct HTTPServerError: Error, Sendable, CustomStringConvertible {
  /// The class of failure.
  public struct Kind: Hashable, Sendable, CustomStringConvertible {
    private let code: String
    private init(_ code: String) { self.code = code }

    /// The host could not be resolved to an address.
    public static let addressResolution = Kind("addressResolution")
    /// Creating, configuring, binding or listening on the socket failed.
    public static let bind = Kind("bind")
    /// The event loop could not be set up.
    public static let eventLoop = Kind("eventLoop")
    /// `start()` was called twice, or after `shutdown`.
    public static let alreadyStarted = Kind("alreadyStarted")
    /// The configuration holds an impossible value.
    public static let invalidConfiguration = Kind("invalidConfiguration")

    /// The kind's name.
    public var description: String { code }
  }

  /// The class of failure.
  public var kind: Kind
  /// What went wrong, in words.
  public var message: String
  /// The `errno` of the failing call, if a system call failed.
  public var errno: Int32?
  /// The failing system call's name (`bind`, `listen`), if a system call failed.
  public var syscall: String?

  /// Creates an error.
  public init(kind: Kind, message: String, errno: Int32? = nil, syscall: String? = nil) {
    self.kind = kind
    self.message = message
    self.errno = errno
    self.syscall = syscall
  }

  /// `kind: message (syscall: strerror)`.
  public var description: String {
    var text = "\(kind): \(message)"
    if let syscall, let errno { text += " (\(syscall): \(SystemCall.describe(errno)))" }
    return text
  }
}
