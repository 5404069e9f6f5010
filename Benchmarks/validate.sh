#!/usr/bin/env bash
# Benchmark: `roadmapctl validate` (every rule on) side by side with other ways to read the same
# files: `jq empty` and Python's json.load (the plain parsers a CI job would otherwise use).
#
# Everything it needs is in this repository (a clone works):
#   1. builds roadmapctl with `swift build -c release`;
#   2. generates 20,000- and 200,000-feature Roadmap JSON files with Benchmarks/gen_roadmap.py
#      (deterministic) into $DATA_DIR (default /tmp/roadmapbridge-bench-data), unless already there,
#      and checks that `validate --strict` passes on them (else the comparison means nothing);
#   3. times each row RUNS times with Benchmarks/measure.py: median and min–max wall time in ms,
#      peak RSS in MB. Rows whose tool is not installed (jq) are left out, with a note.
#   4. Peer comparisons: when ../shared/bench/validate_anchors.sh exists next to the package (or
#      BENCH_DIR=... points at it), it is also run with our validate as its OURS row, adding its
#      anchors (check-jsonschema, JSONDecoder of the upstream model, simdjson, ...). PEERS=0 skips.
#
# Usage: Benchmarks/validate.sh            # RUNS=5, both sizes
#        RUNS=3 SIZES=20000 Benchmarks/validate.sh
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-5}
SIZES=${SIZES:-"20000 200000"}
DATA_DIR=${DATA_DIR:-/tmp/roadmapbridge-bench-data}
BENCH_DIR=${BENCH_DIR:-../shared/bench}
PEERS=${PEERS:-1}

echo "== swift build -c release --product roadmapctl" >&2
swift build -c release --product roadmapctl >&2
BIN=$(swift build -c release --show-bin-path)/roadmapctl

mkdir -p "$DATA_DIR"
files=()
for n in $SIZES; do
  file="$DATA_DIR/roadmap-$n.json"
  if [ ! -s "$file" ]; then
    echo "== generating $file" >&2
    python3 Benchmarks/gen_roadmap.py "$n" "$file"
  fi
  "$BIN" validate --strict "$file" >/dev/null
  files+=("$file")
done

for file in "${files[@]}"; do
  echo
  echo "$(basename "$file"): $(du -h "$file" | cut -f1), median of $RUNS runs"
  echo
  echo "| tool | median ms | min–max ms | peak RSS MB |"
  echo "|---|---:|---:|---:|"
  python3 Benchmarks/measure.py "roadmapctl validate (every rule)" "$RUNS" -- "$BIN" validate "$file"
  python3 Benchmarks/measure.py "roadmapctl validate --compatible" "$RUNS" -- \
    "$BIN" validate --compatible "$file"
  if command -v jq >/dev/null; then
    python3 Benchmarks/measure.py "jq empty (syntax only)" "$RUNS" -- jq empty "$file"
  else
    echo "| jq empty | (jq not installed) | | |"
  fi
  python3 Benchmarks/measure.py "python3 json.load (syntax only)" "$RUNS" -- \
    python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$file"
done

if [ "$PEERS" != 0 ] && [ -x "$BENCH_DIR/validate_anchors.sh" ]; then
  echo
  echo "== peer anchors: $BENCH_DIR/validate_anchors.sh" >&2
  OURS="$BIN validate {}" OURS_LABEL="roadmapctl validate" \
    "$BENCH_DIR/validate_anchors.sh" "${files[@]}"
elif [ "$PEERS" != 0 ]; then
  echo
  echo "(no peer anchors: $BENCH_DIR/validate_anchors.sh is not here; the rows above are complete)"
fi
