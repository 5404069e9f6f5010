/// "Did you mean" suggestions and quoted lists for error messages.
enum Suggestion {
  /// The candidate closest to `input` by edit distance, if it is close enough to be a typo;
  /// else one that starts with what `input` says (`--pre` for `--previous`), or that `input`
  /// starts with (`--output` for `--out`).
  static func closest(to input: String, in candidates: [String]) -> String? {
    let lowered = input.lowercased()
    var best: (name: String, distance: Int)? = nil
    for candidate in candidates {
      let distance = editDistance(lowered, candidate.lowercased())
      if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
    }
    guard let best else { return nil }
    let limit = max(2, input.count / 3)
    if best.distance <= limit { return best.name }
    let stripped = lowered.drop(while: { $0 == "-" })
    if stripped.count >= 3,
      let prefixed = candidates.first(where: {
        $0.lowercased().drop(while: { $0 == "-" }).hasPrefix(stripped)
      })
    {
      return prefixed
    }
    // A longer spelling of a name (`--output` for `--out`): the longest name it starts with.
    let within = candidates.filter {
      let name = $0.lowercased().drop(while: { $0 == "-" })
      return name.count >= 3 && stripped.hasPrefix(name)
    }
    return within.max { $0.count < $1.count }
  }

  /// `'a', 'b' or 'c'`.
  static func quotedList(_ values: [String]) -> String {
    let quoted = values.map { "'\($0)'" }
    guard quoted.count > 1 else { return quoted.first ?? "" }
    return quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
  }

  /// Levenshtein distance over Unicode scalars.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a.unicodeScalars)
    let b = Array(b.unicodeScalars)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
