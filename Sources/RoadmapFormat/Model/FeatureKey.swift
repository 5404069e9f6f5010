/// The keys of a feature object that the Roadmap format defines, in canonical order.
enum FeatureKey: Int, CaseIterable, Sendable {
  case id, title, status, description, isFinished, votes
  case localizedTitle, localizedStatus, localizedDescription

  /// The key as written in JSON.
  var name: String {
    switch self {
    case .id: "id"
    case .title: "title"
    case .status: "status"
    case .description: "description"
    case .isFinished: "isFinished"
    case .votes: "votes"
    case .localizedTitle: "localizedTitle"
    case .localizedStatus: "localizedStatus"
    case .localizedDescription: "localizedDescription"
    }
  }

  /// The JSON type the key takes, for messages.
  var expectedType: String {
    switch self {
    case .id, .title, .status, .description: "a string"
    case .isFinished: "a boolean"
    case .votes: "an integer"
    case .localizedTitle, .localizedStatus, .localizedDescription:
      "an array of {\"language\", \"value\"} objects"
    }
  }

  /// Whether `name` is one of the defined keys.
  static func isKnown(_ name: String) -> Bool {
    FeatureKey(name: name) != nil
  }

  /// The key named `name` exactly (case-sensitively), if any.
  init?(name: String) {
    switch name {
    case "id": self = .id
    case "title": self = .title
    case "status": self = .status
    case "description": self = .description
    case "isFinished": self = .isFinished
    case "votes": self = .votes
    case "localizedTitle": self = .localizedTitle
    case "localizedStatus": self = .localizedStatus
    case "localizedDescription": self = .localizedDescription
    default: return nil
    }
  }
}

extension FeatureKey {
  /// Every defined key name, in canonical order.
  static let allNames: [String] = allCases.map(\.name)
}
