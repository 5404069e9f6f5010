@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension HTTPServer {
  /// What the open connections hold now, as the I/O thread sees them between two events;
  /// nil before ``start()``. For tests and diagnostics (not public API).
  func connectionsSnapshot() async -> ConnectionsSnapshot? {
    guard let loop = state.withLock({ $0.loop }) else { return nil }
    return await loop.snapshot()
  }
}
