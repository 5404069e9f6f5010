#!/usr/bin/env bash
# http.sh — HTTPServer throughput, tail latency and idle-connection memory, side by side with
# nginx in one run of ../shared/bench/service_anchors.sh when it is there (BENCH_DIR=... to point
# elsewhere); without it (a clone, or PEERS=0), our own wrk rows (Benchmarks/lib/load.sh).
#
#   Benchmarks/http.sh            # RUNS=3 DURATION=8s, all anchors (nginx, webdis, redis)
#   RUNS=1 DURATION=5s Benchmarks/http.sh   # quick iteration
#   IDLE_ONLY=1 Benchmarks/http.sh          # only the 1,000-idle-connections memory figure
#
# 1. Compiles a tiny server with `swiftc -O` from Sources/HTTPServer/*.swift plus a main that
#    serves {"value":42} at /get/ns/feature1 through the Router (a real async handler, one Task
#    per request). No Package.swift target, so plain `swift build` is unaffected.
# 2. Runs service_anchors.sh with OURS_START/OURS_URL_GET (wrk -t1 -c64 and -c256), SKIP_SQLITE=1.
# 3. Opens IDLE_CONNS (1000) keep-alive connections with Python, each having made one request,
#    and reads the server's VmRSS and thread count from /proc, then times requests meanwhile.
# Knobs: RUNS, DURATION, CONNS (lib/load.sh), PORT (18090), IDLE_CONNS (1000), PEERS=0 (our rows
# only), BENCH_DIR, HTTP_BENCH_OUT (/tmp/http-bench: the built server, which http-ab.sh reuses,
# and the servers' logs; kept after the run, remove it by hand), BUILD_ONLY=1 (build the server
# and stop; SWIFT_OPT=-Onone builds it faster, to check that it builds). Needs clang and swiftc
# (the toolchain), wrk, curl and python3. The servers it starts are stopped when it exits.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BENCH=${BENCH_DIR:-$ROOT/../shared/bench}
OUT=${HTTP_BENCH_OUT:-/tmp/http-bench}; mkdir -p "$OUT"
PORT=${PORT:-18090}; IDLE_CONNS=${IDLE_CONNS:-1000}
ulimit -n 65536 2>/dev/null || ulimit -n 4096 2>/dev/null || true

cat > "$OUT/main.swift" <<'SWIFT'
import Foundation

let port = Int(CommandLine.arguments.dropFirst().first ?? "18090") ?? 18090
var router = Router()
router.get("/get/:ns/:key") { _ in .json(#"{"value":42}"#) }
// Every benchmark connection comes from 127.0.0.1: no per-address limit.
let server = HTTPServer(
  configuration: HTTPServerConfiguration(
    host: "127.0.0.1", port: port, maxConnectionsPerAddress: nil),
  handler: router.handler)
do {
  let bound = try server.start()
  print("listening on 127.0.0.1:\(bound)")
  fflush(stdout)
} catch {
  print("error: \(error)")
  exit(1)
}
await server.runUntilSignalled(gracePeriod: .seconds(5))
SWIFT
echo "building $OUT/http-bench-server (swiftc ${SWIFT_OPT:--O})..." >&2
# The CEpoll C target (Linux): a module map for its header, and every C file of it (the epoll
# shim and the io_uring send batch), as SwiftPM builds them.
rm -rf "$OUT/cepoll"
mkdir -p "$OUT/cepoll"
printf 'module CEpoll {\n  header "%s"\n  export *\n}\n' \
  "$ROOT/Sources/CEpoll/include/CEpoll.h" >"$OUT/cepoll/module.modulemap"
for c in "$ROOT"/Sources/CEpoll/*.c; do
  clang -c -O2 -I "$ROOT/Sources/CEpoll/include" "$c" -o "$OUT/cepoll/$(basename "$c" .c).o"
done
swiftc "${SWIFT_OPT:--O}" -wmo -module-name HTTPBench "$ROOT"/Sources/HTTPServer/*.swift \
  "$OUT/main.swift" -I "$OUT/cepoll" "$OUT"/cepoll/*.o -o "$OUT/http-bench-server"
if [ "${BUILD_ONLY:-0}" = 1 ]; then
  echo "built $OUT/http-bench-server"
  exit 0
fi

if [ "${IDLE_ONLY:-0}" != 1 ] && [ "${PEERS:-1}" != 0 ] && [ -x "$BENCH/service_anchors.sh" ]; then
  OURS_START="$OUT/http-bench-server $PORT" OURS_URL_GET="http://127.0.0.1:$PORT/get/ns/feature1" \
  OURS_LABEL="HTTPServer" SKIP_SQLITE=1 RUNS="${RUNS:-3}" DURATION="${DURATION:-8s}" \
  RB_N="${RB_N:-50000}" "$BENCH/service_anchors.sh"
elif [ "${IDLE_ONLY:-0}" != 1 ]; then
  . "$ROOT/Benchmarks/lib/load.sh"
  load_require
  "$OUT/http-bench-server" "$PORT" > "$OUT/load-server.log" 2>&1 &
  LPID=$!
  trap 'kill -TERM $LPID 2>/dev/null; wait $LPID 2>/dev/null || true' EXIT
  load_wait "http://127.0.0.1:$PORT/get/ns/feature1"
  echo "HTTPServer, loopback, wrk -t$THREADS -d$DURATION, median of $RUNS rounds"
  echo
  load_header
  load_rows "HTTPServer GET" "http://127.0.0.1:$PORT/get/ns/feature1"
  kill -TERM $LPID 2>/dev/null; wait $LPID 2>/dev/null || true
  echo
  echo "(no peer anchors: $BENCH/service_anchors.sh is not here)"
fi

# ---------- idle connections: memory and threads ----------
"$OUT/http-bench-server" "$PORT" > "$OUT/idle-server.log" 2>&1 &
SPID=$!
trap 'kill -TERM $SPID 2>/dev/null; wait $SPID 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -fsS -o /dev/null "http://127.0.0.1:$PORT/get/ns/feature1" 2>/dev/null && break; sleep 0.05; done
python3 - "$SPID" "$PORT" "$IDLE_CONNS" <<'PY'
import socket, sys, time
pid, port, n = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
def status():
    fields = {}
    for line in open(f"/proc/{pid}/status"):
        k, _, v = line.partition(":")
        fields[k] = v.strip()
    return int(fields["VmRSS"].split()[0]), int(fields["Threads"])  # KiB
req = b"GET /get/ns/feature1 HTTP/1.1\r\nHost: bench\r\n\r\n"
def get(s):
    s.sendall(req)
    data = b""
    while not data.endswith(b'{"value":42}'):
        chunk = s.recv(4096)
        if not chunk: raise SystemExit("server closed a connection")
        data += chunk
rss0, th0 = status()
socks = []
for i in range(n):
    s = socket.create_connection(("127.0.0.1", port))
    get(s)
    socks.append(s)
time.sleep(0.5)
rss1, th1 = status()
probe = socket.create_connection(("127.0.0.1", port))
lat = []
for _ in range(200):
    t = time.perf_counter(); get(probe); lat.append((time.perf_counter() - t) * 1000)
lat.sort()
print(f"idle connections: {n} open keep-alive (each made one request)")
print(f"server RSS: {rss0 / 1024:.1f} MB before -> {rss1 / 1024:.1f} MB with {n} idle ({(rss1 - rss0) / n:.1f} KiB each); threads {th0} -> {th1}")
print(f"requests on another connection meanwhile: p50 {lat[100]:.3f} ms, p99 {lat[197]:.3f} ms")
ok = rss1 < 100 * 1024
for s in socks: s.close()
print("RSS < 100 MB:", "yes" if ok else "NO")
PY
