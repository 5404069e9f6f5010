import Foundation
import Testing

/// `validate` maps a large file instead of reading it. A file that another program cuts short
/// meanwhile ends the run with a clear error and status 1, not with "Bus error" and a core.
@Suite struct ValidateTruncatedFileTests {
  /// Truncates, right after it is mapped, any file under `TRUNCATE_DIR` (and nothing else):
  /// what a program rewriting the file in place does, at the worst moment.
  static let shim = #"""
    #define _GNU_SOURCE
    #include <dlfcn.h>
    #include <limits.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>
    #include <sys/mman.h>
    #include <unistd.h>

    void *mmap(void *address, size_t length, int protection, int flags, int fd, off_t offset) {
      static __typeof__(&mmap) real;
      if (!real) real = (__typeof__(&mmap))dlsym(RTLD_NEXT, "mmap");
      void *mapped = real(address, length, protection, flags, fd, offset);
      const char *dir = getenv("TRUNCATE_DIR");
      if (mapped == MAP_FAILED || fd < 0 || !dir || !*dir) return mapped;
      char link[64], path[PATH_MAX];
      snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
      ssize_t n = readlink(link, path, sizeof path - 1);
      if (n <= 0) return mapped;
      path[n] = 0;
      size_t d = strlen(dir);
      if (strncmp(path, dir, d) == 0 && path[d] == '/') truncate(path, 0);
      return mapped;
    }
    """#

  @Test func aMappedFileCutShortIsAnErrorNotACrash() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let library = try await PreloadLibrary.compile(Self.shim, named: "truncate", in: directory.url)
    let inputs = directory.url.appendingPathComponent("inputs")
    try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
    // Over the 1 MiB from which validate maps a file.
    let features = (0..<2_000).map { n in
      #"{"id":"f\#(n)","title":"Feature \#(n)","status":"planned","description":"\#(String(repeating: "x", count: 600))"}"#
    }
    let file = inputs.appendingPathComponent("big.json")
    try Data("[\(features.joined(separator: ","))]".utf8).write(to: file)

    // Unharmed, the file is valid.
    let plain = try await Roadmapctl.run(["validate", file.path])
    #expect(plain.exitCode == 0, "\(plain.stderrText)")

    let cut = try await Roadmapctl.run(
      ["validate", file.path],
      environment: [
        "LD_PRELOAD": library.path, "TRUNCATE_DIR": inputs.resolvingSymlinksInPath().path,
      ])
    #expect(cut.exitCode == 1)
    #expect(
      cut.stderrText.contains(
        "Error: '\(file.path)' was cut short while it was being read (another program "
          + "truncated or rewrote it in place)"), "\(cut.stderrText)")
    #expect(cut.stdoutText.isEmpty)
    #expect(try Data(contentsOf: file).isEmpty, "the shim did cut the file")
  }
}
