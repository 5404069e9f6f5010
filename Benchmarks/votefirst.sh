#!/usr/bin/env bash
# Benchmarks/votefirst.sh — the VoteFirst board API of `roadmapctl serve` under closed-loop load
# (wrk), in the same run as the countapi routes it shares its counters with.
#
#   Benchmarks/votefirst.sh                         # RUNS=3 DURATION=8s CONNS="64"
#   RUNS=1 DURATION=5s Benchmarks/votefirst.sh      # quick iteration
#
# Rows (one server, SQLite in a fresh data directory, rate limits off: wrk is one address):
#   GET  /api/v1/bench/board               the board (settings, stages, tags, boards)
#   GET  /api/v1/bench/features?limit=20   the first page of a 200-feature board, top order
#   POST /api/v1/bench/features/1/vote     a new X-Voter-ID every request: a durable vote each
#   GET  /get/bench/feature1               countapi read of the same counter
#   GET  /hit/bench/feature1               countapi anonymous vote on the same counter
#   GET  /hit/bench/feature2 + X-Voter-ID  countapi identified vote, a new voter every request
# Needs wrk (apt-get install -y wrk), curl and python3. Knobs of Benchmarks/lib/load.sh pass
# through; PORT (18095); ROADMAPCTL=path times that binary instead of building
# .build/release/roadmapctl (`swift build -c release --product roadmapctl`).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PORT=${PORT:-18095}
CONNS=${CONNS:-64}
TOKEN=bench-token
cd "$ROOT"
. "$ROOT/Benchmarks/lib/load.sh"
load_require

if [ -n "${ROADMAPCTL:-}" ]; then
  BIN=$ROADMAPCTL # a binary built elsewhere (an older commit, to compare)
else
  swift build -c release --product roadmapctl >&2
  BIN="$ROOT/.build/release/roadmapctl"
fi
if curl -s -o /dev/null "http://127.0.0.1:$PORT/"; then
  echo "error: port $PORT is in use; stop that first or pick PORT=..." >&2
  exit 1
fi
DATA=$(mktemp -d /var/tmp/rb-vf-bench.XXXXXX)
$BIN serve --host 127.0.0.1 --port "$PORT" --data-dir "$DATA" --admin-token "$TOKEN" \
  --read-limit 0 --write-limit 0 > "$DATA/serve.log" 2>&1 &
SERVER=$!
trap 'kill -TERM $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; rm -rf "$DATA"' EXIT
load_wait "http://127.0.0.1:$PORT/healthz"

API="http://127.0.0.1:$PORT/api/v1/bench"
admin() { curl -fsS -X "$1" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
  --data-binary "$3" "$API$2" > /dev/null; }
admin PUT /settings '{"name":"Bench","theme":{"accent":"#36f","radius":"8px"}}'
admin POST /stages '{"name":"Planned","position":0}'
admin POST /stages '{"name":"Done","position":1,"isFinished":true}'
admin POST /tags '{"name":"iOS"}'
FEATURES=$(python3 -c 'import json; print(json.dumps({"features": [
  {"ref": str(n), "title": "Feature %d" % n, "description": "Something to build, number %d" % n,
   "stage": 1, "tags": [1] if n % 2 else [], "comments": n % 7, "importedVotes": n % 50}
  for n in range(1, 201)]}))')
admin POST /features/batch "$FEATURES"
curl -fsS -o /dev/null "http://127.0.0.1:$PORT/hit/bench/feature2"

LUA=$(mktemp -d /tmp/rb-vf-lua.XXXXXX)
trap 'kill -TERM $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; rm -rf "$DATA" "$LUA"' EXIT
# A new voter id on every request, unique across rounds; METHOD is the request's method.
script() { # name method voter(0|1)
  cat > "$LUA/$1.lua" <<LUA
wrk.method = "$2"
local n = 0
local prefix = tostring(os.time()) .. "-" .. tostring(math.random(1, 1000000000)) .. "-"
request = function()
  n = n + 1
  if $3 == 1 then
    return wrk.format(nil, nil, { ["X-Voter-ID"] = "v" .. prefix .. n })
  end
  return wrk.format(nil, nil)
end
LUA
}
script get GET 0
script vote POST 1
script voter GET 1

rows() { # label script url
  local label=$1 lua=$2 url=$3 c i
  for c in $CONNS; do
    local rounds=()
    for ((i = 1; i <= RUNS; i++)); do
      rounds+=("$(wrk -t"$THREADS" -c"$c" -d"$DURATION" --latency -s "$LUA/$lua.lua" "$url" \
        | awk '
        function ms(v) {
          if (v ~ /us$/) return substr(v, 1, length(v) - 2) / 1000
          if (v ~ /ms$/) return substr(v, 1, length(v) - 2) + 0
          if (v ~ /s$/) return substr(v, 1, length(v) - 1) * 1000
          return v + 0
        }
        /Requests\/sec/ { rps = $2 } /^ +50%/ { p50 = ms($2) } /^ +99%/ { p99 = ms($2) }
        /Non-2xx or 3xx responses/ { bad = $NF }
        END { if (bad > 0) { print "error: " bad " answers were not 2xx" > "/dev/stderr"; exit 1 }
              printf "%s %.2f %.2f\n", rps, p50, p99 }')")
    done
    printf '%s\n' "${rounds[@]}" | sort -n -k1 | awk -v label="$label" -v c="$c" '
      { rps[NR] = $1; p50[NR] = $2; p99[NR] = $3 }
      END { m = int((NR + 1) / 2)
            printf "| %s | %s | %.0f | %.0f–%.0f | %.1f | %.1f |\n", label, c, rps[m], rps[1], rps[NR], p50[m], p99[m] }'
  done
}

echo "roadmapctl serve (release), loopback, wrk -t$THREADS -d$DURATION, median of $RUNS rounds;"
echo "every vote row is a durable SQLite commit (WAL, synchronous=FULL, group commit) before its answer"
echo
load_header
rows 'VoteFirst `GET /board`' get "$API/board"
rows 'VoteFirst `GET /features?limit=20` (200 features)' get "$API/features?limit=20"
rows 'VoteFirst `POST /features/1/vote` (new voter each)' vote "$API/features/1/vote"
rows 'countapi `GET /get` (same counter)' get "http://127.0.0.1:$PORT/get/bench/feature1"
rows 'countapi `GET /hit` (anonymous)' get "http://127.0.0.1:$PORT/hit/bench/feature1"
rows 'countapi `GET /hit` (new voter each)' voter "http://127.0.0.1:$PORT/hit/bench/feature2"
echo
echo "feature1 after the run: $(curl -fsS "http://127.0.0.1:$PORT/get/bench/feature1")" \
  "(API votes and /hit votes on one counter)"
