import VoteStore

/// The error `body` throws, or nil when it returns.
func storeError(
  _ body: () async throws(VoteStoreError) -> Void
) async -> VoteStoreError? {
  do {
    try await body()
    return nil
  } catch {
    return error
  }
}
