#!/usr/bin/env bash
# Benchmark: `roadmapctl validate` (every rule on) side by side with its peers, in one run.
#
# Rows, timed round-robin by Benchmarks/measure.py (RUNS timed runs each, after one warm-up):
#   roadmapctl validate FILE             every rule on, human output (what CI runs)
#   simdjson DOM + type checks (C++)     the native-parser limit: simdjson's DOM parse of the file
#                                        and the schema's type checks. Its source is the anchor in
#                                        ../shared/bench/anchors/simdjson_check.cpp; when that is
#                                        not there (a plain clone), our own check of the same
#                                        types, Benchmarks/lib/simdjson_types.cpp. Built with g++
#                                        against Debian's libsimdjson-dev.
#   jq empty FILE                        the plain parser a CI job would otherwise use
# Columns: median and min–max wall time (ms), median CPU time (user+sys, ms), peak RSS (MB).
# Then the ratio lines: validate/simdjson and validate/jq (median wall time; below 1 means
# faster) and peak RSS / file size.
#
# Files: Benchmarks/gen_roadmap.py (deterministic) writes SIZES features (default "200000") and
# a SMALL-feature file (default 10, about 14 KB: the start-up case) into DATA_DIR. With
# GENERATORS="ours shared" (or "shared"), the same sizes also come from ../shared's generator
# ($BENCH_DIR/gen_roadmap.py: more non-ASCII text, and warnings by design, so its files need
# only pass a plain `validate`, not `validate --strict`).
#
#   Benchmarks/validate.sh                      # RUNS=5, the 200k file and the small file
#   INSTALL=1 Benchmarks/validate.sh            # apt-get install jq g++ libsimdjson-dev first
#   SIZES="20000 200000" RUNS=3 Benchmarks/validate.sh
#   GENERATORS="ours shared" BASELINE=/var/tmp/main/release/roadmapctl Benchmarks/validate.sh
#                                               # both generators' files, and a second binary
#                                               # (say main's) timed in the same rounds
#   SCALE=1 Benchmarks/validate.sh              # cost as the work grows: validate of 1k, 10k,
#                                               # 100k and 20k, 200k features, time per 10× growth,
#                                               # then Benchmarks/migrate.sh SCALE=1 (1k vs 10k)
# The binary is the plain `swift build -c release`, as it ships: Package.swift links the Swift
# runtime and Foundation into it and SQLite, libpq, libcrypto and libcurl are loaded on first
# use, so a `validate` of a file maps 4 libraries at start (docs/performance.md, "Start-up").
# The generated files stay in DATA_DIR for the next run (the 200,000-feature one is 275 MB):
# remove it by hand when done.
# Knobs: RUNS (5), DATA_DIR (/tmp/roadmapbridge-bench-data), BENCH_DIR (../shared/bench),
#        ROADMAPCTL (a binary to time instead of building one), MIGRATE=0 (SCALE=1 without the
#        migrate part), GENERATORS (ours), BASELINE (a binary for an extra row).
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-5}
SIZES=${SIZES:-200000}
SMALL=${SMALL:-10}
DATA_DIR=${DATA_DIR:-/tmp/roadmapbridge-bench-data}
BENCH_DIR=${BENCH_DIR:-../shared/bench}
BUILD_DIR=${BUILD_DIR:-$DATA_DIR/build}
mkdir -p "$DATA_DIR" "$BUILD_DIR"

if [ "${INSTALL:-0}" = 1 ]; then
  apt-get update -qq >/dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq jq g++ libsimdjson-dev >/dev/null
fi

if [ -z "${ROADMAPCTL:-}" ]; then
  BUILD=(swift build -c release)
  echo "== ${BUILD[*]} --product roadmapctl" >&2
  "${BUILD[@]}" --product roadmapctl >&2
  ROADMAPCTL=$("${BUILD[@]}" --show-bin-path)/roadmapctl
fi
echo "binary: $ROADMAPCTL"

generate() { # features [generator] -> path of the file (generated once)
  local file="$DATA_DIR/roadmap-$1.json" generator=Benchmarks/gen_roadmap.py check=--strict
  if [ "${2:-ours}" = shared ]; then
    file="$DATA_DIR/roadmap-shared-$1.json" generator="$BENCH_DIR/gen_roadmap.py" check=""
    [ -f "$generator" ] || {
      echo "error: GENERATORS=shared needs $generator (../shared, beside a checkout here;" \
        "a plain clone has only ours: leave GENERATORS unset)" >&2
      exit 1
    }
  fi
  if [ ! -s "$file" ]; then
    echo "== generating $file" >&2
    python3 "$generator" "$1" "$file"
  fi
  "$ROADMAPCTL" validate $check "$file" >/dev/null || {
    echo "error: validate $check fails on $file: the comparison would time error output" >&2
    exit 1
  }
  echo "$file"
}

# The simdjson peer: ../shared's anchor when it is there, else our own check of the same types
# (Benchmarks/lib/simdjson_types.cpp), so a plain clone has the row too.
SIMDJSON=""
ANCHOR="$BENCH_DIR/anchors/simdjson_check.cpp"
[ -f "$ANCHOR" ] || ANCHOR="Benchmarks/lib/simdjson_types.cpp"
if [ ! -f /usr/include/simdjson.h ] || ! command -v g++ >/dev/null; then
  SIMDJSON_NOTE="(simdjson row left out: needs g++ and libsimdjson-dev; INSTALL=1 installs them)"
else
  SIMDJSON="$BUILD_DIR/$(basename "$ANCHOR" .cpp)"
  if [ ! "$SIMDJSON" -nt "$ANCHOR" ]; then
    g++ -O2 -std=c++17 "$ANCHOR" -lsimdjson -o "$SIMDJSON"
  fi
  echo "(simdjson row: $ANCHOR)"
fi
if ! command -v jq >/dev/null; then
  echo "(jq row left out: jq is not installed; INSTALL=1 installs it)"
fi

ratio() { # tsv label-a label-b -> a/b of the median wall time
  awk -F'\t' -v a="$2" -v b="$3" '$1 == a { x = $2 } $1 == b { y = $2 }
    END { if (x != "" && y != "" && y > 0) printf "%.2f", x / y; else printf "n/a" }' "$1"
}

compare() { # file: one table and its ratio lines
  local file=$1 bytes tsv
  bytes=$(stat -c %s "$file")
  tsv=$(mktemp)
  echo
  echo "$(basename "$file"): $(awk -v b="$bytes" 'BEGIN {
    if (b >= 1e6) printf "%.1f MB", b / 1e6; else printf "%.1f KB", b / 1e3 }'), $(
    jq length "$file" 2>/dev/null || echo '?') features; median of $RUNS runs, round-robin"
  echo
  echo "| tool | median ms | min–max ms | CPU ms | peak RSS MB |"
  echo "|---|---:|---:|---:|---:|"
  local rows=("roadmapctl validate" "$ROADMAPCTL validate $file")
  [ -n "${BASELINE:-}" ] && rows+=("baseline validate" "$BASELINE validate $file")
  [ -n "$SIMDJSON" ] && rows+=("simdjson + type checks (C++)" "$SIMDJSON $file")
  command -v jq >/dev/null && rows+=("jq empty" "jq empty $file")
  python3 Benchmarks/measure.py "$RUNS" --tsv "$tsv" "${rows[@]}"
  echo
  [ -n "$SIMDJSON" ] && echo "validate/simdjson: $(ratio "$tsv" "roadmapctl validate" "simdjson + type checks (C++)")"
  [ -n "$SIMDJSON" ] && [ -n "${BASELINE:-}" ] &&
    echo "baseline/simdjson: $(ratio "$tsv" "baseline validate" "simdjson + type checks (C++)")"
  [ -z "$SIMDJSON" ] && echo "validate/simdjson: n/a ${SIMDJSON_NOTE:-}"
  command -v jq >/dev/null && echo "validate/jq: $(ratio "$tsv" "roadmapctl validate" "jq empty")"
  awk -F'\t' -v b="$bytes" '$1 == "roadmapctl validate" {
    printf "peak RSS / file size: %.2f (%.1f MB / %.3f MB)\n", $4 * 1024 / b, $4 * 1024 / 1e6, b / 1e6 }' "$tsv"
  rm -f "$tsv"
}

scale() { # the 10× steps of validate
  echo
  echo "validate: cost as the work grows (median of $RUNS runs; every rule on)"
  echo
  echo "| features | MB | median ms | CPU ms | × the 10× smaller file (time) |"
  echo "|---:|---:|---:|---:|---:|"
  local previous_n="" previous_ms="" tsv n file
  for n in 1000 10000 100000 20000 200000; do
    file=$(generate "$n")
    tsv=$(mktemp)
    python3 Benchmarks/measure.py "$RUNS" --tsv "$tsv" "validate $n" "$ROADMAPCTL validate $file" >/dev/null
    read -r ms cpu < <(awk -F'\t' '{ print $2, $3 }' "$tsv")
    rm -f "$tsv"
    local growth=""
    if [ -n "$previous_n" ] && [ "$n" = $((previous_n * 10)) ]; then
      growth=$(awk -v a="$ms" -v b="$previous_ms" 'BEGIN { printf "%.2f×", a / b }')
    fi
    printf '| %s | %.1f | %.1f | %.1f | %s |\n' "$n" "$(awk -v b="$(stat -c %s "$file")" 'BEGIN { print b / 1e6 }')" \
      "$ms" "$cpu" "$growth"
    previous_n=$n previous_ms=$ms
  done
}

if [ "${SCALE:-0}" = 1 ]; then
  scale
  if [ "${MIGRATE:-1}" != 0 ]; then
    echo
    SCALE=1 ROADMAPCTL="$ROADMAPCTL" Benchmarks/migrate.sh
  fi
  exit 0
fi

[ -n "${BASELINE:-}" ] && echo "baseline: $BASELINE"
for generator in ${GENERATORS:-ours}; do
  for n in $SIZES "$SMALL"; do
    file=$(generate "$n" "$generator") # a failed generation ends the script (set -e)
    compare "$file"
  done
done
