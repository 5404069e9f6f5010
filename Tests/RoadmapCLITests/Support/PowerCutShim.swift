import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A preloaded library (`LD_PRELOAD`) that models a power cut for the files of one directory.
///
/// A `kill -9` cannot show a missing fsync: what a process wrote stays in the page cache and
/// is read back after the restart. After a power cut only what was synced is there. The shim
/// keeps, for every file under `POWERCUT_DIR`, a copy of the file as it was when its last
/// completed `fsync`/`fdatasync` began (`.powercut-INODE` in that directory: kept by inode,
/// so a file synced under a temporary name and then renamed or linked keeps its copy).
/// Writes (`write`, `pwrite`, `ftruncate`, …) are held while a copy is taken, so a copy holds
/// exactly the writes that came before the sync; syncs run one at a time, so copies are kept
/// in the order the syncs began. ``PowerCut/cut(_:)`` then puts each file back as its copy (a
/// file never synced is lost): the worst case a power cut can leave, with nothing unsynced on
/// the disk. (Directory entries are not modelled: a name is taken to be durable.)
///
/// `POWERCUT_IGNORE_WAL=1` makes the shim ignore the syncs of SQLite's write-ahead logs (files
/// named `…-wal`), as if they never happened: the control that shows the test can see a
/// missing sync. And while a file named `.powercut-fail` exists in the directory, those syncs
/// fail with `EIO`, as a dying disk's would.
enum PowerCut {
  /// Builds the shim into `directory`; returns its path.
  static func build(in directory: URL) async throws -> URL {
    try await PreloadLibrary.compile(source, named: "powercut", in: directory)
  }

  /// The environment that runs a process under the shim, for the files under `directory`.
  static func environment(
    library: URL, directory: URL, ignoreWALSyncs: Bool = false
  ) -> [String: String] {
    var environment = [
      "LD_PRELOAD": library.path,
      "POWERCUT_DIR": directory.resolvingSymlinksInPath().path,
    ]
    if ignoreWALSyncs { environment["POWERCUT_IGNORE_WAL"] = "1" }
    return environment
  }

  /// After the process was killed: every file under `directory` becomes its last synced
  /// copy; a file without one (never synced: the `-shm` index, for one) is removed.
  /// Returns the names of the files kept.
  @discardableResult
  static func cut(_ directory: URL) throws -> [String] {
    let manager = FileManager.default
    var kept: [String] = []
    for name in try manager.contentsOfDirectory(atPath: directory.path)
    where !name.hasPrefix(".powercut") {
      let file = directory.appendingPathComponent(name).path
      var info = stat()
      guard lstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
      let copy = directory.appendingPathComponent(".powercut-\(info.st_ino)").path
      try manager.removeItem(atPath: file)
      if manager.fileExists(atPath: copy) {
        try manager.copyItem(atPath: copy, toPath: file)
        kept.append(name)
      }
    }
    for name in try manager.contentsOfDirectory(atPath: directory.path)
    where name.hasPrefix(".powercut") {
      try manager.removeItem(at: directory.appendingPathComponent(name))
    }
    return kept.sorted()
  }

  /// From now on (until ``stopFailing(_:)``), syncs of the WAL under `directory` fail with
  /// `EIO`.
  static func startFailing(_ directory: URL) throws {
    try Data().write(to: directory.appendingPathComponent(".powercut-fail"))
  }

  /// Syncs succeed again.
  static func stopFailing(_ directory: URL) throws {
    try FileManager.default.removeItem(at: directory.appendingPathComponent(".powercut-fail"))
  }

  static let source = #"""
    #define _GNU_SOURCE
    #include <dlfcn.h>
    #include <errno.h>
    #include <fcntl.h>
    #include <limits.h>
    #include <pthread.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <string.h>
    #include <sys/stat.h>
    #include <sys/syscall.h>
    #include <sys/types.h>
    #include <sys/uio.h>
    #include <unistd.h>

    static pthread_rwlock_t gate;
    static pthread_mutex_t syncs = PTHREAD_MUTEX_INITIALIZER;
    static char dir[PATH_MAX];
    static size_t dirlen;
    static int ignore_wal;
    static unsigned long serial;

    __attribute__((constructor)) static void powercut_init(void) {
      pthread_rwlockattr_t attr;
      pthread_rwlockattr_init(&attr);
      pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
      pthread_rwlock_init(&gate, &attr);
      const char *d = getenv("POWERCUT_DIR");
      if (d && strlen(d) < sizeof dir - 1) {
        strcpy(dir, d);
        dirlen = strlen(dir);
      }
      const char *w = getenv("POWERCUT_IGNORE_WAL");
      ignore_wal = w && strcmp(w, "1") == 0;
    }

    #define REAL(name) \
      static __typeof__(&name) real_##name; \
      if (!real_##name) real_##name = (__typeof__(&name))dlsym(RTLD_NEXT, #name)

    #define GATED(call) \
      pthread_rwlock_rdlock(&gate); \
      __typeof__(call) result = call; \
      int saved = errno; \
      pthread_rwlock_unlock(&gate); \
      errno = saved; \
      return result

    ssize_t write(int fd, const void *b, size_t n) { REAL(write); GATED(real_write(fd, b, n)); }
    ssize_t pwrite(int fd, const void *b, size_t n, off_t o) {
      REAL(pwrite); GATED(real_pwrite(fd, b, n, o));
    }
    ssize_t pwrite64(int fd, const void *b, size_t n, off64_t o) {
      REAL(pwrite64); GATED(real_pwrite64(fd, b, n, o));
    }
    ssize_t writev(int fd, const struct iovec *v, int n) {
      REAL(writev); GATED(real_writev(fd, v, n));
    }
    ssize_t pwritev(int fd, const struct iovec *v, int n, off_t o) {
      REAL(pwritev); GATED(real_pwritev(fd, v, n, o));
    }
    int ftruncate(int fd, off_t l) { REAL(ftruncate); GATED(real_ftruncate(fd, l)); }
    int ftruncate64(int fd, off64_t l) { REAL(ftruncate64); GATED(real_ftruncate64(fd, l)); }

    /* Whether fd is a regular file under POWERCUT_DIR; sets its inode. */
    static int watched(int fd, char *path, size_t size, unsigned long *inode) {
      if (dirlen == 0) return 0;
      char link[64];
      snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
      ssize_t n = readlink(link, path, size - 1);
      if (n <= 0) return 0;
      path[n] = 0;
      if (strncmp(path, dir, dirlen) != 0 || path[dirlen] != '/') return 0;
      if (strstr(path, "/.powercut")) return 0;
      struct stat info;
      if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) return 0;
      *inode = (unsigned long)info.st_ino;
      return 1;
    }

    static int is_wal(const char *path) {
      size_t n = strlen(path);
      return n > 4 && strcmp(path + n - 4, "-wal") == 0;
    }

    static int failing(void) {
      char marker[PATH_MAX + 32];
      snprintf(marker, sizeof marker, "%s/.powercut-fail", dir);
      return access(marker, F_OK) == 0;
    }

    /* Copies the file's content as it is now into `copy` (the caller holds the gate). */
    static int snapshot(int fd, const char *copy) {
      int out = open(copy, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
      if (out < 0) return -1;
      char buffer[65536];
      off_t offset = 0;
      for (;;) {
        ssize_t n = pread(fd, buffer, sizeof buffer, offset);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) { close(out); return -1; }
        if (n == 0) break;
        for (ssize_t done = 0; done < n;) {
          long w = syscall(SYS_write, out, buffer + done, (size_t)(n - done));
          if (w < 0 && errno == EINTR) continue;
          if (w <= 0) { close(out); return -1; }
          done += w;
        }
        offset += n;
      }
      close(out);
      return 0;
    }

    static int synced(int fd, int (*real)(int)) {
      char path[PATH_MAX];
      unsigned long inode;
      if (!watched(fd, path, sizeof path, &inode)) return real(fd);
      if (is_wal(path) && failing()) {
        errno = EIO;
        return -1;
      }
      if (ignore_wal && is_wal(path)) return real(fd);
      pthread_mutex_lock(&syncs);
      char copy[PATH_MAX + 64];
      snprintf(copy, sizeof copy, "%s/.powercut-%lu.%lu", dir, inode, ++serial);
      pthread_rwlock_wrlock(&gate);
      int copied = snapshot(fd, copy);
      pthread_rwlock_unlock(&gate);
      int result = real(fd);
      int saved = errno;
      if (copied == 0 && result == 0) {
        char kept[PATH_MAX + 64];
        snprintf(kept, sizeof kept, "%s/.powercut-%lu", dir, inode);
        rename(copy, kept);
      } else {
        unlink(copy);
      }
      pthread_mutex_unlock(&syncs);
      errno = saved;
      return result;
    }

    int fsync(int fd) { REAL(fsync); return synced(fd, real_fsync); }
    int fdatasync(int fd) { REAL(fdatasync); return synced(fd, real_fdatasync); }
    """#
}
