// RoadmapFormat: the Roadmap JSON model, strict reader, validator, language resolution,
// canonical writer and JSON Schema. Foundation only: this module ships inside iOS 15+ and
// macOS 12+ apps.
