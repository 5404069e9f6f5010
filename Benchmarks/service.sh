#!/usr/bin/env bash
# Benchmarks/service.sh: `roadmapctl serve` side by side with the servers a user would pick
# instead, in one run, from this repository alone.
#
#   INSTALL=1 Benchmarks/service.sh        # first run: apt-get wrk nginx-light redis-server webdis
#   Benchmarks/service.sh                  # RUNS=3 DURATION=4s
#   RUNS=1 DURATION=2s ROWS="get idle" Benchmarks/service.sh   # quick iteration
#
# Rows (ROWS, default "get hit scale idle"):
#   get    nginx (1 worker, keep-alive, access_log off) serving the static file {"value":42} at
#          /get/ns/feature1, against ours: GET /get/bench/feature1 (countapi's names need 3 to 64
#          characters, so our namespace is "bench"), from a store of COUNTERS counters.
#   hit    webdis over redis with appendonly yes + appendfsync always (GET /INCR/ns:feature1),
#          against ours: GET /hit/bench/feature1, an anonymous vote, durable before its answer.
#   scale  ours /get again, from a second server whose namespace holds 10 x COUNTERS counters.
#   idle   RSS of a fresh `roadmapctl serve` (a store of COUNTERS counters) with 0, 1,000 and
#          10,000 (IDLE) idle connections open: once after each sent one request and read its
#          answer, once never sending a byte.
#          The connections come PER_ADDRESS (1000, the server's default per-address limit) to
#          a source address, 127.1.0.1, 127.1.0.2, ...; the server's defaults are untouched
#          (10,000 connections at most).
# Every wrk row is `wrk -tTHREADS -cCONNS -dDURATION`, RUNS rounds round-robin over the rows so
# drift hits all alike; the table shows the median round, the min-max of req/s, and the
# server's CPU per request (utime + stime of its processes from /proc, before and after each
# round: nginx master and worker; webdis and redis; roadmapctl), wrk's own CPU per request
# (bash's `time`), and the share of all the CPUs left idle during the round (/proc/stat). With
# the hit row, the run also prints the most that the CPUs could carry if they did nothing but
# wrk's work and ours (cores ÷ the two CPU times per request), next to 1.5× webdis.
#
# The run also prints what the shared machine gave it: with the hit row, a 4 KiB pwrite +
# fdatasync's time on the stores' disk before and after the rounds (both durable rows wait for
# it), and the share of CPU time the host stole from this machine (steal in /proc/stat), over
# all the rounds and for each round on stderr.
# Knobs: RUNS (3), DURATION (4s), CONNS (64), THREADS (1), ROWS, COUNTERS (10000), IDLE
# ("0 1000 10000"), PER_ADDRESS (1000), SETTLE (1, seconds before RSS is read), INSTALL (0),
# KEEP=1 (keep the work dir), ROADMAPCTL=path (measure that binary instead of building one),
# PORT_BASE (18380: ports PORT_BASE..PORT_BASE+5 on 127.0.0.1).
# Servers bind 127.0.0.1 only and are all stopped by a trap at exit; the work dir is a mktemp
# dir under /var/tmp. Needs bash, curl, cc, awk, and what the rows use (wrk, nginx,
# redis-server, webdis); INSTALL=1 installs the missing ones from Debian's packages.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNS=${RUNS:-3}; DURATION=${DURATION:-4s}; CONNS=${CONNS:-64}; THREADS=${THREADS:-1}
ROWS=${ROWS:-"get hit scale idle"}; COUNTERS=${COUNTERS:-10000}; IDLE=${IDLE:-"0 1000 10000"}
export PER_ADDRESS=${PER_ADDRESS:-1000}
PORT_BASE=${PORT_BASE:-18380}
P_NGINX=$PORT_BASE P_REDIS=$((PORT_BASE + 1)) P_WEBDIS=$((PORT_BASE + 2))
P_OURS=$((PORT_BASE + 3)) P_OURS_BIG=$((PORT_BASE + 4)) P_IDLE=$((PORT_BASE + 5))
cd "$ROOT"

has_row() { [[ " $ROWS " == *" $1 "* ]]; }
for row in $ROWS; do
  case $row in
    get | hit | scale | idle) ;;
    *)
      echo "error: ROWS names \"$row\"; the rows are get, hit, scale and idle" >&2
      exit 1
      ;;
  esac
done
if [ -z "${ROWS// /}" ]; then
  echo "error: ROWS is empty; the rows are get, hit, scale and idle" >&2
  exit 1
fi
has_load_row() { has_row get || has_row hit || has_row scale; }

# ---------- what the rows need; INSTALL=1 gets it from Debian ----------
need_cmd=(curl cc awk)
need_pkg=(curl gcc gawk)
if has_load_row; then need_cmd+=(wrk); need_pkg+=(wrk); fi
if has_row get; then need_cmd+=(nginx); need_pkg+=(nginx-light); fi
if has_row hit; then need_cmd+=(redis-server webdis); need_pkg+=(redis-server webdis); fi
missing=() missing_pkg=()
for i in "${!need_cmd[@]}"; do
  command -v "${need_cmd[$i]}" >/dev/null || { missing+=("${need_cmd[$i]}"); missing_pkg+=("${need_pkg[$i]}"); }
done
if [ ${#missing[@]} -gt 0 ] && [ "${INSTALL:-0}" = 1 ]; then
  # Keep the packages from starting their system-wide services (policy-rc.d says no).
  added_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; added_policy=1
  fi
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing_pkg[@]}" >&2
  [ "$added_policy" = 1 ] && rm -f /usr/sbin/policy-rc.d
  missing=()
  for c in "${need_cmd[@]}"; do command -v "$c" >/dev/null || missing+=("$c"); done
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "error: missing ${missing[*]}: run with INSTALL=1 (apt-get, Debian packages), or leave" \
    "their rows out with ROWS=... (now \"$ROWS\")" >&2
  exit 1
fi

# ---------- work dir, processes, cleanup ----------
W=$(mktemp -d /var/tmp/rb-service.XXXXXX)
chmod 755 "$W"   # nginx's worker runs as an unprivileged user and reads $W/www
PIDS=()
stop_pid() { # pid: TERM, up to 5 s, then KILL
  kill -TERM "$1" 2>/dev/null || return 0
  for _ in $(seq 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}
cleanup() {
  set +e
  for p in "${PIDS[@]}"; do stop_pid "$p"; done
  if [ "${KEEP:-0}" = 1 ]; then echo "kept $W" >&2; else rm -rf "$W"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if command -v ss >/dev/null; then
  for p in $P_NGINX $P_REDIS $P_WEBDIS $P_OURS $P_OURS_BIG $P_IDLE; do
    if ss -ltnH "sport = :$p" | grep -q .; then
      echo "error: port $p is in use; stop that first or pick PORT_BASE=..." >&2
      exit 1
    fi
  done
fi
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

wait_http() { # url: until it answers 2xx (30 s)
  for _ in $(seq 300); do curl -fsS -o /dev/null "$1" 2>/dev/null && return 0; sleep 0.1; done
  echo "error: $1 does not answer" >&2
  return 1
}

# ---------- our server, and its stores ----------
if [ -n "${ROADMAPCTL:-}" ]; then
  BIN=$ROADMAPCTL   # a binary built elsewhere (an older commit, to compare)
else
  swift build -c release --product roadmapctl >&2
  BIN="$ROOT/.build/release/roadmapctl"
fi
VERSION=$("$BIN" --version 2>/dev/null || echo "?")

# A `votes export` of N counters bench/feature1 ... bench/featureN.
export_counters() { # n
  awk -v n="$1" -v now="$(($(date +%s) * 1000))" 'BEGIN {
    printf "{\"version\":1,\"counters\":["
    for (i = 1; i <= n; i++) {
      printf "%s{\"record\":{\"id\":%d,\"namespace\":\"bench\",\"key\":\"feature%d\",\"value\":%d,", (i > 1 ? "," : ""), i, i, i % 997
      printf "\"enableReset\":false,\"updateLowerBound\":-1,\"updateUpperBound\":1,\"createdAt\":%d,\"updatedAt\":%d},\"voters\":[]}", now, now
    }
    print "]}"
  }'
}
seed_store() { # dir n
  mkdir -p "$1"
  export_counters "$2" > "$W/export-$2.json"
  "$BIN" votes import "$W/export-$2.json" --data-dir "$1" >&2
}
start_ours() { # port data-dir: sets OURS_PID
  "$BIN" serve --host 127.0.0.1 --port "$1" --data-dir "$2" --read-limit 0 --write-limit 0 \
    > "$W/serve-$1.log" 2>&1 &
  OURS_PID=$!
  PIDS+=("$OURS_PID")
  wait_http "http://127.0.0.1:$1/get/bench/feature1" || { tail -5 "$W/serve-$1.log" >&2; exit 1; }
}

TARGETS=() # "label|url|pids"
if has_row get || has_row hit || has_row scale; then
  seed_store "$W/data" "$COUNTERS"
  start_ours "$P_OURS" "$W/data"
  PID_OURS=$OURS_PID
fi

# ---------- peers ----------
if has_row get; then
  mkdir -p "$W/www/get/ns" "$W/nginx-tmp"
  printf '{"value":42}' > "$W/www/get/ns/feature1"
  chmod -R a+rX "$W/www"
  cat > "$W/nginx.conf" <<EOF
worker_processes 1;
daemon off;
pid $W/nginx.pid;
error_log $W/nginx-error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  keepalive_timeout 65s;
  keepalive_requests 1000000;
  tcp_nodelay on;
  client_body_temp_path $W/nginx-tmp/body;
  proxy_temp_path $W/nginx-tmp/proxy;
  fastcgi_temp_path $W/nginx-tmp/fastcgi;
  uwsgi_temp_path $W/nginx-tmp/uwsgi;
  scgi_temp_path $W/nginx-tmp/scgi;
  server {
    listen 127.0.0.1:$P_NGINX;
    root $W/www;
    location /get/ { default_type application/json; }
  }
}
EOF
  nginx -p "$W" -c "$W/nginx.conf" &
  PID_NGINX=$!
  PIDS+=("$PID_NGINX")
  wait_http "http://127.0.0.1:$P_NGINX/get/ns/feature1"
  TARGETS+=("nginx /get (static file)|http://127.0.0.1:$P_NGINX/get/ns/feature1|tree:$PID_NGINX")
  TARGETS+=("ours /get|http://127.0.0.1:$P_OURS/get/bench/feature1|$PID_OURS")
fi
if has_row hit; then
  mkdir -p "$W/redis"
  redis-server --bind 127.0.0.1 --port "$P_REDIS" --dir "$W/redis" --save '' \
    --appendonly yes --appendfsync always --daemonize no --logfile "$W/redis.log" &
  PID_REDIS=$!
  PIDS+=("$PID_REDIS")
  cat > "$W/webdis.json" <<EOF
{ "redis_host": "127.0.0.1", "redis_port": $P_REDIS, "redis_auth": null,
  "http_host": "127.0.0.1", "http_port": $P_WEBDIS, "threads": 2, "daemonize": false,
  "database": 0, "verbosity": 1, "logfile": "$W/webdis.log" }
EOF
  webdis "$W/webdis.json" >> "$W/webdis.log" 2>&1 &
  PID_WEBDIS=$!
  PIDS+=("$PID_WEBDIS")
  wait_http "http://127.0.0.1:$P_WEBDIS/INCR/ns:probe"
  TARGETS+=("webdis /INCR (redis, appendfsync always)|http://127.0.0.1:$P_WEBDIS/INCR/ns:feature1|$PID_WEBDIS $PID_REDIS")
  TARGETS+=("ours /hit (durable)|http://127.0.0.1:$P_OURS/hit/bench/feature1|$PID_OURS")
fi
if has_row scale; then
  BIG=$((COUNTERS * 10))
  seed_store "$W/data-big" "$BIG"
  start_ours "$P_OURS_BIG" "$W/data-big"
  PID_OURS_BIG=$OURS_PID
  # The 1x row again, next to the 10x one, when the get row is not there to compare with.
  has_row get || TARGETS+=("ours /get|http://127.0.0.1:$P_OURS/get/bench/feature1|$PID_OURS")
  TARGETS+=("ours /get, 10x counters|http://127.0.0.1:$P_OURS_BIG/get/bench/feature1|$PID_OURS_BIG")
fi

# ---------- the disk's speed, where the stores are ----------
# What one durable commit costs the device here: both durable rows (redis's appendfsync always,
# our group commit) wait for fdatasync, and a shared machine's disk drifts from day to day, so
# the run says what it had: a 4 KiB pwrite + fdatasync over a 256 KiB file, before and after.
if has_row hit; then
  cat > "$W/fsync-probe.c" <<'EOF'
#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv) {
  if (argc < 2) return 2;
  int fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0600);
  if (fd < 0) { perror(argv[1]); return 1; }
  static char page[4096];
  for (int i = 0; i < 64; i++) if (pwrite(fd, page, sizeof page, i * 4096L) != sizeof page) return 1;
  if (fsync(fd) != 0) return 1;
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  int n = 500;
  for (int i = 0; i < n; i++) {
    page[0] = (char)i;
    if (pwrite(fd, page, sizeof page, (i % 64) * 4096L) != sizeof page || fdatasync(fd) != 0) return 1;
  }
  clock_gettime(CLOCK_MONOTONIC, &b);
  printf("%.0f\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e3 / n);
  close(fd);
  unlink(argv[1]);
  return 0;
}
EOF
  cc -O2 -o "$W/fsync-probe" "$W/fsync-probe.c"
  FSYNC_BEFORE=$("$W/fsync-probe" "$W/fsync-probe.dat")
fi

# ---------- wrk, round-robin ----------
# The time the machine's host gave the vCPUs to others (steal, /proc/stat) and all the CPU
# time, across every round: a run with much stolen is a noisy one.
steal_ticks() { awk '/^cpu / { total = 0; for (i = 2; i <= NF; i++) total += $i; print $9, total }' /proc/stat; }
# Idle and waiting-for-I/O time of all the CPUs, and all the CPU time: the share of the
# machine a round left unused.
idle_ticks() { awk '/^cpu / { total = 0; for (i = 2; i <= NF; i++) total += $i; print $5 + $6, total }' /proc/stat; }
stolen_percent() { # "steal total" before, after: the share stolen between them
  awk -v a="$1" -v b="$2" 'BEGIN {
    split(a, x, " "); split(b, y, " ")
    printf "%.1f", (y[2] > x[2] ? (y[1] - x[1]) * 100 / (y[2] - x[2]) : 0)
  }'
}
STEAL_BEFORE=$(steal_ticks)
cat > "$W/report.lua" <<'EOF'
-- One machine-readable line after wrk's summary: requests, seconds, p50 and p99 (µs), errors.
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %d %.6f %.1f %.1f %d\n", summary.requests,
    summary.duration / 1e6, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.status + e.timeout))
end
EOF
CLK_TCK=$(getconf CLK_TCK)
server_pids() { # spec: pids, "tree:P" = P and its children
  local s
  for s in $1; do
    case $s in
      tree:*) echo "${s#tree:}"; pgrep -P "${s#tree:}" || true ;;
      *) echo "$s" ;;
    esac
  done
}
cpu_ticks() { # pids: utime + stime of each whole process, in clock ticks
  local total=0 p v
  for p in "$@"; do
    v=$(sed 's/^.*) //' "/proc/$p/stat" 2>/dev/null | awk '{ print $12 + $13 }') || v=0
    total=$((total + ${v:-0}))
  done
  echo "$total"
}
RESULTS="$W/results.txt"
: > "$RESULTS"
if [ ${#TARGETS[@]} -gt 0 ]; then
  echo "wrk -t$THREADS -c$CONNS -d$DURATION, $RUNS rounds round-robin over ${#TARGETS[@]} rows" >&2
  for ((r = 1; r <= RUNS; r++)); do
    for t in "${TARGETS[@]}"; do
      IFS='|' read -r label url spec <<<"$t"
      # shellcheck disable=SC2046
      pids=$(server_pids "$spec" | sort -u | tr '\n' ' ')
      # shellcheck disable=SC2086
      before=$(cpu_ticks $pids)
      steal_before=$(steal_ticks)
      idle_before=$(idle_ticks)
      # wrk's own CPU (user and system seconds) too: it shares the machine with the server.
      out=$( {
        TIMEFORMAT='WRKCPU %U %S'
        time wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" -s "$W/report.lua" "$url"
      } 2>&1) || true
      # shellcheck disable=SC2086
      after=$(cpu_ticks $pids)
      steal_after=$(steal_ticks)
      idle_after=$(idle_ticks)
      line=$(sed -n 's/^RESULT //p' <<<"$out")
      if [ -z "$line" ]; then
        echo "error: wrk failed on $url:" >&2
        echo "$out" >&2
        exit 1
      fi
      if grep -q 'Non-2xx or 3xx responses' <<<"$out"; then
        echo "error: $url answered non-2xx:" >&2
        echo "$out" >&2
        exit 1
      fi
      wrk_cpu=$(awk '/^WRKCPU / { print $2 + $3 }' <<<"$out")
      echo "$label|$line $((after - before)) ${wrk_cpu:-0} $idle_before $idle_after" >> "$RESULTS"
      echo "  round $r: $label: $(awk '{ printf "%.0f req/s", $1 / $2 }' <<<"$line")," \
        "$(stolen_percent "$steal_before" "$steal_after")% stolen" >&2
    done
  done
fi

if has_row hit; then FSYNC_AFTER=$("$W/fsync-probe" "$W/fsync-probe.dat"); fi
STEAL_AFTER=$(steal_ticks)

# ---------- the table and the ratios ----------
summarize() {
  awk -F'|' -v hz="$CLK_TCK" -v cores="$(nproc)" '
    # The ratio of each round taken alone (the two rows of a round run back to back, so a
    # slow stretch of the shared machine weighs on both) and the median of those ratios.
    function paired(ours, peer, name,    n, k, r, text) {
      n = count[ours] < count[peer] ? count[ours] : count[peer]
      if (n < 2) return
      text = ""
      for (k = 1; k <= n; k++) {
        r[k] = rps[ours, k] / rps[peer, k]
        text = text sprintf("%s%.2f", k > 1 ? ", " : "", r[k])
      }
      printf "%s req/s round by round: %s (median %.2f×)\n", name, text, median(r, n)
    }
    function median(list, n,    sorted, i, j, t) {
      for (i = 1; i <= n; i++) sorted[i] = list[i]
      for (i = 2; i <= n; i++) for (j = i; j > 1 && sorted[j - 1] > sorted[j]; j--) {
        t = sorted[j]; sorted[j] = sorted[j - 1]; sorted[j - 1] = t
      }
      return n % 2 ? sorted[(n + 1) / 2] : (sorted[n / 2] + sorted[n / 2 + 1]) / 2
    }
    {
      label = $1; split($2, f, " ")
      if (!(label in count)) order[++labels] = label
      k = ++count[label]
      rps[label, k] = f[1] / f[2]; p50[label, k] = f[3] / 1000; p99[label, k] = f[4] / 1000
      errors[label] += f[5]
      cpu[label, k] = f[6] / hz / f[1] * 1e6
      wcpu[label, k] = f[7] / f[1] * 1e6
      # f[8], f[9]: idle and total ticks before; f[10], f[11]: after.
      idle[label, k] = f[11] > f[9] ? (f[10] - f[8]) * 100 / (f[11] - f[9]) : 0
      # With every CPU doing only the work of this row (wrk + server), the most it could carry.
      bound[label, k] = cores * 1e6 / (cpu[label, k] + wcpu[label, k])
    }
    END {
      print "| row | req/s (median) | min–max req/s | p50 ms | p99 ms | server CPU µs/request | wrk CPU µs/request | CPUs idle | errors |"
      print "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
      for (o = 1; o <= labels; o++) {
        l = order[o]; n = count[l]; lo = hi = rps[l, 1]
        for (k = 1; k <= n; k++) {
          a[k] = rps[l, k]; b[k] = p50[l, k]; c[k] = p99[l, k]; d[k] = cpu[l, k]
          e[k] = wcpu[l, k]; i[k] = idle[l, k]; m[k] = bound[l, k]
          if (a[k] < lo) lo = a[k]; if (a[k] > hi) hi = a[k]
        }
        R[l] = median(a, n); C[l] = median(d, n); B[l] = median(m, n)
        printf "| %s | %.0f | %.0f–%.0f | %.2f | %.2f | %.1f | %.1f | %.0f%% | %d |\n", l, R[l], lo, hi, median(b, n), median(c, n), C[l], median(e, n), median(i, n), errors[l]
      }
      print ""
      g = "ours /get"; n1 = "nginx /get (static file)"; h = "ours /hit (durable)"
      wd = "webdis /INCR (redis, appendfsync always)"; s = "ours /get, 10x counters"
      if ((g in R) && (n1 in R)) {
        printf "/get ours/nginx req/s: %.2f×\n", R[g] / R[n1]
        printf "/get ours/nginx CPU per request: %.2f×\n", C[g] / C[n1]
        paired(g, n1, "/get ours/nginx")
      }
      if ((h in R) && (wd in R)) {
        printf "/hit ours/webdis req/s: %.2f×\n", R[h] / R[wd]
        printf "/hit ours/webdis CPU per request: %.2f×\n", C[h] / C[wd]
        paired(h, wd, "/hit ours/webdis")
        # What the machine allows: wrk and the server share the CPUs, so a row cannot pass
        # cores ÷ (its CPU per request + that of wrk), however it is scheduled.
        printf "/hit: %d CPUs doing nothing but the work of wrk and ours carry at most %.0f req/s (median of the rounds); 1.5× webdis is %.0f\n", cores, B[h], 1.5 * R[wd]
      }
      if ((g in R) && (s in R))
        printf "/get with 10× the counters: req/s %+.1f%%, CPU per request %+.1f%%\n", (R[s] / R[g] - 1) * 100, (C[s] / C[g] - 1) * 100
    }' "$RESULTS"
}

echo
echo "roadmapctl $VERSION, $(nproc) cores, $(date -u +%Y-%m-%dT%H:%MZ)"
if [ -s "$RESULTS" ]; then
  echo "wrk -t$THREADS -c$CONNS -d$DURATION, median of $RUNS rounds; ours from a store of $COUNTERS counters in the namespace (10x: $((COUNTERS * 10)))"
  if [ -n "${FSYNC_BEFORE:-}" ]; then
    echo "the disk where the stores are: 4 KiB pwrite + fdatasync ${FSYNC_BEFORE} µs before the rounds, ${FSYNC_AFTER:-?} µs after"
  fi
  echo "CPU time stolen by the host during the rounds: $(stolen_percent "$STEAL_BEFORE" "$STEAL_AFTER")%"
  echo
  summarize
  # The most memory each server held over all its rounds (a server that keeps what its votes
  # handed over grows with them: serve did, to 350-700 MB, until 2026-12-05).
  peak_mb() { # pid...: the sum of their VmHWM in MB
    local kb=0 p v
    for p in "$@"; do
      v=$(awk '/^VmHWM/ {print $2}' "/proc/$p/status" 2>/dev/null || echo 0)
      kb=$((kb + ${v:-0}))
    done
    awk -v kb="$kb" 'BEGIN { printf "%.1f", kb * 1024 / 1e6 }'
  }
  if has_row get || has_row hit; then
    peaks="ours (serve, all its rows) $(peak_mb "$PID_OURS") MB"
    has_row hit && peaks="$peaks; webdis + redis $(peak_mb "$PID_WEBDIS" "$PID_REDIS") MB"
    echo "peak memory over the rounds (VmHWM, MB = 10^6 bytes): $peaks"
  fi
fi

# ---------- idle connections ----------
if has_row idle; then
  . "$ROOT/Benchmarks/lib/idle.sh"
  idle_build "$W"
  seed_store "$W/data-idle" "$COUNTERS" >/dev/null 2>&1
  # Stop the load-row servers first: the figures are for one process alone on the machine.
  for p in "${PIDS[@]}"; do stop_pid "$p"; done
  PIDS=()
  hard=$(ulimit -Hn)
  declare -A RSS
  for n in $IDLE; do
    if [ "$hard" != unlimited ] && [ "$n" -gt $((hard - 64)) ]; then
      echo "note: $n connections need more open files than the hard limit ($hard) allows; skipped" >&2
      continue
    fi
    for mode in request silent; do
      # A fresh server for every figure, so no earlier figure's memory stays in it.
      rm -rf "$W/data-idle-run"; cp -r "$W/data-idle" "$W/data-idle-run"
      start_ours "$P_IDLE" "$W/data-idle-run"
      sleep "${SETTLE:-1}"
      read -r rss open < <(idle_measure "$OURS_PID" "$P_IDLE" "$n" "$mode" /get/bench/feature1)
      [ "$open" = "$n" ] || echo "note: the server held $open of $n connections when RSS was read" >&2
      RSS[$n,$mode]=$rss
      stop_pid "$OURS_PID"
      PIDS=()
    done
  done
  echo
  echo "RSS of \`roadmapctl serve\` (SQLite, $COUNTERS counters) with idle connections open,"
  echo "$PER_ADDRESS per source address; MB = 10^6 bytes (VmRSS):"
  echo
  {
    for n in $IDLE; do
      [ -n "${RSS[$n,request]:-}" ] && echo "$n ${RSS[$n,request]} ${RSS[$n,silent]}"
    done
  } | awk '
    function commas(n,    s) {
      s = sprintf("%d", n)
      while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s)
      return s
    }
    BEGIN {
      print "| idle connections | RSS, after one request each | RSS, never sent a byte |"
      print "|---:|---:|---:|"
    }
    {
      n[NR] = $1; a[NR] = $2 * 1024; b[NR] = $3 * 1024
      printf "| %s | %.1f MB | %.1f MB |\n", commas($1), a[NR] / 1e6, b[NR] / 1e6
    }
    END {
      if (NR < 2 || n[NR] == n[1]) exit
      span = n[NR] - n[1]
      printf "\nper idle connection: %.0f bytes after a request, %.0f bytes never used\n", (a[NR] - a[1]) / span, (b[NR] - b[1]) / span
      printf "%s idle connections: %.1f MB RSS (target: at most 40 MB)\n", commas(n[NR]), a[NR] / 1e6
    }'
fi
