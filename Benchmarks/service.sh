#!/usr/bin/env bash
# Benchmarks/service.sh — `roadmapctl serve` side by side with nginx (static GET) and webdis over
# redis (INCR, in memory and appendfsync always), in one run of ../shared/bench/service_anchors.sh.
#
#   Benchmarks/service.sh                          # RUNS=3 DURATION=8s, connections 64 and 256
#   RUNS=1 DURATION=5s CONNS=64 Benchmarks/service.sh   # quick iteration
#   SKIP_ANCHORS=1 Benchmarks/service.sh           # only our rows
#
# Our rows: GET /get/bench/feature1 (timed like nginx) and GET /hit/bench/feature1 (timed like the
# webdis INCR rows): every hit is a durable SQLite commit (WAL, synchronous=FULL, group commit)
# before its 200. Rate limits are off (--read-limit 0 --write-limit 0): wrk is one client address.
# Targets (issue 4): /get >= 50% of nginx's req/s, /hit >= webdis over appendfsync always,
# p99 < 10 ms at 64 connections. Every knob of service_anchors.sh (RUNS, DURATION, CONNS, ...)
# passes through.
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

OURS_START="$BIN serve --host 127.0.0.1 --port $PORT --data-dir $DATA --read-limit 0 --write-limit 0" \
OURS_URL_GET="http://127.0.0.1:$PORT/get/bench/feature1" \
OURS_URL_HIT="http://127.0.0.1:$PORT/hit/bench/feature1" \
OURS_LABEL="${OURS_LABEL:-roadmapctl}" \
  "$BENCH/service_anchors.sh"
