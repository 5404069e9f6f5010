# Benchmarks/lib/load.sh — closed-loop HTTP load with wrk, for service.sh and http.sh.
# Source it, then:
#   load_header                        # the table header
#   load_rows LABEL URL                # one row per connection count in $CONNS:
#                                      # median req/s of $RUNS rounds of wrk -t$THREADS -d$DURATION,
#                                      # min–max req/s, and p50/p99 latency (ms) of the median round
# Knobs: RUNS (3), DURATION (8s), CONNS ("64 256"), THREADS (1).
# Needs wrk (apt-get install wrk, brew install wrk).

RUNS=${RUNS:-3}; DURATION=${DURATION:-8s}; CONNS=${CONNS:-"64 256"}; THREADS=${THREADS:-1}

load_require() {
  if ! command -v wrk >/dev/null; then
    echo "error: wrk is needed for the load rows (apt-get install wrk, or brew install wrk)" >&2
    exit 1
  fi
}

# One wrk round: prints "requests_per_second p50_ms p99_ms".
load_round() { # conns url
  wrk -t"$THREADS" -c"$1" -d"$DURATION" --latency "$2" | awk '
    function ms(v) {
      if (v ~ /us$/) return substr(v, 1, length(v) - 2) / 1000
      if (v ~ /ms$/) return substr(v, 1, length(v) - 2) + 0
      if (v ~ /s$/) return substr(v, 1, length(v) - 1) * 1000
      return v + 0
    }
    /Requests\/sec/ { rps = $2 }
    /^ +50%/ { p50 = ms($2) }
    /^ +99%/ { p99 = ms($2) }
    /Non-2xx or 3xx responses/ { bad = $NF }
    END {
      if (bad > 0) { print "error: " bad " answers were not 2xx" > "/dev/stderr"; exit 1 }
      printf "%s %.2f %.2f\n", rps, p50, p99
    }'
}

load_header() {
  echo "| target | conns | req/s (median) | min–max req/s | p50 ms | p99 ms |"
  echo "|---|---:|---:|---:|---:|---:|"
}

load_rows() { # label url
  local label=$1 url=$2 c i
  for c in $CONNS; do
    local rounds=()
    for ((i = 1; i <= RUNS; i++)); do rounds+=("$(load_round "$c" "$url")"); done
    printf '%s\n' "${rounds[@]}" | sort -n -k1 | awk -v label="$label" -v c="$c" '
      { rps[NR] = $1; p50[NR] = $2; p99[NR] = $3 }
      END {
        m = int((NR + 1) / 2)
        printf "| %s | %s | %.0f | %.0f–%.0f | %.1f | %.1f |\n", label, c, rps[m], rps[1], rps[NR], p50[m], p99[m]
      }'
  done
}

# Waits until URL answers 2xx (up to 30 s).
load_wait() { # url
  local i
  for ((i = 0; i < 300; i++)); do curl -fsS -o /dev/null "$1" 2>/dev/null && return 0; sleep 0.1; done
  echo "error: $1 does not answer" >&2
  return 1
}
