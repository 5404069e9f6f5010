import Foundation

/// One change at a time to a decoded VoteFirst export (a key dropped, a value of another type
/// or out of range, an array element repeated, the text cut short, or none), as JSON text;
/// deterministic for a seed.
public struct ExportMutator {
  private var random: SeededRandom

  /// A mutator whose changes follow from `seed`.
  public init(seed: UInt64) { random = SeededRandom(seed: seed) }

  private mutating func below(_ bound: Int) -> Int { random.below(bound) }

  private mutating func value() -> Any {
    let values: [Any] = [
      NSNull(), "x", "", -1, 0, 99, 1.5, 9_007_199_254_740_993 as Int64, Int64.max, true,
      [Any](), [String: Any](), "2026-13-99T00:00:00Z", String(repeating: "y", count: 3000),
      [1, 1], ["x"],
    ]
    return values[below(values.count)]
  }

  /// Every place in `tree`, as a path of keys and indices.
  private func places(_ tree: Any, _ path: [Any] = []) -> [[Any]] {
    var result: [[Any]] = path.isEmpty ? [] : [path]
    if let object = tree as? [String: Any] {
      for key in object.keys.sorted() { result += places(object[key]!, path + [key]) }
    } else if let array = tree as? [Any] {
      for index in array.indices { result += places(array[index], path + [index]) }
    }
    return result
  }

  private func changing(_ tree: Any, at path: ArraySlice<Any>, _ change: (Any?) -> Any?) -> Any? {
    guard let step = path.first else { return change(tree) }
    if var object = tree as? [String: Any], let key = step as? String {
      object[key] = changing(object[key] as Any, at: path.dropFirst(), change)
      return object
    }
    if var array = tree as? [Any], let index = step as? Int {
      if let new = changing(array[index], at: path.dropFirst(), change) {
        array[index] = new
      } else {
        array.remove(at: index)
      }
      return array
    }
    return tree
  }

  /// The export with one change, as JSON text, and what the change was.
  public mutating func mutate(_ export: [String: Any]) -> (String, String) {
    let all = places(export)
    let path = all[below(all.count)]
    let described = path.map { "\($0)" }.joined(separator: "/")
    let kind = below(5)
    let changed: Any?
    switch kind {
    case 0: changed = changing(export, at: path[...], { _ in nil })
    case 1:
      let replacement = value()
      changed = changing(export, at: path[...], { _ in replacement })
    case 2:
      changed = changing(export, at: path.dropLast()[...]) { parent in
        guard var array = parent as? [Any], !array.isEmpty else { return parent }
        array.append(array[0])
        return array
      }
    default:
      changed = export
    }
    var text = String(
      decoding: (try? JSONSerialization.data(withJSONObject: changed ?? [:])) ?? Data(),
      as: UTF8.self)
    switch kind {
    case 3:
      text = String(text.prefix(below(max(1, text.count))))
      return (text, "cut at \(text.count)")
    case 4: return (text, "unchanged")
    default: return (text, ["dropped", "replaced", "repeated"][kind] + " " + described)
    }
  }
}
