/// How strictly a Roadmap JSON document is read.
public enum RoadmapReadingMode: Sendable {
  /// Exactly what the AvdLee/Roadmap package accepts: one wrong type anywhere rejects the whole
  /// document (reading throws the first such problem, with its position).
  case compatible
  /// A feature that is wrong is reported and left out; the rest load.
  case lenient
}
