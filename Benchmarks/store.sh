#!/usr/bin/env bash
# store.sh — durable increments per second through SQLiteVoteStore (group commit) with 1, 8 and
# 64 concurrent writers, side by side with ../shared/bench/sqlite_anchors.sh (the sqlite3 CLI's
# one-row UPDATE transactions per second, WAL, synchronous=FULL; and the disk's raw O_DSYNC rate)
# in one run, on the same filesystem.
#
# The driver is compiled with `swiftc -O -wmo` together with Sources/VoteStore (release optimisation,
# no Package.swift change). Every increment is `apply(+1)` and returns only after its group's
# commit (fsync of the WAL); the total is checked at the end of every run.
#
# Knobs: RUNS (3) · OPS (increments per run, 20000) · WRITERS ("1 8 64") · KEYS (100)
#        ANCHORS (1: also run sqlite_anchors.sh) · DIR (default: under /var/tmp, removed at exit)
#        POSTGRES (0): 1 = also measure PostgresVoteStore (pool 16) on a throwaway cluster started
#        here (initdb, Unix socket in the work dir, fsync=on, synchronous_commit=on; as root via
#        runuser -u postgres), or on ROADMAP_BENCH_POSTGRES_URL when that is set.
#        BUILD_ONLY=1: compile the driver and stop (SWIFT_OPT=-Onone compiles it faster, to
#        check that it builds)
# Needs swiftc and clang (the toolchain) and the headers of libsqlite3-dev, libpq-dev and
# libssl-dev; POSTGRES=1 needs Debian's postgresql too. Without ../shared (a clone) the anchors
# are left out, saying so.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
SHARED=${SHARED:-$ROOT/../shared}
RUNS=${RUNS:-3}; OPS=${OPS:-20000}; WRITERS=${WRITERS:-"1 8 64"}; KEYS=${KEYS:-100}
ANCHORS=${ANCHORS:-1}

if [ -n "${DIR:-}" ]; then W=$DIR; mkdir -p "$W"; OWN=0; else W=$(mktemp -d /var/tmp/store-bench.XXXXXX); OWN=1; fi
BUILD=$(mktemp -d /tmp/store-bench-build.XXXXXX)
PGDIR=""
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
cleanup() {
  if [ -n "$PGDIR" ]; then as_pg "$PGBIN/pg_ctl" -D "$PGDIR/data" -m fast -w stop >/dev/null 2>&1 || true; rm -rf "$PGDIR"; fi
  [ "$OWN" = 1 ] && rm -rf "$W"; rm -rf "$BUILD"; return 0
}
trap cleanup EXIT INT TERM

cat > "$BUILD/main.swift" <<'SWIFT'
import Foundation

// Usage: storebench sqlite|postgres <dir-or-url> <writers> <ops> <keys>
let args = CommandLine.arguments
let kind = args[1], place = args[2]
let writers = Int(args[3])!, ops = Int(args[4])!, keys = Int(args[5])!

func open() throws -> any VoteStore {
  if kind == "sqlite" { return try SQLiteVoteStore(directory: URL(fileURLWithPath: place)) }
  return try PostgresVoteStore(connectionString: place, poolSize: 16)
}

let store = try open()
let namespace = "bench-\(UUID().uuidString.prefix(8))"
for k in 0..<keys { _ = try await store.create(CounterCreation(namespace: namespace, key: "feature\(k)")) }

let start = ContinuousClock.now
let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
  for w in 0..<writers {
    group.addTask {
      var mine: [Double] = []
      var i = w
      while i < ops {
        let t0 = ContinuousClock.now
        let result = try await store.apply(
          CounterMutation(namespace: namespace, key: "feature\(i % keys)", delta: 1))
        precondition(result.outcome == .applied)
        let d = ContinuousClock.now - t0
        mine.append(Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) / 1e15)
        i += writers
      }
      return mine
    }
  }
  var all: [Double] = []
  for try await part in group { all += part }
  return all
}
let elapsed = ContinuousClock.now - start
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
let total = try await store.values(namespace: namespace, keys: (0..<keys).map { "feature\($0)" })
  .values.reduce(0, +)
guard total == Int64(ops) else { fatalError("lost increments: \(total) of \(ops)") }
let sorted = latencies.sorted()
func pct(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
print(String(format: "%.0f %.3f %.3f", Double(ops) / seconds, pct(0.5), pct(0.99)))
await store.close()
SWIFT

echo "compiling the driver (swiftc ${SWIFT_OPT:--O}) ..." >&2
# VoteStore's C modules as SwiftPM builds them: the system-library module maps of SQLite, libpq
# and libcrypto, and CLazyLibraries (its header as a module, its C files compiled here), which
# loads the three libraries on first use (so only libdl is linked).
mkdir -p "$BUILD/lazy"
printf 'module CLazyLibraries {\n  header "%s"\n  export *\n}\n' \
  "$ROOT/Sources/CLazyLibraries/include/CLazyLibraries.h" > "$BUILD/lazy/module.modulemap"
for c in "$ROOT"/Sources/CLazyLibraries/*.c; do
  clang -c -O2 -I "$ROOT/Sources/CLazyLibraries/include" "$c" -o "$BUILD/lazy/$(basename "$c" .c).o"
done
( cd "$ROOT" && swiftc "${SWIFT_OPT:--O}" -wmo -swift-version 6 -module-name StoreBench \
    -package-name RoadmapBridge -o "$BUILD/storebench" \
    $(find Sources/VoteStore -name '*.swift') "$BUILD/main.swift" \
    -I Sources/CSQLite -I Sources/CPostgres -I Sources/CCrypto -I "$BUILD/lazy" \
    "$BUILD"/lazy/*.o -ldl ) >&2
if [ "${BUILD_ONLY:-0}" = 1 ]; then
  echo "built the driver"
  exit 0
fi

if [ "${POSTGRES:-0}" = 1 ] && [ -z "${ROADMAP_BENCH_POSTGRES_URL:-}" ]; then
  PGBIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  PGDIR=$(mktemp -d /var/tmp/store-bench-pg.XXXXXX)
  [ "$(id -u)" = 0 ] && chown postgres:postgres "$PGDIR"
  as_pg "$PGBIN/initdb" -D "$PGDIR/data" -U postgres --auth=trust -E UTF8 >/dev/null
  as_pg "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/log" -w -o "-c port=5432 -c listen_addresses='' -c unix_socket_directories=$PGDIR -c fsync=on -c synchronous_commit=on" start >/dev/null
  ROADMAP_BENCH_POSTGRES_URL="host=$PGDIR port=5432 user=postgres dbname=postgres"
fi

median() { sort -g | awk '{a[NR]=$1} END{ if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2 }'; }
declare -A TPS P50 P99
for ((r = 1; r <= RUNS; r++)); do
  for wr in $WRITERS; do
    d="$W/sqlite-$wr-$r"; rm -rf "$d"; sync
    read -r tps p50 p99 < <("$BUILD/storebench" sqlite "$d" "$wr" "$OPS" "$KEYS")
    TPS[s$wr]+="$tps "; P50[s$wr]+="$p50 "; P99[s$wr]+="$p99 "
    rm -rf "$d"
    if [ -n "${ROADMAP_BENCH_POSTGRES_URL:-}" ]; then
      read -r tps p50 p99 < <("$BUILD/storebench" postgres "$ROADMAP_BENCH_POSTGRES_URL" "$wr" "$OPS" "$KEYS")
      TPS[p$wr]+="$tps "; P50[p$wr]+="$p50 "; P99[p$wr]+="$p99 "
    fi
  done
done

row() {  # label key
  local vals med lo hi
  vals=$(tr ' ' '\n' <<<"${TPS[$2]}" | grep -v '^$')
  med=$(median <<<"$vals"); lo=$(sort -g <<<"$vals" | head -1); hi=$(sort -g <<<"$vals" | tail -1)
  local p50 p99
  p50=$(tr ' ' '\n' <<<"${P50[$2]}" | grep -v '^$' | median)
  p99=$(tr ' ' '\n' <<<"${P99[$2]}" | grep -v '^$' | median)
  awk -v l="$1" -v m="$med" -v lo="$lo" -v hi="$hi" -v p50="$p50" -v p99="$p99" -v runs="$RUNS" -v n="$OPS" \
    'BEGIN{printf "| %s | %d | %d–%d | %.2f | %.2f | %d × %d |\n", l, m, lo, hi, p50, p99, runs, n}'
}

{
  echo "### VoteStore durable increments ($(df -T "$W" | awk 'NR==2{print $1" "$2}'), $(nproc) cores, sqlite $(sqlite3 --version 2>/dev/null | awk '{print $1}'))"
  echo
  echo "| what | increments/s (median) | min–max | p50 ms | p99 ms | runs × ops |"
  echo "|---|---:|---:|---:|---:|---:|"
  for wr in $WRITERS; do row "SQLiteVoteStore apply(+1), $wr concurrent writers (group commit, synchronous=FULL)" "s$wr"; done
  if [ -n "${ROADMAP_BENCH_POSTGRES_URL:-}" ]; then
    for wr in $WRITERS; do row "PostgresVoteStore apply(+1), $wr concurrent writers (pool 16)" "p$wr"; done
  fi
  echo
}
if [ "$ANCHORS" = 1 ]; then
  if [ -x "$SHARED/bench/sqlite_anchors.sh" ] || [ -f "$SHARED/bench/sqlite_anchors.sh" ]; then
    RUNS=$RUNS bash "$SHARED/bench/sqlite_anchors.sh"
  else
    echo "(peer anchors not found at $SHARED/bench/sqlite_anchors.sh)"
  fi
fi
