import Foundation
import VoteStore

/// Where `serve` and `votes` find the counts: a SQLite data directory or a PostgreSQL URL.
///
/// The commands declare it as an `@OptionGroup`, so `--data-dir` and `--postgres` are named,
/// typed and documented the same way everywhere.
struct VotesStoreOptions: ParsableArguments {
  /// The default data directory, relative to the working directory.
  static let defaultDataDirectory = "./roadmapctl-data"
  /// How long `serve`'s requests wait on a SQLite store before they are answered (503): long
  /// past any commit of a working disk (a loaded test machine once took 8 s over one), short
  /// of a client's patience.
  static let serveAnswerDeadlineMilliseconds = 30_000

  @Option(
    name: "data-dir", valueName: "dir",
    help:
      "The directory of the embedded SQLite store (votes.sqlite3). (default: ./roadmapctl-data)",
    validate: VotesStoreOptions.dataDirProblem)
  var givenDataDir: String?

  /// Why `dir` cannot be `--data-dir`, a usage error: empty (a variable that was never set,
  /// `--data-dir "$DATA"`), which opened the store in the working directory itself, with no
  /// word of where the votes went.
  @Sendable static func dataDirProblem(_ dir: String) -> String? {
    guard dir.isEmpty else { return nil }
    return "--data-dir is empty: give the directory of the store, or leave it out for "
      + "\(defaultDataDirectory)."
  }

  /// `--data-dir`, or the default when it is not given.
  var dataDir: String { givenDataDir ?? Self.defaultDataDirectory }

  @Option(
    valueName: "url", environment: "ROADMAPCTL_POSTGRES_URL", emptyEnvironmentIsAValue: true,
    help:
      "Use PostgreSQL at this URL (postgresql://user@host/db, or key=value) instead of the data directory; prefer the environment variable, which other users cannot see.",
    validate: VotesStoreOptions.postgresProblem)
  var postgres: String?

  /// Why `url` cannot be `--postgres` (or `ROADMAPCTL_POSTGRES_URL`), a usage error: empty
  /// (which would otherwise mean the SQLite store in ./roadmapctl-data without a word), or not
  /// a `postgresql://` URL or `key=value` string. Never repeats the value, which may hold a
  /// password.
  @Sendable static func postgresProblem(_ url: String) -> String? {
    guard let problem = PostgresConnectionString.problem(url) else { return nil }
    let forms =
      "postgresql://user@host/db, or a key=value string such as 'host=/run/postgresql dbname=votes'"
    if url.allSatisfy({ $0.isWhitespace }) {
      return "--postgres (or ROADMAPCTL_POSTGRES_URL) is empty: give \(forms), or leave both "
        + "out to use the SQLite store in --data-dir."
    }
    return "--postgres (or ROADMAPCTL_POSTGRES_URL): \(problem). Give \(forms)."
  }

  /// Where the votes are, in one line for a server's start: the SQLite file's full path, or
  /// PostgreSQL and where its URL came from (never the URL, which may hold a password). A
  /// `ROADMAPCTL_POSTGRES_URL` inherited from a shell sent a test server's votes there with
  /// no word of it.
  func whereTheVotesAre(_ context: CommandContext) -> String {
    if postgres != nil {
      return "Votes and boards are in PostgreSQL (--postgres or ROADMAPCTL_POSTGRES_URL)."
    }
    let file = URL(fileURLWithPath: context.resolvePath(dataDir))
      .appendingPathComponent(SQLiteVoteStore.fileName)
    return "Votes and boards are in \(file.standardizedFileURL.path) (SQLite)."
  }

  /// Opens the store the parsed values name.
  ///
  /// With `mustExist`, a data directory without a database is an error rather than a new,
  /// empty store (so `votes export` of a mistyped path does not print an empty export).
  ///
  /// With `memoryCache` (what `serve` asks for), a SQLite store keeps counts in memory and is
  /// its database's only writer while open (``SQLiteVoteStoreOptions/memoryCache``);
  /// PostgreSQL never does, since other instances write the same database.
  func open(
    _ context: CommandContext, mustExist: Bool, memoryCache: Bool = false
  ) throws(CommandError) -> any VoteStore {
    if let url = postgres {
      if let givenDataDir {
        // Both named: say which one holds the votes rather than leave a user looking for
        // them in a directory nothing was written to.
        context.stderr.writeLine(
          "warning: --data-dir \(givenDataDir) is not used: the votes are in PostgreSQL "
            + "(--postgres or ROADMAPCTL_POSTGRES_URL).")
      }
      return try Self.openPostgres(url)
    }
    let directory = context.resolvePath(dataDir)
    let file = URL(fileURLWithPath: directory).appendingPathComponent(SQLiteVoteStore.fileName)
    if mustExist && !FileManager.default.fileExists(atPath: file.path) {
      throw .failure("no vote store in \(directory): \(file.path) does not exist.")
    }
    do {
      return try SQLiteVoteStore(
        directory: URL(fileURLWithPath: directory),
        options: SQLiteVoteStoreOptions(
          memoryCache: memoryCache,
          // A server's requests never wait on a stalled disk longer than on PostgreSQL.
          answerDeadlineMilliseconds: memoryCache ? Self.serveAnswerDeadlineMilliseconds : nil))
    } catch {
      throw .failure(Self.describe(error, at: file.path))
    }
  }

  /// What the data directory held before a command opened it, to take away again what the
  /// opening created when the command then fails: a refused restore or import into a new
  /// directory leaves no empty `votes.sqlite3` (nor a voter key no store goes with) behind.
  struct Footprint {
    private let directory: URL
    private let usesDirectory: Bool
    private let hadDirectory: Bool
    private let hadDatabase: Bool
    /// The database's companion files (`-wal`, `-voter-key`, …) that were there before.
    private let hadFiles: Set<String>

    /// The database file in the data directory.
    private var database: URL { directory.appendingPathComponent(SQLiteVoteStore.fileName) }

    fileprivate init(directory: URL, usesDirectory: Bool) {
      self.directory = directory
      self.usesDirectory = usesDirectory
      let manager = FileManager.default
      let database = directory.appendingPathComponent(SQLiteVoteStore.fileName).path
      hadDirectory = manager.fileExists(atPath: directory.path)
      hadDatabase = manager.fileExists(atPath: database)
      hadFiles = Set(
        Self.companions.filter { suffix in
          var info = stat()
          return lstat(database + suffix, &info) == 0
        })
    }

    /// The files beside the database that opening it may create.
    private static let companions = ["-wal", "-shm", "-journal", "-lock", "-voter-key"]

    /// Removes the store the command created (and the directory, when it created that too);
    /// nothing when the store was there before, or is in PostgreSQL.
    func removeWhatWasCreated() {
      guard usesDirectory, !hadDatabase else { return }
      let manager = FileManager.default
      if !hadDirectory {
        try? manager.removeItem(at: directory)
        return
      }
      // Only what was not there before: a write-ahead log left by a database deleted
      // without it (which the open refuses) is someone's votes, not ours to remove.
      let made = [""] + Self.companions.filter { !hadFiles.contains($0) }
      for suffix in made {
        try? manager.removeItem(atPath: database.path + suffix)
      }
    }
  }

  /// ``open(_:mustExist:memoryCache:)``, with the ``Footprint`` of the data directory taken
  /// before: an open that fails leaves nothing it made behind, and a caller whose later work
  /// fails removes the rest with the footprint.
  func openTracked(
    _ context: CommandContext, mustExist: Bool, memoryCache: Bool = false
  ) throws(CommandError) -> (store: any VoteStore, footprint: Footprint) {
    let footprint = Footprint(
      directory: URL(fileURLWithPath: context.resolvePath(dataDir)),
      usesDirectory: postgres == nil)
    do {
      return (try open(context, mustExist: mustExist, memoryCache: memoryCache), footprint)
    } catch {
      footprint.removeWhatWasCreated()
      throw error
    }
  }

  /// A sentence for a store that cannot be opened, with what to do about it.
  static func describe(_ error: VoteStoreError, at place: String) -> String {
    switch error.kind {
    case .corrupt:
      return "the vote store at \(place) is damaged or not a database (\(error.message)). "
        + "Refusing to start on it: move the file away, then load a backup into the data "
        + "directory ('roadmapctl restore FILE' for a backup, 'roadmapctl votes import FILE' for "
        + "a votes export)."
    case .incompatible:
      return "refusing to open the vote store at \(place): \(error.message)"
    default:
      return "cannot open the vote store at \(place): \(error)"
    }
  }

  /// On PostgreSQL, takes the lock a running `serve` holds shared (``PostgresServeLock``),
  /// saying on stderr when it is lost and taken again; nil on SQLite, whose store file tells
  /// the same by itself.
  func holdServeLock(_ context: CommandContext) throws(CommandError) -> PostgresServeLock? {
    guard let url = postgres else { return nil }
    let stderr = context.stderr
    do {
      return try PostgresServeLock(connectionString: url) { stderr.writeLine($0) }
    } catch  where error.kind == .busy {
      throw .failure("refusing to start: \(error.message).")
    } catch {
      throw .failure("cannot open the PostgreSQL vote store: \(error)")
    }
  }

  /// On PostgreSQL, takes the serve lock exclusively without waiting, for a command that must
  /// not run beside `serve`; nil on SQLite. Refuses, naming who holds it, when a server runs.
  func excludeServers(refusing what: String) throws(CommandError) -> PostgresExclusiveLock? {
    guard let url = postgres else { return nil }
    do {
      return try PostgresServeLock.takeExclusive(on: url)
    } catch  where error.kind == .busy {
      throw .failure("refusing to \(what): \(error.message); nothing was changed.")
    } catch {
      throw .failure("cannot open the PostgreSQL vote store: \(error)")
    }
  }

  private static func openPostgres(_ url: String) throws(CommandError) -> any VoteStore {
    do {
      return try PostgresVoteStore(connectionString: url)
    } catch {
      throw .failure("cannot open the PostgreSQL vote store: \(error)")
    }
  }
}
