#!/usr/bin/env bash
# Benchmark: `roadmapctl validate` (every rule on) side by side with the peers of
# ../shared/bench/validate_anchors.sh (jq empty, python json.load, check-jsonschema, ...).
#
# The peer scripts live OUTSIDE this package, at ../shared/bench relative to the package root
# (override with BENCH_DIR=...). This script:
#   1. builds roadmapctl with `swift build -c release`;
#   2. generates 20,000- and 200,000-feature Roadmap JSON files with ../shared/bench/gen_roadmap.py
#      (deterministic seed) into $DATA_DIR (default /tmp/roadmap-bench-data), unless already there;
#   3. runs ../shared/bench/validate_anchors.sh with OURS set to our validate and prints its table.
#
# Usage: Benchmarks/validate.sh [extra files...]
# Knobs (passed through to validate_anchors.sh): RUNS, WARMUP, RSS_RUNS, EXTRAS=0,
# ONLY="jq empty,validate" (only rows whose label contains one of these).
set -euo pipefail
cd "$(dirname "$0")/.."

BENCH_DIR=${BENCH_DIR:-../shared/bench}
DATA_DIR=${DATA_DIR:-/tmp/roadmap-bench-data}
if [ ! -x "$BENCH_DIR/validate_anchors.sh" ]; then
  echo "error: $BENCH_DIR/validate_anchors.sh not found (set BENCH_DIR)" >&2
  exit 1
fi

echo "== swift build -c release --product roadmapctl" >&2
swift build -c release --product roadmapctl >&2
BIN=$(swift build -c release --show-bin-path)/roadmapctl

mkdir -p "$DATA_DIR"
for n in 20000 200000; do
  file="$DATA_DIR/roadmap-$n.json"
  if [ ! -s "$file" ]; then
    echo "== generating $file" >&2
    python3 "$BENCH_DIR/gen_roadmap.py" "$n" "$file"
  fi
done

# The generated files must pass (exit 0), or the comparison means nothing.
for n in 20000 200000; do
  "$BIN" validate "$DATA_DIR/roadmap-$n.json" >/dev/null
done

OURS="$BIN validate {}" OURS_LABEL="roadmapctl validate" \
  "$BENCH_DIR/validate_anchors.sh" "$DATA_DIR/roadmap-20000.json" "$DATA_DIR/roadmap-200000.json" "$@"
