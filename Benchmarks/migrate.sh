#!/usr/bin/env bash
# Migrating a generated roadmap (10,000 features by default) with its votes from a
# countapi-dialect server (our own `roadmapctl serve`, which speaks countapi) to a VoteFirst
# board (`roadmapctl serve` too): requests made and time taken, for the first run, a rerun
# that changes nothing, and the same migration reading the votes through our batch route.
# Beside it, the peer: reading the same counts the way the Roadmap package does, one
# sequential GET per feature (python3 urllib), and `votes pull` (counts only, no board).
#
#   Benchmarks/migrate.sh                  # N=10000, .build/release/roadmapctl (built if missing)
#   N=2000 ROADMAPCTL=.build/debug/roadmapctl Benchmarks/migrate.sh
#   SCALE=1 Benchmarks/migrate.sh          # cost as the work grows: the first migration of 1,000
#                                          # and of 10,000 features (each against fresh servers),
#                                          # seconds, requests and the time ratio per 10× growth
#
# Everything runs on 127.0.0.1 in a temporary directory, removed at exit with both servers.
# Requests are counted from the servers' access logs (one line per request).
set -euo pipefail

N=${N:-10000}
ROADMAPCTL=${ROADMAPCTL:-.build/release/roadmapctl}
if [[ ! -x $ROADMAPCTL ]]; then
  swift build -c release --product roadmapctl >&2
fi
ROADMAPCTL=$(cd "$(dirname "$ROADMAPCTL")" && pwd)/$(basename "$ROADMAPCTL")

if [[ ${SCALE:-0} == 1 ]]; then
  echo "migrate: cost as the work grows (first run into a fresh board, votes via countapi)"
  echo
  echo "| features | seconds | requests | × the 10× smaller roadmap (time) |"
  echo "|---:|---:|---:|---:|"
  previous=""
  for n in ${SCALE_SIZES:-1000 10000}; do
    line=$(SCALE=0 MIGRATE_ONLY=1 N=$n ROADMAPCTL=$ROADMAPCTL "$0" | grep '^migrate, first run')
    seconds=$(awk '{ print $(NF - 1) }' <<<"$line")
    made=$(awk '{ print $NF }' <<<"$line")
    growth=""
    [[ -n $previous ]] && growth=$(awk -v a="$seconds" -v b="$previous" 'BEGIN { printf "%.2f×", a / b }')
    echo "| $n | $seconds | $made | $growth |"
    previous=$seconds
  done
  exit 0
fi
WORK=$(mktemp -d)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  [[ -n ${KEEP:-} ]] && echo "kept $WORK" >&2 || rm -rf "$WORK"
}
trap cleanup EXIT
TOKEN=bench-token

# The roadmap and the old counts (every third feature has votes), deterministic.
python3 - "$N" "$WORK" <<'PY'
import json, sys
n, work = int(sys.argv[1]), sys.argv[2]
statuses = ["planned", "in-progress", "Available ", "?", "finished"]
features, counters = [], []
for i in range(1, n + 1):
    status = statuses[i % len(statuses)]
    feature = {"id": str(i), "title": f"Feature {i}", "status": status,
               "description": f"What feature {i} does, in a sentence or two." * 2,
               "localizedTitle": [{"language": "de", "value": f"Funktion {i}"}],
               "url": f"https://example.com/features/{i}"}
    if status == "finished" or i % 7 == 0:
        feature["isFinished"] = True
    features.append(feature)
    if i % 3 == 0:
        counters.append({"record": {"id": len(counters) + 1, "namespace": "old-app",
                                    "key": f"feature{i}", "value": i % 50 + 1,
                                    "createdAt": 0, "updatedAt": 0, "enableReset": False,
                                    "updateLowerBound": -1, "updateUpperBound": 1},
                         "voters": []})
json.dump(features, open(f"{work}/roadmap.json", "w"), indent=1)
json.dump({"version": 1, "counters": counters}, open(f"{work}/counts.json", "w"))
PY
"$ROADMAPCTL" votes import "$WORK/counts.json" --data-dir "$WORK/old" >/dev/null 2>&1 \
  || "$ROADMAPCTL" votes import --data-dir "$WORK/old" < "$WORK/counts.json" >/dev/null

start_server() { # name data-dir -> sets URL_<name>
  local name=$1 dir=$2
  "$ROADMAPCTL" serve --port 0 --data-dir "$dir" --admin-token "$TOKEN" --read-limit 0 \
    --write-limit 0 --access-log >"$WORK/$name.out" 2>"$WORK/$name.log" &
  PIDS+=($!)
  for _ in $(seq 1 300); do
    grep -q 'Serving on http://' "$WORK/$name.out" 2>/dev/null && break
    sleep 0.1
  done
  local url
  url=$(grep -o 'http://[0-9.]*:[0-9]*' "$WORK/$name.out" | head -1)
  printf -v "URL_$name" '%s' "$url"
}
requests() { grep -cE '^[0-9a-f.:]+ [A-Z]+ /' "$WORK/$1.log" 2>/dev/null || true; }

start_server old "$WORK/old"
start_server board "$WORK/board"

now() { python3 -c 'import time; print(time.monotonic())'; }
row() { printf '%-58s %10s %10s\n' "$1" "$2" "$3"; }
measure() { # label command... : prints seconds and requests to both servers
  local label=$1; shift
  local before_old before_board t0 t1
  before_old=$(requests old); before_board=$(requests board)
  t0=$(now)
  "$@" >"$WORK/last.out" 2>"$WORK/last.err" || { echo "failed: $label" >&2; tail -5 "$WORK/last.err" >&2; return 1; }
  t1=$(now)
  local made=$(( $(requests old) - before_old + $(requests board) - before_board ))
  row "$label" "$(python3 -c "print(f'{$t1-$t0:.2f}')")" "$made"
}

echo "roadmap: $N features; $(python3 -c "import json;print(len(json.load(open('$WORK/counts.json'))['counters']))") counters in the old namespace; binary: $ROADMAPCTL"
row "what" "seconds" "requests"
if [[ -z ${MIGRATE_ONLY:-} ]]; then
measure "peer: one sequential GET /get per feature (python urllib)" \
  python3 - "$URL_old" "$N" <<'PY'
import sys, urllib.request, urllib.error
base, n = sys.argv[1], int(sys.argv[2])
for i in range(1, n + 1):
    try:
        urllib.request.urlopen(f"{base}/get/old-app/feature{i}").read()
    except urllib.error.HTTPError as e:
        e.read()
PY
measure "votes pull --dry-run (countapi, 16 in flight)" \
  "$ROADMAPCTL" votes pull "$WORK/roadmap.json" --from "$URL_old" --dialect countapi \
  --namespace old-app --server "$URL_board" --project bench-app --key "$TOKEN" --dry-run
fi
if measure "migrate, first run (votes via countapi)" \
  "$ROADMAPCTL" migrate "$WORK/roadmap.json" --server "$URL_board" --project bench-app \
  --key "$TOKEN" --votes-from "$URL_old" --dialect countapi --namespace old-app; then
  [[ -n ${MIGRATE_ONLY:-} ]] && exit 0
  measure "migrate, rerun: nothing changes (votes via countapi)" \
    "$ROADMAPCTL" migrate "$WORK/roadmap.json" --server "$URL_board" --project bench-app \
    --key "$TOKEN" --votes-from "$URL_old" --dialect countapi --namespace old-app
  tail -1 "$WORK/last.out"
  measure "migrate into a new project (votes via our batch route)" \
    "$ROADMAPCTL" migrate "$WORK/roadmap.json" --server "$URL_board" --project bench-app-2 \
    --key "$TOKEN" --votes-from "$URL_old" --dialect ours --namespace old-app
else
  echo "(migrate needs the board API of roadmapctl serve: GET /api/v1/PROJECT/export)"
fi
