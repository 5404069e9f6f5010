import Foundation
import RoadmapFormat
import VoteFirstAPI

@testable import RoadmapSync

/// Roadmap JSON fixtures of our own, each holding one of the hard cases of a move.
enum SyncFixtures {
  /// Every hard case in one roadmap.
  static let hardCases = """
    [
      {"id": "1", "title": "Widgets", "status": "planned", "description": "Home screen",
       "votes": 12, "isFinished": false,
       "localizedTitle": [{"language": "en", "value": "Widgets"}, {"language": "de", "value": "Widgets!"}],
       "localizedStatus": [{"language": "de", "value": "Geplant"}],
       "localizedDescription": [{"language": "zh-Hans", "value": "主屏幕"}, {"language": "de", "value": ""}]},
      {"id": "2", "title": "Sync", "status": "Available ", "isFinished": true},
      {"id": "3", "title": "Export", "status": "Available", "isFinished": true},
      {"id": "4", "title": "Dark mode", "status": "Available ", "isFinished": false},
      {"id": "5", "title": "Maps", "status": "?"},
      {"id": "6"},
      {"id": "7", "title": "", "description": "", "status": ""},
      {"id": "8", "title": "Done without status", "isFinished": true},
      {"id": "9", "title": "Extras", "url": "https://example.com/a?b=1", "price": 1.50,
       "big": 12345678901234567890123, "nested": {"z": [1, 2.0, {"a": null}], "a": true},
       "": "empty key", "\\u001fodd": "escape-looking key", "\\u001froadmap": "mimic", "note": null},
      {"id": "10", "title": "Negative", "votes": -3},
      {"id": "11", "title": "Zero votes", "votes": 0, "status": "planned"},
      {"id": "12", "title": "Localized only", "localizedTitle": [], "localizedStatus": [{"language": "EN", "value": "x"}]},
      {"id": "13", "title": "Tab\\tand \\"quotes\\" and \\\\ and \\u0001", "status": "in\\nprogress"},
      {"id": "a/b c", "title": "Slash id", "status": " planned"}
    ]
    """

  /// The features of a Roadmap JSON text, read as the project reads it.
  static func features(_ text: String) throws -> [RoadmapFeature] {
    try RoadmapDocument.read(Array(text.utf8), mode: .lenient).features
  }

  /// `features` taken to a VoteFirst export, through its JSON wire form, and back.
  static func roundTrip(
    _ features: [RoadmapFeature], mapping: RoadmapMapping = RoadmapMapping()
  ) throws -> (features: [RoadmapFeature], losses: LossReport, export: ProjectExport) {
    let (export, losses) = mapping.export(
      features, project: "demo-app", exportedAt: Date(timeIntervalSince1970: 1_800_000_000))
    let wire = try VoteFirstCoding.encode(export)
    let decoded = try VoteFirstCoding.decode(ProjectExport.self, from: wire)
    let back = mapping.roadmapFeatures(from: decoded, reading: .restoring)
    var all = losses
    all.append(contentsOf: back.losses)
    return (back.features, all, decoded)
  }
}
