import Foundation

/// The wire protocol of a counting API: which routes a voter calls and what it reads back.
///
/// | dialect | read | vote | unvote | answer | batch |
/// |---|---|---|---|---|---|
/// | ``countapi`` | `GET /get/NS/KEY` | `/hit/NS/KEY` | `/update/NS/KEY?amount=-1` | `{"value":N}` | — |
/// | ``counterAPIV1`` | `GET /v1/NS/KEY` | `/v1/NS/KEY/up` | `/v1/NS/KEY/down` | `{"count":N,…}` | — |
/// | ``tally`` | `GET /get/NS/KEY` | `/add/NS/KEY?delta=1` | `/add/NS/KEY?delta=-1` | `{"value":N}` | — |
/// | ``roadmapBridge`` | as countapi | as countapi | as countapi | `{"value":N}` | `GET /counts/NS?keys=…` |
///
/// ``roadmapBridge`` is `roadmapctl serve`: countapi's routes plus `X-Voter-ID`, with which a
/// vote counts once per voter and a repeated call changes nothing (so writes may be retried),
/// and one request for a whole board. A struct with static members, so dialects can be added.
public struct CountingDialect: Sendable, Hashable, CustomStringConvertible {
  enum Code: Sendable, Hashable {
    case countapi, counterAPIV1, tally, roadmapBridge
  }

  let code: Code

  /// countapi.xyz, what the Roadmap package's default voter calls.
  public static let countapi = CountingDialect(code: .countapi)
  /// counterapi.dev v1 (`/v1/NS/KEY`, `/up`, `/down`, reads `count`).
  public static let counterAPIV1 = CountingDialect(code: .counterAPIV1)
  /// The tally-style clones (`/get`, `/add/NS/KEY?delta=±1`, `{"value":N}`).
  public static let tally = CountingDialect(code: .tally)
  /// `roadmapctl serve`: countapi's routes, `X-Voter-ID`, and `GET /counts/NS?keys=…`.
  public static let roadmapBridge = CountingDialect(code: .roadmapBridge)

  /// Every dialect, in the order of the table above.
  public static let all: [CountingDialect] = [.countapi, .counterAPIV1, .tally, .roadmapBridge]

  /// The dialect's name as the CLI spells it: `countapi`, `counterapi`, `tally`, `roadmapctl`.
  public var name: String {
    switch code {
    case .countapi: "countapi"
    case .counterAPIV1: "counterapi"
    case .tally: "tally"
    case .roadmapBridge: "roadmapctl"
    }
  }

  /// The dialect named `name` (as ``name`` spells it; `ours` and `roadmapbridge` also mean
  /// ``roadmapBridge``, `counterapi-v1` ``counterAPIV1``), case-insensitively.
  public init?(name: String) {
    switch name.lowercased() {
    case "countapi": self = .countapi
    case "counterapi", "counterapi-v1", "counterapiv1": self = .counterAPIV1
    case "tally": self = .tally
    case "roadmapctl", "ours", "roadmapbridge": self = .roadmapBridge
    default: return nil
    }
  }

  private init(code: Code) { self.code = code }

  /// Whether the server has one route for a whole board.
  public var hasBatchRoute: Bool { code == .roadmapBridge }

  /// Whether a write carrying a voter id is idempotent, so a failed one may be sent again.
  public var writesAreIdempotentWithVoterID: Bool { code == .roadmapBridge }

  /// The name of the number in a successful answer: `count` for counterapi, else `value`.
  var countField: String { code == .counterAPIV1 ? "count" : "value" }

  /// The name.
  public var description: String { name }
}
