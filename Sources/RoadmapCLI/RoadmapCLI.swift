/// The `roadmapctl` command line, as a library so tests can run it in-process.
public enum RoadmapCLI {
  /// The version `roadmapctl --version` prints.
  public static let version = "0.1.0"

  /// Runs `roadmapctl` with `arguments` (without the program name) and returns the exit code.
  public static func main(_ arguments: [String]) async -> Int32 {
    if arguments == ["--version"] {
      print(version)
      return 0
    }
    return 64
  }
}
