import Foundation

/// Milliseconds since 1970 (UTC), the stores' timestamp unit.
func currentMilliseconds() -> Int64 {
  Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
}
