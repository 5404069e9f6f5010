#!/usr/bin/env bash
# http-ab.sh — paired A/B of HTTPServer against nginx (1 worker, static {"value":42}), for a
# noisy shared machine: ROUNDS rounds, each running wrk on nginx then on HTTPServer back to
# back (DURATION each), at every CONNS; prints each round's pair and the median of the
# per-round ratios, which drift on the machine affects far less than separate medians.
#   Benchmarks/http-ab.sh            # ROUNDS=8 DURATION=3s CONNS="64 256"
# Uses the server Benchmarks/http.sh builds into HTTP_BENCH_OUT (/tmp/http-bench), and builds
# it there first when it is missing or older than Sources/HTTPServer or Sources/CEpoll.
# Needs nginx and wrk. Knobs: ROUNDS, DURATION, CONNS, P_NGINX (18281), P_OURS (18282).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${HTTP_BENCH_OUT:-/tmp/http-bench}; mkdir -p "$OUT"
ROUNDS=${ROUNDS:-8}; DURATION=${DURATION:-3s}; CONNS=${CONNS:-"64 256"}
P_NGINX=${P_NGINX:-18281}; P_OURS=${P_OURS:-18282}
# Build it when it is missing or older than any of the sources it is built from.
if [ ! -x "$OUT/http-bench-server" ] ||
  [ -n "$(find "$ROOT/Sources/HTTPServer" "$ROOT/Sources/CEpoll" -newer "$OUT/http-bench-server" -print -quit)" ]; then
  BUILD_ONLY=1 HTTP_BENCH_OUT="$OUT" "$ROOT/Benchmarks/http.sh" > /dev/null
fi
W=$(mktemp -d /tmp/http-ab.XXXXXX)
mkdir -p "$W/www/get/ns" "$W/tmp"; printf '{"value":42}' > "$W/www/get/ns/feature1"; chmod -R a+rX "$W"
cat > "$W/nginx.conf" <<CONF
worker_processes 1; daemon off; pid $W/nginx.pid; error_log $W/error.log warn;
events { worker_connections 4096; }
http {
  access_log off; sendfile on; tcp_nopush on; tcp_nodelay on;
  keepalive_timeout 65s; keepalive_requests 1000000; open_file_cache max=100;
  client_body_temp_path $W/tmp/body; proxy_temp_path $W/tmp/proxy; fastcgi_temp_path $W/tmp/fcgi;
  uwsgi_temp_path $W/tmp/uwsgi; scgi_temp_path $W/tmp/scgi;
  server { listen 127.0.0.1:$P_NGINX; root $W/www; location /get/ { default_type application/json; } }
}
CONF
nginx -p "$W" -c "$W/nginx.conf" & NPID=$!
"$OUT/http-bench-server" "$P_OURS" > "$W/ours.log" 2>&1 & OPID=$!
trap 'kill -TERM $NPID $OPID 2>/dev/null; wait 2>/dev/null; rm -rf "$W"' EXIT
for u in "http://127.0.0.1:$P_NGINX/get/ns/feature1" "http://127.0.0.1:$P_OURS/get/ns/feature1"; do
  for _ in $(seq 100); do curl -fsS -o /dev/null "$u" 2>/dev/null && break; sleep 0.05; done
done
rps() { wrk -t1 -c"$1" -d"$DURATION" --latency "$2" | awk '/Requests\/sec/{r=$2} /^ +99%/{p=$2} END{print r, p}'; }
for c in $CONNS; do
  ratios=()
  for ((i = 1; i <= ROUNDS; i++)); do
    read -r n np <<<"$(rps "$c" "http://127.0.0.1:$P_NGINX/get/ns/feature1")"
    read -r o op <<<"$(rps "$c" "http://127.0.0.1:$P_OURS/get/ns/feature1")"
    r=$(awk -v o="$o" -v n="$n" 'BEGIN{printf "%.2f", o / n}')
    ratios+=("$r")
    printf 'c=%-4s round %d: nginx %8.0f req/s p99 %-9s HTTPServer %8.0f req/s p99 %-9s ratio %s\n' \
      "$c" "$i" "$n" "$np" "$o" "$op" "$r"
  done
  printf '%s\n' "${ratios[@]}" | sort -n | awk -v c="$c" '{a[NR]=$1} END{m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "c=%s: median HTTPServer/nginx ratio %.2f (min %.2f, max %.2f, %d rounds)\n", c, m, a[1], a[NR], NR}'
done
