#!/usr/bin/env bash
# backup.sh — peak memory and time of `roadmapctl backup` against `votes export` of the same
# store (the streamed export it is measured against), and of `restore` and `votes import`, for a
# store of N counters (default 200,000) made here with `votes import`.
#
# Knobs: N (200000) · ROADMAPCTL (default: .build/release/roadmapctl, built when it is not
#        there) · DIR (default: a temporary directory, removed at exit)
# Needs python3 and GNU time (/usr/bin/time, Debian's `time`).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
N=${N:-200000}
BIN=${ROADMAPCTL:-$ROOT/.build/release/roadmapctl}
if [ -z "${ROADMAPCTL:-}" ] && [ ! -x "$BIN" ]; then
  (cd "$ROOT" && swift build -c release --product roadmapctl) >&2
fi
[ -x "$BIN" ] || { echo "no roadmapctl at $BIN" >&2; exit 1; }
command -v /usr/bin/time >/dev/null || {
  echo "error: /usr/bin/time is needed for the peak memory (apt-get install time)" >&2
  exit 1
}
if [ -n "${DIR:-}" ]; then W=$DIR; mkdir -p "$W"; OWN=0; else W=$(mktemp -d); OWN=1; fi
cleanup() { [ "$OWN" = 1 ] && rm -rf "$W"; return 0; }
trap cleanup EXIT INT TERM

# A version-2 export of N counters without voter ids (so any store takes it).
python3 - "$N" > "$W/counters.json" <<'PY'
import json, sys
n = int(sys.argv[1])
counters = [{"record": {"createdAt": 1796400000000, "enableReset": False, "id": i + 1,
  "key": "feature-%07d" % i, "namespace": "app.example", "updateLowerBound": -1,
  "updateUpperBound": 1, "updatedAt": 1796400000000, "value": i % 97}, "voters": []}
  for i in range(n)]
json.dump({"counters": counters, "version": 2, "voterKey": "0000000000000000"}, sys.stdout)
PY

# measure NAME COMMAND...: prints NAME, wall seconds and peak resident memory.
measure() {
  local name=$1; shift
  /usr/bin/time -f "%e %M" -o "$W/time" "$@" >/dev/null 2>"$W/err" || { cat "$W/err" >&2; exit 1; }
  awk -v name="$name" '{ printf "%-14s %8s s %10.1f MB\n", name, $1, $2 / 1024 }' "$W/time"
}
echo "$N counters, $("$BIN" --version 2>/dev/null || echo roadmapctl)"
measure "votes import" "$BIN" votes import "$W/counters.json" --data-dir "$W/store"
measure "votes export" "$BIN" votes export --data-dir "$W/store" -o "$W/export.json"
measure "backup" "$BIN" backup --data-dir "$W/store" -o "$W/backup.json"
measure "restore" "$BIN" restore "$W/backup.json" --data-dir "$W/restored"
ls -l "$W/export.json" "$W/backup.json" | awk '{printf "%-14s %10.1f MB\n", $NF, $5 / 1048576}' |
  sed "s#$W/##"
