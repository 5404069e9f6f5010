/// Roadmap JSON written for these tests (never copied from other people's files).
enum Fixtures {
  /// Three features, localized in English and German, no problems.
  static let good = """
    [
      {
        "id": "1",
        "title": "Dark mode",
        "status": "planned",
        "description": "A dark look for every screen.",
        "localizedTitle": [
          { "language": "en", "value": "Dark mode" },
          { "language": "de", "value": "Dunkelmodus" }
        ],
        "localizedStatus": [
          { "language": "en", "value": "planned" },
          { "language": "de", "value": "geplant" }
        ],
        "localizedDescription": [
          { "language": "en", "value": "A dark look for every screen." },
          { "language": "de", "value": "Ein dunkles Aussehen für jeden Bildschirm." }
        ]
      },
      {
        "id": "2",
        "title": "Widgets",
        "status": "in-progress",
        "localizedTitle": [
          { "language": "en", "value": "Widgets" },
          { "language": "de", "value": "Widgets" }
        ],
        "localizedStatus": [
          { "language": "en", "value": "in-progress" },
          { "language": "de", "value": "in Arbeit" }
        ]
      },
      {
        "id": "3",
        "title": "Offline mode",
        "status": "finished",
        "isFinished": true,
        "localizedTitle": [
          { "language": "en", "value": "Offline mode" },
          { "language": "de", "value": "Offline-Modus" }
        ],
        "localizedStatus": [
          { "language": "en", "value": "finished" },
          { "language": "de", "value": "fertig" }
        ]
      }
    ]

    """

  /// A numeric id on line 3 (column 11), which the Roadmap package rejects.
  static let numericID = """
    [
      { "id": "1", "title": "Dark mode" },
      { "id": 2, "title": "Widgets" }
    ]

    """

  /// A trailing comma after the last feature.
  static let trailingComma = """
    [
      { "id": "1", "title": "Dark mode" },
    ]

    """

  /// Loads everywhere but carries a warning: a status with a trailing space.
  static let warningOnly = """
    [
      { "id": "1", "title": "Dark mode", "status": "planned " }
    ]

    """

  /// `isFinished` as a string: lenient reading reports it, the Roadmap package rejects the file.
  static let finishedAsString = """
    [
      { "id": "1", "title": "Dark mode", "isFinished": "true" }
    ]

    """

  /// Chinese titles under `zh-Hans`, which the Roadmap package's exact match misses for `zh`.
  static let chinese = """
    [
      {
        "id": "1",
        "title": "Dark mode",
        "localizedTitle": [
          { "language": "en", "value": "Dark mode" },
          { "language": "zh-Hans", "value": "深色模式" }
        ]
      }
    ]

    """

  /// The published version: features 1, 2 and 3.
  static let previous = """
    [
      { "id": "1", "title": "Dark mode" },
      { "id": "2", "title": "Widgets" },
      { "id": "3", "title": "Offline mode" }
    ]

    """

  /// The next version: feature 3 is gone.
  static let withoutThree = """
    [
      { "id": "1", "title": "Dark mode" },
      { "id": "2", "title": "Widgets" }
    ]

    """

  /// A localized field written as an object instead of an array (real apps do this).
  static let localizedObject = """
    [
      { "id": "1", "localizedTitle": { "en": "Dark mode", "de": "Dunkelmodus" } }
    ]

    """

  /// A comma missing between two features.
  static let missingComma = """
    [
      { "id": "1", "title": "Dark mode" }
      { "id": "2", "title": "Widgets" }
    ]

    """

  /// `count` features whose ids are numbers: one error each, output far over 64 KiB.
  static func manyNumericIDs(_ count: Int) -> String {
    "[\n"
      + (1...count).map { "  { \"id\": \($0), \"title\": \"Feature \($0)\" }" }
      .joined(separator: ",\n") + "\n]\n"
  }
}
