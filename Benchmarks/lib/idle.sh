# Benchmarks/lib/idle.sh: a server's resident memory with N idle connections open.
# Source it, then:
#   idle_build DIR                      # compiles lib/idle_conns.c into DIR/idle_conns (needs cc)
#   idle_rss_kb PID                     # the process's VmRSS in KiB
#   idle_measure PID PORT N MODE PATH   # opens N connections (MODE request: each sends one GET
#                                       # PATH and reads its answer; silent: never a byte), waits
#                                       # SETTLE seconds, prints "RSS_KiB OPEN" (OPEN: how many
#                                       # the server still held when RSS was read), closes them
# Knobs: SETTLE (1 s), PER_ADDRESS (0: every connection from 127.0.0.1; else that many per
# source address 127.1.0.1, 127.1.0.2, ...). Raises the open-files limit of the client as far
# as the hard limit allows; the server needs N + a few descriptors too.

IDLE_CONNS=

idle_build() { # dir
  IDLE_CONNS="$1/idle_conns"
  cc -O2 -o "$IDLE_CONNS" "$(dirname "${BASH_SOURCE[0]}")/idle_conns.c"
}

idle_rss_kb() { # pid
  awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"
}

idle_measure() { # pid port n mode path
  local pid=$1 port=$2 n=$3 mode=$4 path=$5 line rss open
  if [ "$n" = 0 ]; then
    sleep "${SETTLE:-1}"
    echo "$(idle_rss_kb "$pid") 0"
    return
  fi
  coproc IDLE_CLIENT { ulimit -n "$(ulimit -Hn)"; exec "$IDLE_CONNS" 127.0.0.1 "$port" "$n" "$mode" "$path" "${PER_ADDRESS:-0}"; }
  local out=${IDLE_CLIENT[0]} in=${IDLE_CLIENT[1]} cpid=$IDLE_CLIENT_PID
  if ! read -r -u "$out" line || [ "$line" != "ready $n" ]; then
    echo "error: the idle-connection client failed (${line:-no output})" >&2
    wait "$cpid" 2>/dev/null
    return 1
  fi
  sleep "${SETTLE:-1}"
  rss=$(idle_rss_kb "$pid")
  echo check >&"$in"
  read -r -u "$out" line
  open=${line#open }
  exec {in}>&-
  wait "$cpid" 2>/dev/null
  echo "$rss $open"
}
