import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension VoteFirstHTTPClient {
  /// The longest whole-call deadline, in seconds (7 days): a longer
  /// ``VoteFirstClientConfiguration/timeout``, `.infinity` included, is cut to it.
  public static let longestTimeout: TimeInterval = DeadlineLoad.longestTimeout

  /// Runs one data task for `request` against the whole-call deadline `timeout` and the
  /// caller's cancellation (``DeadlineLoad/run(_:through:timeout:)``), and names how it failed.
  static func load(
    _ request: URLRequest, through loading: LoadingSession, timeout: TimeInterval
  ) async throws(VoteFirstError) -> (Data, URLResponse) {
    let url = request.url?.absoluteString ?? "(no URL)"
    let outcome = await DeadlineLoad.run(request, through: loading, timeout: timeout)
    switch outcome {
    case .answer(let data, let response):
      return (data, response)
    case .failure(let error):
      throw loadingError(error, url: url, timeout: timeout)
    case .expired:
      throw VoteFirstError(
        .timedOut,
        message:
          "no whole answer from \(url) within \(DeadlineLoad.effectiveTimeout(timeout)) s")
    case .cancelled:
      throw VoteFirstError(.invalidRequest, message: "the call to \(url) was cancelled")
    case .tooLarge(let limit):
      throw VoteFirstError(
        .badAnswer,
        message:
          "the answer from \(url) is longer than \(limit) bytes (maximumAnswerBytes); "
          + "it was not read further")
    }
  }

  /// The error for a failed data task: a `URLError` (or an `NSError` of its domain) by its
  /// code, as ``VoteFirstError/Kind`` documents; anything else is
  /// ``VoteFirstError/Kind/invalidRequest``.
  static func loadingError(_ error: any Error, url: String, timeout: TimeInterval)
    -> VoteFirstError
  {
    guard let urlError = URLError.loadingFailure(error) else {
      return VoteFirstError(
        .invalidRequest, message: "the call to \(url) failed: \(error.localizedDescription)")
    }
    let named =
      "\(urlError.code.foundationName) (URLError \(urlError.code.rawValue)): "
      + urlError.localizedDescription
    switch urlError.code {
    case .notConnectedToInternet, .networkConnectionLost, .cannotFindHost, .cannotConnectToHost,
      .dnsLookupFailed, .dataNotAllowed, .internationalRoamingOff, .callIsActive:
      return VoteFirstError(.offline, message: "\(url): \(named)")
    case .timedOut:
      // The deadline's own expiry is `.expired`: this is the URL session's silence limit,
      // which may be shorter (a session of the caller's own).
      return VoteFirstError(
        .timedOut,
        message:
          "no answer from \(url): the URL session timed out (\(named)) before the call's "
          + "\(timeout) s timeout")
    case .cancelled:
      return VoteFirstError(.invalidRequest, message: "the call to \(url) was cancelled")
    case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData,
      .cannotDecodeContentData:
      return VoteFirstError(.badAnswer, message: "\(url): \(named)")
    default:
      return VoteFirstError(
        .invalidRequest, message: "cannot get an answer from \(url): \(named); not retried")
    }
  }
}

extension URLError {
  /// `error` as a `URLError`, when it is one (or an `NSError` of its domain), with the code
  /// Apple's platforms give that failure; shared with FeatureVoting's transport.
  ///
  /// On Linux, FoundationNetworking (libcurl) reports a connection cut in the middle of an
  /// answer as `unknown` ("transfer closed with 91 bytes remaining to read") and one closed
  /// before any answer as `badServerResponse` ("Empty reply from server"); Apple's platforms
  /// say `networkConnectionLost`, and so does this.
  package static func loadingFailure(_ error: any Error) -> URLError? {
    let nsError = error as NSError
    let urlError: URLError
    if let error = error as? URLError {
      urlError = error
    } else if nsError.domain == NSURLErrorDomain {
      #if canImport(FoundationNetworking)
        // swift-corelibs-foundation's Code(rawValue:) is failable; Apple's is not.
        let code = URLError.Code(rawValue: nsError.code) ?? .unknown
      #else
        let code = URLError.Code(rawValue: nsError.code)
      #endif
      urlError = URLError(code, userInfo: nsError.userInfo)
    } else {
      return nil
    }
    #if canImport(FoundationNetworking)
      let message = urlError.localizedDescription
      let cut =
        (urlError.code == .unknown && message.hasPrefix("transfer closed with"))
        || (urlError.code == .badServerResponse && message == "Empty reply from server")
      if cut { return URLError(.networkConnectionLost, userInfo: urlError.userInfo) }
    #endif
    return urlError
  }
}

extension URLError.Code {
  /// The code's name as Foundation spells it (`secureConnectionFailed`), for messages; shared
  /// with FeatureVoting's transport.
  package var foundationName: String {
    switch self {
    case .notConnectedToInternet: "notConnectedToInternet"
    case .networkConnectionLost: "networkConnectionLost"
    case .cannotFindHost: "cannotFindHost"
    case .cannotConnectToHost: "cannotConnectToHost"
    case .dnsLookupFailed: "dnsLookupFailed"
    case .dataNotAllowed: "dataNotAllowed"
    case .internationalRoamingOff: "internationalRoamingOff"
    case .callIsActive: "callIsActive"
    case .timedOut: "timedOut"
    case .cancelled: "cancelled"
    case .badURL: "badURL"
    case .unsupportedURL: "unsupportedURL"
    case .badServerResponse: "badServerResponse"
    case .cannotDecodeRawData: "cannotDecodeRawData"
    case .cannotDecodeContentData: "cannotDecodeContentData"
    case .cannotParseResponse: "cannotParseResponse"
    case .appTransportSecurityRequiresSecureConnection:
      "appTransportSecurityRequiresSecureConnection"
    case .secureConnectionFailed: "secureConnectionFailed"
    case .serverCertificateHasBadDate: "serverCertificateHasBadDate"
    case .serverCertificateUntrusted: "serverCertificateUntrusted"
    case .serverCertificateHasUnknownRoot: "serverCertificateHasUnknownRoot"
    case .serverCertificateNotYetValid: "serverCertificateNotYetValid"
    case .clientCertificateRejected: "clientCertificateRejected"
    case .clientCertificateRequired: "clientCertificateRequired"
    case .httpTooManyRedirects: "httpTooManyRedirects"
    case .redirectToNonExistentLocation: "redirectToNonExistentLocation"
    case .userCancelledAuthentication: "userCancelledAuthentication"
    case .userAuthenticationRequired: "userAuthenticationRequired"
    case .dataLengthExceedsMaximum: "dataLengthExceedsMaximum"
    case .resourceUnavailable: "resourceUnavailable"
    case .zeroByteResource: "zeroByteResource"
    case .unknown: "unknown"
    default: "URLError"
    }
  }
}
