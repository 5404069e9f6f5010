import Foundation
import HTTPServer
import Testing
import VoteStore

@testable import CounterService

/// Stored values at the ends of `Int64` (as an import can leave them): every route answers,
/// nothing traps.
@Suite struct ExtremeValueTests {
  /// A harness whose store holds `records` (ids 1...), loaded the way `votes import` does;
  /// nil when the store refuses to hold them (then no later call can meet them either, which
  /// is the other way to keep arithmetic from trapping, and the refusal is checked here).
  static func harness(
    _ records: [(
      key: String, value: Int64, lower: Int64, upper: Int64, created: Int64,
      updated: Int64
    )]
  ) async throws -> ServiceHarness? {
    let h = try ServiceHarness()
    let counters = records.enumerated().map { index, r in
      VoteExport.Counter(
        record: CounterRecord(
          id: Int64(index + 1), namespace: "ns1", key: r.key, value: r.value, enableReset: true,
          updateLowerBound: r.lower, updateUpperBound: r.upper, createdAt: r.created,
          updatedAt: r.updated),
        voters: [])
    }
    do {
      _ = try await h.store.importAll(VoteExport(counters: counters), replace: false)
    } catch {
      #expect(error.isRefusal, "\(error)")
      #expect(try await h.store.statistics().counters == 0)
      await h.tearDown()
      return nil
    }
    return h
  }

  @Test func timestampsAtTheEndsOfInt64SaturateToRFC3339() async throws {
    guard
      let h = try await Self.harness([
        ("oldest", 5, .min, .max, .min, .max),
        ("newest", 0, 0, 0, .max, .min),
      ])
    else { return }
    let oldest = await h.call("/v1/ns1/oldest")
    #expect(oldest.status == 200, "\(oldest.body)")
    #expect(oldest.object["created_at"] as? String == "0000-01-01T00:00:00.000Z")
    #expect(oldest.object["updated_at"] as? String == "9999-12-31T23:59:59.999Z")
    let newest = await h.call("/v1/ns1/newest")
    #expect(newest.object["created_at"] as? String == "9999-12-31T23:59:59.999Z")
    #expect(newest.object["updated_at"] as? String == "0000-01-01T00:00:00.000Z")
    let info = await h.call("/info/ns1/oldest")
    #expect(info.status == 200)
    #expect(info.body.contains("\"created\":\(Int64.min)"))
    #expect(info.body.contains("\"update_lowerbound\":\(Int64.min)"))
    #expect(info.body.contains("\"update_upperbound\":\(Int64.max)"))
    // A vote on it still works and stamps it with the current time.
    let up = await h.call("/v1/ns1/oldest/up")
    #expect(up.status == 200)
    #expect(up.object["count"] as? Int == 6)
    #expect(await h.call("/healthz").status == 200)
    await h.tearDown()
  }

  @Test func timestampTextAtItsLimits() {
    #expect(Timestamp.rfc3339(milliseconds: .min) == "0000-01-01T00:00:00.000Z")
    #expect(Timestamp.rfc3339(milliseconds: .max) == "9999-12-31T23:59:59.999Z")
    #expect(Timestamp.rfc3339(milliseconds: Timestamp.earliest) == "0000-01-01T00:00:00.000Z")
    #expect(Timestamp.rfc3339(milliseconds: Timestamp.earliest - 1) == "0000-01-01T00:00:00.000Z")
    #expect(Timestamp.rfc3339(milliseconds: Timestamp.latest) == "9999-12-31T23:59:59.999Z")
    #expect(Timestamp.rfc3339(milliseconds: Timestamp.latest + 1) == "9999-12-31T23:59:59.999Z")
    #expect(Timestamp.rfc3339(milliseconds: Timestamp.latest - 999) == "9999-12-31T23:59:59.000Z")
  }
}
