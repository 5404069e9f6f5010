/// The JSON Schema (draft 2020-12) of Roadmap JSON, for editors and other validators.
///
/// Only `id` is required; optional keys may be absent or `null`; unknown keys are allowed.
/// What a schema cannot say (unique ids, counter-key characters, duplicate object keys, the
/// warnings) is left to `RoadmapValidator`. `Samples/roadmap.schema.json` holds the same text.
public enum RoadmapSchema {
  /// The schema text, pretty-printed with a final newline.
  public static let json: String = #"""
    {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "$id": "urn:roadmapbridge:schema:roadmap-json",
      "title": "Roadmap JSON",
      "description": "A feature list as read by the AvdLee/Roadmap Swift package: a top-level array of feature objects. Only id is required; optional keys may be absent or null; unknown keys are allowed and ignored by the app. One wrong type anywhere makes the app show an empty roadmap. Unique ids and counter-key characters are checked by roadmapctl validate.",
      "type": "array",
      "items": { "$ref": "#/$defs/feature" },
      "$defs": {
        "feature": {
          "type": "object",
          "required": ["id"],
          "properties": {
            "id": {
              "description": "Identifier; the vote counter key is \"feature\" + id.",
              "type": "string",
              "minLength": 1
            },
            "title": { "type": ["string", "null"] },
            "status": { "type": ["string", "null"] },
            "description": { "type": ["string", "null"] },
            "isFinished": {
              "description": "Absent or null reads as false; true hides the vote button.",
              "type": ["boolean", "null"]
            },
            "votes": {
              "description": "A count shown instead of fetching one.",
              "type": ["integer", "null"],
              "minimum": -9223372036854775808,
              "maximum": 9223372036854775807
            },
            "localizedTitle": { "$ref": "#/$defs/localizedList" },
            "localizedStatus": { "$ref": "#/$defs/localizedList" },
            "localizedDescription": { "$ref": "#/$defs/localizedList" }
          },
          "additionalProperties": true
        },
        "localizedList": {
          "description": "Translations; the app picks the first item whose language equals its localization exactly.",
          "type": ["array", "null"],
          "items": { "$ref": "#/$defs/localizedItem" }
        },
        "localizedItem": {
          "type": "object",
          "required": ["language", "value"],
          "properties": {
            "language": { "type": "string" },
            "value": { "type": "string" }
          },
          "additionalProperties": true
        }
      }
    }

    """#
}
