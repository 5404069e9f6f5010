/// How a status text reads, for the rules that compare it with `isFinished`.
enum StatusReading: Sendable {
  /// Reads as done: "Done", "released", "fertig", "Готово"…
  case finished
  /// Reads as not started or not done: "planned", "backlog", "in progress", "geplant"…
  case unfinished
  /// Anything else.
  case other

  private static let finishedWords: Set<String> = [
    "done", "finished", "complete", "completed", "released", "shipped", "available", "live",
    "launched", "implemented", "fixed", "resolved", "fertig", "erledigt", "abgeschlossen",
    "verfügbar", "veröffentlicht", "umgesetzt", "gereed", "klaar", "beschikbaar", "terminé",
    "disponible", "listo", "terminado", "готово", "выполнено", "реализовано", "выпущено",
    "гатова", "готово!", "已完成", "已发布", "リリース済み", "完了", "출시됨",
  ]

  private static let unfinishedWords: Set<String> = [
    "planned", "planning", "todo", "to do", "backlog", "idea", "ideas", "considering",
    "under consideration", "proposed", "requested", "later", "next", "soon", "in progress",
    "in development", "in-progress", "wip", "working on it", "geplant", "in planung",
    "in arbeit", "in entwicklung", "gepland", "bezig", "verwacht", "prévu", "en cours",
    "planeado", "en curso", "запланировано", "в работе", "заплановано", "в роботі",
    "запланавана", "у працы", "计划中", "进行中", "予定", "開発中", "계획됨", "진행 중",
  ]

  /// Classifies a status (case-insensitively, ignoring surrounding spaces and line breaks).
  init(status: String) {
    let normalized = status.lowercased().trimmingSpaces()
    if Self.finishedWords.contains(normalized) {
      self = .finished
    } else if Self.unfinishedWords.contains(normalized) {
      self = .unfinished
    } else {
      self = .other
    }
  }
}

extension String {
  /// Without leading and trailing spaces, tabs, line breaks and no-break spaces (U+00A0).
  ///
  /// Trimmed scalar by scalar: `"\r\n"` is one `Character`, equal to neither `"\r"` nor
  /// `"\n"`, so a character test leaves a trailing CRLF in place.
  func trimmingSpaces() -> String {
    let scalars = unicodeScalars
    let isSpace = { (scalar: Unicode.Scalar) in
      scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{A0}"
    }
    guard let first = scalars.firstIndex(where: { !isSpace($0) }),
      let last = scalars.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(scalars[first...last])
  }
}
