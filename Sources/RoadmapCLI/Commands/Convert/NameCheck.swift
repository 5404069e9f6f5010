/// The name rules of the counters' namespaces, for options that name a project or namespace.
enum NameCheck {
  /// Why `name` is not a namespace (`^[A-Za-z0-9_\-.]{3,64}$`), or nil when it is one.
  static func namespaceProblem(_ name: String) -> String? {
    let ok =
      (3...64).contains(name.utf8.count)
      && name.utf8.allSatisfy { byte in
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
          || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte == 0x2D || byte == 0x2E
      }
    return ok ? nil : "'\(name)' is not a namespace: 3–64 of A-Z a-z 0-9 _ - ."
  }
}
