import Foundation

extension CountingAPIVoter {
  /// The count in the answer to `operation`, or why there is none.
  func interpret(
    _ response: TransportResponse, of operation: Operation, url: String
  ) throws(VotingError) -> Int {
    let body = AnswerBody(response.body)
    switch response.status {
    case 200..<300:
      switch body.integer(dialect.countField) {
      // A count shown to a user is never negative (a counter some servers let an unvote take
      // below zero): 0, as DurableVoter shows it.
      case .some(let count): return max(0, count)
      case .none:
        throw .badAnswer(
          "expected \(dialect.name)'s {\"\(dialect.countField)\": N}, got \(body.excerpt)",
          status: response.status, url: url)
      }
    default:
      if operation != .vote && isMissingKey(response.status, body) { return 0 }
      throw failure(response, body: body, url: url)
    }
  }

  /// The counts in a batch answer, `{"counts":{"KEY":N,…}}`.
  func interpretBatch(_ response: TransportResponse, url: String) throws(VotingError) -> [String:
    Int]
  {
    let body = AnswerBody(response.body)
    guard (200..<300).contains(response.status) else {
      throw failure(response, body: body, url: url)
    }
    guard let counts = body.integerMap("counts") else {
      throw .badAnswer(
        "expected {\"counts\": {\"KEY\": N, …}}, got \(body.excerpt)", status: response.status,
        url: url)
    }
    return counts.mapValues { max(0, $0) }
  }

  /// Whether the answer says "no such counter" in this dialect (which reads as 0).
  func isMissingKey(_ status: Int, _ body: AnswerBody) -> Bool {
    switch dialect.code {
    case .counterAPIV1:
      return status == 400 && body.string("message")?.lowercased() == "record not found"
    case .countapi, .roadmapBridge, .tally:
      return status == 404 && body.isNull("value")
    }
  }

  /// The error for a non-2xx answer.
  func failure(_ response: TransportResponse, body: AnswerBody, url: String) -> VotingError {
    let status = response.status
    switch status {
    case 429:
      return .rateLimited(retryAfter: response.retryAfter, url: url)
    case 500..<600:
      return .serverError(
        status: status, detail: body.reason, url: url, retryAfter: response.retryAfter)
    case 400..<500:
      var reason = body.reason
      if status == 403, dialect.code != .counterAPIV1, let value = body.integer("value") {
        // The count as the app reads it: a negative one reads as 0 (see interpret).
        reason = "the change is outside the key's update bounds; the count stays \(max(0, value))"
      }
      return .refused(status: status, reason: reason, url: url)
    default:
      return .badAnswer("status \(status): \(body.excerpt)", status: status, url: url)
    }
  }
}
