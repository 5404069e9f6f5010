import Foundation

// Foundation only, so Fuzz/run.sh compiles this file into the Roadmap fuzz target too.

/// The mirror of AvdLee/Roadmap's model as the app decodes it (synthesized Codable, plain
/// JSONDecoder), written from the documented facts in COMPAT.md, for differential tests.
struct UpstreamFeature: Codable, Equatable {
  struct Localized: Codable, Equatable {
    var language: String
    var value: String
  }
  var id: String
  var title: String?
  var status: String?
  var description: String?
  var isFinished: Bool?
  var votes: Int?
  var localizedTitle: [Localized]?
  var localizedStatus: [Localized]?
  var localizedDescription: [Localized]?

  /// The Roadmap package's resolution for one localization key.
  func resolved(_ language: String) -> (title: String, status: String?, description: String) {
    (
      localizedTitle?.first { $0.language == language }?.value ?? title ?? "N/A",
      localizedStatus?.first { $0.language == language }?.value ?? status,
      localizedDescription?.first { $0.language == language }?.value ?? description ?? ""
    )
  }
}

/// Whether Foundation's JSONDecoder (what the app uses) accepts the bytes.
func upstreamDecodes(_ bytes: [UInt8]) -> [UpstreamFeature]? {
  try? JSONDecoder().decode([UpstreamFeature].self, from: Data(bytes))
}
