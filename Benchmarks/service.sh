#!/usr/bin/env bash
# Benchmarks/service.sh — `roadmapctl serve` under closed-loop load (wrk), from this repository
# alone; with the peer anchors of ../shared/bench when they are there.
#
#   Benchmarks/service.sh                          # RUNS=3 DURATION=8s, connections 64 and 256
#   RUNS=1 DURATION=5s CONNS=64 Benchmarks/service.sh   # quick iteration
#   PEERS=0 Benchmarks/service.sh                  # only our rows, even where the peers exist
#
# Our rows: GET /get/bench/feature1 and GET /hit/bench/feature1: every hit is a durable SQLite
# commit (WAL, synchronous=FULL, group commit) before its 200. Rate limits are off
# (--read-limit 0 --write-limit 0): wrk is one client address. Needs wrk (Benchmarks/lib/load.sh).
#
# Peers: when ../shared/bench/service_anchors.sh exists (BENCH=... to point elsewhere), the same
# server is measured inside one run of it instead, next to nginx (static GET) and webdis over
# redis (INCR, in memory and appendfsync always); every knob of service_anchors.sh (RUNS,
# DURATION, CONNS, SKIP_ANCHORS, SKIP_SQLITE, ...) passes through. Targets (issue 4): /get >= 50%
# of nginx's req/s, /hit >= webdis over appendfsync always, p99 < 10 ms at 64 connections.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH=${BENCH:-$ROOT/../shared/bench}
PORT=${PORT:-18090}
cd "$ROOT"

swift build -c release --product roadmapctl >&2
BIN="$ROOT/.build/release/roadmapctl"

DATA=$(mktemp -d /var/tmp/rb-bench.XXXXXX)
trap 'rm -rf "$DATA"' EXIT
# /get must answer 200 before timing starts: seed the key with our own import.
NOW=$(($(date +%s) * 1000))
printf '{"version":1,"counters":[{"record":{"id":1,"namespace":"bench","key":"feature1","value":0,"enableReset":false,"updateLowerBound":-1,"updateUpperBound":1,"createdAt":%s,"updatedAt":%s},"voters":[]}]}\n' \
  "$NOW" "$NOW" | "$BIN" votes import - --data-dir "$DATA" >&2

SERVE="$BIN serve --host 127.0.0.1 --port $PORT --data-dir $DATA --read-limit 0 --write-limit 0"
if [ "${PEERS:-1}" != 0 ] && [ -x "$BENCH/service_anchors.sh" ]; then
  OURS_START="$SERVE" \
  OURS_URL_GET="http://127.0.0.1:$PORT/get/bench/feature1" \
  OURS_URL_HIT="http://127.0.0.1:$PORT/hit/bench/feature1" \
  OURS_LABEL="${OURS_LABEL:-roadmapctl}" \
    "$BENCH/service_anchors.sh"
  exit
fi

# Our rows alone (a clone, or PEERS=0).
. "$ROOT/Benchmarks/lib/load.sh"
load_require
$SERVE > "$DATA/serve.log" 2>&1 &
SERVER=$!
trap 'kill -TERM $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; rm -rf "$DATA"' EXIT
load_wait "http://127.0.0.1:$PORT/get/bench/feature1"
echo "roadmapctl serve, loopback, wrk -t$THREADS -d$DURATION, median of $RUNS rounds"
echo
load_header
load_rows '`roadmapctl` `/get`' "http://127.0.0.1:$PORT/get/bench/feature1"
load_rows '`roadmapctl` `/hit` (durable)' "http://127.0.0.1:$PORT/hit/bench/feature1"
if [ "${PEERS:-1}" != 0 ]; then
  echo
  echo "(no peer anchors: $BENCH/service_anchors.sh is not here; see docs/serving.md for a run with them)"
fi
