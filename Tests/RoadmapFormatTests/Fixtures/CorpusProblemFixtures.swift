/// Roadmap JSON of our own writing, one document per problem the real-world corpus in
/// `../shared/corpus/roadmap-json/` shows, so every problem stays covered where the corpus is
/// absent. The names say which corpus file shows the problem.
enum CorpusProblemFixtures {
  /// Localized fields written as objects keyed by language (FPST-08 …@4d6b2a3): the app
  /// rejects the whole file.
  static let localizedObjects = """
    [
      {
        "id": "7",
        "isFinished": false,
        "localizedStatus": {
          "de": "In Arbeit",
          "en": "In progress"
        },
        "localizedTitle": {
          "de": "Schlaftimer",
          "en": "Sleep timer"
        },
        "status": "In Arbeit",
        "title": "Schlaftimer"
      },
      {
        "id": "8",
        "localizedTitle": {
          "de": "Statistik",
          "en": "Statistics"
        },
        "title": "Statistik"
      }
    ]
    """

  /// Trailing commas after the last key of objects (FPST-08 …@54a416f): JSONDecoder on
  /// iOS 17+ reads it, every other reader rejects it.
  static let trailingCommas = """
    [
      {
        "id": "1",
        "title": "Hörspiele bewerten",
        "status": "Geplant",
      },
      {
        "id": "2",
        "title": "Widgets",
        "status": "Fertig",
        "isFinished": true,
      }
    ]
    """

  /// A missing comma after a long description (vdhamer …@164b6d5).
  static let missingCommaAfterDescription = """
    [
      {
        "id": "1",
        "title": "Club gallery",
        "description": "Show the images of a club exhibition in a portfolio, one photographer after another."
        "localizedDescription": [
          { "language": "en", "value": "Show the images of a club exhibition." },
          { "language": "nl", "value": "Toon de foto's van een clubexpositie." }
        ]
      }
    ]
    """

  /// A translation with a trailing space, an empty translation, and a language present in
  /// most features but missing in one (FPST-08, current).
  static let translationSlips = """
    [
      {
        "id": "1",
        "title": "Statistik",
        "localizedTitle": [
          { "language": "de", "value": "Statistik" },
          { "language": "en", "value": "Statistics " }
        ],
        "localizedDescription": [
          { "language": "de", "value": "Wie oft du was gehört hast" },
          { "language": "en", "value": "How often you listened to what" }
        ]
      },
      {
        "id": "2",
        "title": "Suche",
        "localizedTitle": [
          { "language": "de", "value": "Suche" },
          { "language": "en", "value": "Search" }
        ],
        "localizedDescription": [
          { "language": "de", "value": "" },
          { "language": "en", "value": "Search every episode" }
        ]
      },
      {
        "id": "3",
        "title": "Sync",
        "localizedTitle": [
          { "language": "de", "value": "Sync" },
          { "language": "en", "value": "Sync" }
        ],
        "localizedDescription": [
          { "language": "en", "value": "Sync across devices" }
        ]
      }
    ]
    """

  /// German statuses without localization, one planned feature flagged finished
  /// (FPST-08 …@00af73d).
  static let plannedButFinished = """
    [
      { "id": "1", "title": "Suche", "status": "Fertig", "isFinished": true },
      { "id": "2", "title": "Widgets", "status": "Geplant", "isFinished": true },
      { "id": "3", "title": "Sync", "status": "Geplant", "isFinished": false }
    ]
    """

  /// Localized descriptions without a plain description, in four languages (asiliuk): a
  /// language the file lacks resolves to an empty description.
  static let noPlainDescription = """
    [
      {
        "id": "0",
        "title": "Exam widget",
        "isFinished": true,
        "localizedTitle": [
          { "language": "ru", "value": "Виджет экзаменов" },
          { "language": "en", "value": "Exam widget" },
          { "language": "be", "value": "Віджэт іспытаў" },
          { "language": "uk", "value": "Віджет іспитів" }
        ],
        "status": "done",
        "localizedDescription": [
          { "language": "ru", "value": "Расписание экзаменов на экране" },
          { "language": "en", "value": "Exam schedule on the home screen" },
          { "language": "be", "value": "Расклад іспытаў на экране" },
          { "language": "uk", "value": "Розклад іспитів на екрані" }
        ]
      }
    ]
    """

  /// `localizedStatus` left out on some features (vdhamer, current): not a language gap, the
  /// plain status shows.
  static let statusNotLocalizedEverywhere = """
    [
      {
        "id": "1", "title": "Maps", "status": "done", "isFinished": true,
        "localizedStatus": [{ "language": "en", "value": "done" }, { "language": "nl", "value": "klaar" }]
      },
      { "id": "2", "title": "Portfolio", "status": "?" }
    ]
    """
}
