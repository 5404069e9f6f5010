/// How serious a diagnostic is; ordered `info < warning < error`.
public enum Severity: String, Sendable, Codable, Comparable {
  /// Worth knowing; nothing is wrong.
  case info
  /// Works, but probably not as intended; `--strict` fails on it.
  case warning
  /// Users lose data or see a broken roadmap.
  case error

  private var rank: Int {
    switch self {
    case .info: 0
    case .warning: 1
    case .error: 2
    }
  }

  /// Orders by seriousness.
  public static func < (lhs: Severity, rhs: Severity) -> Bool {
    lhs.rank < rhs.rank
  }
}
