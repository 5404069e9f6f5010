import Foundation
import HTTPServer
import RoadmapFormat
import RoadmapSync
import VoteFirstAPI
import VoteStore

/// `GET /roadmap/:project.json`: a project's roadmap board as Roadmap JSON, with every
/// feature's votes filled in, for apps still on the Roadmap package (their `roadmapJSONURL`).
///
/// The document is what `roadmapctl publish` writes (RoadmapSync's mapping, votes read from
/// the board). It carries a strong `ETag` (a hash of the body) and `Cache-Control: public,
/// max-age=60`; a request whose `If-None-Match` names the current ETag is answered 304 without
/// a body. An unknown project is a 404 `{"error":…}`.
enum RoadmapJSONRoute {
  /// How long clients and caches may keep the document, in seconds.
  static let maxAge = 60

  /// The project of a `/roadmap/PROJECT.json` path, or nil for any other path.
  static func project(of path: String) -> String? {
    let prefix = "/roadmap/"
    let suffix = ".json"
    guard path.hasPrefix(prefix), path.hasSuffix(suffix),
      path.utf8.count > prefix.utf8.count + suffix.utf8.count
    else { return nil }
    let name = path.dropFirst(prefix.count).dropLast(suffix.count)
    return name.contains("/") ? nil : String(name)
  }

  /// Answers a GET or HEAD of the document of `project`.
  static func respond(
    to request: HTTPRequest, project: String, context: VoteFirstContext
  ) async -> HTTPResponse {
    let start = RateLimiter.now()
    var response: HTTPResponse
    let client = CounterService.clientAddress(
      request, trustProxy: context.configuration.trustProxy)
    if request.method != .get && request.method != .head {
      response = HTTPResponse.json(#"{"error":"method not allowed"}"#, status: 405)
      response.headers.replaceOrAdd(name: "Allow", value: "GET, HEAD, OPTIONS")
    } else if let refusal = context.limiter.take(
      client: client, kind: .read,
      token: CounterService.limiterToken(
        request, configuration: context.configuration, query: false))
    {
      response = HTTPResponse.json(#"{"error":"too many requests"}"#, status: 429)
      response.headers.replaceOrAdd(name: "Retry-After", value: String(refusal.retry))
    } else if !NameRules.isValidName(project) {
      response = HTTPResponse.json(
        #"{"error":"a project matches ^[A-Za-z0-9_\\-.]{3,64}$"}"#, status: 400)
    } else {
      do {
        response = try await document(request, project: project, context: context)
      } catch let error as VoteStoreError {
        let line = "store error on \(request.method) \(request.path): \(error)"
        for line in context.metrics.recordStoreError(line) { context.configuration.log(line) }
        response = HTTPResponse.json(#"{"error":"the vote store is unavailable"}"#, status: 503)
        response.headers.replaceOrAdd(name: "Retry-After", value: "1")
      } catch {
        context.configuration.log(
          "unexpected error on \(request.method) \(request.path): \(error)")
        response = HTTPResponse.json(#"{"error":"internal server error"}"#, status: 500)
      }
    }
    let cacheControl = response.headers["Cache-Control"]
    CounterService.decorate(
      &response, xPath: request.path, origin: context.configuration.corsOrigin)
    if let cacheControl {
      response.headers.replaceOrAdd(name: "Cache-Control", value: cacheControl)
    }
    CounterService.finish(
      request, response, route: "/roadmap/:project.json", start: start, metrics: context.metrics,
      configuration: context.configuration)
    return response
  }

  private static func document(
    _ request: HTTPRequest, project: String, context: VoteFirstContext
  ) async throws -> HTTPResponse {
    let read: ([Feature], [Stage])?
    if let view = context.view {
      read = try await fromMemory(project, view, context.store)
    } else {
      read = try await fromDatabase(project, context.boards)
    }
    guard let (features, stages) = read else {
      return HTTPResponse.json(
        "{\"error\":\"no project \(project) on this server\"}", status: 404)
    }
    return respond(request, features: features, stages: stages)
  }

  /// The project's features with their votes and its stages, from the board view and the
  /// vote store; nil when the project does not exist.
  private static func fromMemory(_ project: String, _ view: BoardView, _ store: any VoteStore)
    async throws -> ([Feature], [Stage])?
  {
    guard let model = try await view.model(project) else { return nil }
    let votes = try await store.values(
      namespace: project, keys: model.items.map(\.row.counterKey))
    let features = model.items.map { item in
      var feature = item.json.value
      feature.content.views = nil
      feature.votes = Int(votes[item.row.counterKey] ?? 0)
      return feature
    }
    return (features, model.project.stages)
  }

  /// The same from one database snapshot.
  private static func fromDatabase(_ project: String, _ boards: any BoardStore) async throws
    -> ([Feature], [Stage])?
  {
    try await boards.read { tables -> ([Feature], [Stage])? in
      guard let loaded = try BoardProject.load(tables, project) else { return nil }
      let features = try tables.features(project).map { row in
        try BoardJSON.feature(
          row, votes: try tables.votes(project, key: row.counterKey), voted: false,
          showViews: false)
      }
      return (features, loaded.stages)
    }
  }

  /// The document of `features` and `stages`, or a 304 when the request names its ETag.
  private static func respond(_ request: HTTPRequest, features: [Feature], stages: [Stage])
    -> HTTPResponse
  {
    let mapped = RoadmapMapping().roadmapFeatures(
      from: features, stages: stages, reading: .board)
    let body = RoadmapWriter.write(mapped.features, style: .compact)
    let tag = "\"" + etag(of: body) + "\""
    var response: HTTPResponse
    if matches(request.headers["If-None-Match"], tag) {
      response = HTTPResponse(status: 304)
    } else {
      response = HTTPResponse(status: 200)
      response.body = body
      response.headers.replaceOrAdd(name: "Content-Type", value: "application/json; charset=utf-8")
    }
    response.headers.replaceOrAdd(name: "ETag", value: tag)
    response.headers.replaceOrAdd(name: "Cache-Control", value: "public, max-age=\(maxAge)")
    return response
  }

  /// Whether an `If-None-Match` value (`*`, or a list of tags, weak or strong) names `tag`.
  static func matches(_ header: String?, _ tag: String) -> Bool {
    guard let header else { return false }
    for item in header.split(separator: ",") {
      var candidate = item.trimmingCharacters(in: .whitespaces)
      if candidate == "*" { return true }
      if candidate.hasPrefix("W/") { candidate.removeFirst(2) }
      if candidate == tag { return true }
    }
    return false
  }

  /// A 64-bit FNV-1a hash of `bytes` with the length, as 16 hex digits plus the byte count.
  static func etag(of bytes: [UInt8]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01B3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex + "-"
      + String(bytes.count, radix: 16)
  }
}
