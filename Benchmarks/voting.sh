#!/usr/bin/env bash
# Benchmarks/voting.sh — loading the vote counts of a whole board, in one run, two ways:
#
#   batch      roadmapctl's batch route: GET /counts/NS?keys=… (one request per 500 features)
#   per-row    one GET /get/NS/featureID per feature, what the Roadmap package does (its view
#              model fetches every row); CountingAPIVoter runs them six at a time
#
# Both go through the same client code (`roadmapctl show --votes-from URL`, i.e.
# FeatureVoting's CountingAPIVoter over URLSession) against one `roadmapctl serve` (release
# build, SQLite store seeded with FEATURES counters, rate limits off). The server's access log
# counts the requests each load made. "show" is the wall time of the whole `show` process
# (median and fastest of RUNS); "load" is that minus the same for `show` without --votes-from
# (process start, reading the board), i.e. the time spent getting the counts. The runs of the
# three modes are interleaved, so machine noise hits them alike.
#
#   Benchmarks/voting.sh                  # FEATURES=200 RUNS=21
#   FEATURES=1000 RUNS=3 Benchmarks/voting.sh
#   ROADMAPCTL=/path/to/roadmapctl Benchmarks/voting.sh   # that binary, not a fresh release build
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FEATURES=${FEATURES:-200}
RUNS=${RUNS:-21}
cd "$ROOT"

if [ -n "${ROADMAPCTL:-}" ]; then
  BIN=$ROADMAPCTL # a binary built elsewhere (an older commit, to compare)
else
  swift build -c release --product roadmapctl >&2
  BIN="$ROOT/.build/release/roadmapctl"
fi

WORK=$(mktemp -d /var/tmp/rb-voting-bench.XXXXXX)
SERVER_PID=
cleanup() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# A board of FEATURES features and a store where feature i has i votes.
NOW=$(($(date +%s) * 1000))
{
  printf '['
  for ((i = 0; i < FEATURES; i++)); do
    [ "$i" -gt 0 ] && printf ','
    printf '{"id":"%d","title":"Feature %d","status":"planned"}' "$i" "$i"
  done
  printf ']\n'
} > "$WORK/board.json"
{
  printf '{"version":1,"counters":['
  for ((i = 0; i < FEATURES; i++)); do
    [ "$i" -gt 0 ] && printf ','
    printf '{"record":{"id":%d,"namespace":"bench","key":"feature%d","value":%d,"enableReset":false,"updateLowerBound":-1,"updateUpperBound":1,"createdAt":%s,"updatedAt":%s},"voters":[]}' \
      "$((i + 1))" "$i" "$i" "$NOW" "$NOW"
  done
  printf ']}\n'
} | "$BIN" votes import - --data-dir "$WORK/data" >&2

"$BIN" serve --host 127.0.0.1 --port 0 --data-dir "$WORK/data" --read-limit 0 --write-limit 0 \
  --access-log > "$WORK/serve.out" 2> "$WORK/serve.log" &
SERVER_PID=$!
for _ in $(seq 1 100); do
  grep -q 'Serving on' "$WORK/serve.out" 2>/dev/null && break
  sleep 0.1
done
URL=$(grep -o 'http://[0-9.:]*' "$WORK/serve.out" || true)
if [ -z "$URL" ]; then
  echo "voting.sh: roadmapctl serve did not start:" >&2
  tail -5 "$WORK/serve.out" "$WORK/serve.log" >&2
  exit 1
fi

now_ns() { date +%s%N; }
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# once MODE ARGS...: appends the elapsed milliseconds of one run to $WORK/times.MODE and its
# request count (access-log lines) to $WORK/requests.MODE.
once() {
  local mode=$1
  shift
  local before after start end
  before=$(wc -l < "$WORK/serve.log")
  start=$(now_ns)
  "$BIN" show "$WORK/board.json" --format json "$@" > "$WORK/out.$mode"
  end=$(now_ns)
  after=$(wc -l < "$WORK/serve.log")
  echo $(((end - start) / 1000000)) >> "$WORK/times.$mode"
  echo $((after - before)) > "$WORK/requests.$mode"
}

# The counts must be right before any figure means anything.
check() {
  local got
  got=$(grep -o '"votes":[0-9]*' "$WORK/out.$1" | awk -F: '{ s += $2 } END { print s }')
  local want=$((FEATURES * (FEATURES - 1) / 2))
  if [ "$got" != "$want" ]; then
    echo "voting.sh: $1 read a vote total of $got, expected $want" >&2
    exit 1
  fi
}

for ((r = 0; r < RUNS; r++)); do
  once none
  once batch --votes-from "$URL" --namespace bench --dialect roadmapctl
  check batch
  once per-row --votes-from "$URL" --namespace bench --dialect countapi
  check per-row
done

fastest() { sort -n "$WORK/times.$1" | head -1; }
middle() { median < "$WORK/times.$1"; }
BASE_MED=$(middle none)
BASE_MIN=$(fastest none)

echo
echo "Loading the counts of a $FEATURES-feature board ($RUNS runs each, $(nproc) cores):"
printf '%-8s %9s %17s %17s\n' mode requests "show ms med/min" "load ms med/min"
for mode in none batch per-row; do
  printf '%-8s %9s %17s %17s\n' "$mode" "$(cat "$WORK/requests.$mode")" \
    "$(middle "$mode")/$(fastest "$mode")" \
    "$(($(middle "$mode") - BASE_MED))/$(($(fastest "$mode") - BASE_MIN))"
done
