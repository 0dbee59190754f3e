#!/usr/bin/env bash
# System calls per request of one server endpoint under wrk load: starts the server, warms it up,
# counts its system calls with `perf stat` on the kernel's syscall tracepoints (in-kernel counters:
# the server runs at full speed, unlike under strace, which would change how many requests one
# read or epoll_wait serves) over one wrk run of DURATION at CONNECTIONS, stops the server by PID,
# and prints each call's count per request (wrk's own request count is the divisor) and the
# server's CPU per request from /proc.
#
# usage: Benchmarks/scripts/syscalls-server.sh PORT PATH -- SERVER COMMAND...
# env:   CONNECTIONS=64 DURATION=3s THREADS=2 TOP=12
set -euo pipefail
PORT=$1; TARGET=$2; shift 2; [ "$1" = "--" ] && shift
CONNECTIONS="${CONNECTIONS:-64}"; DURATION="${DURATION:-3s}"; THREADS="${THREADS:-2}"; TOP="${TOP:-12}"
command -v wrk >/dev/null || { echo "wrk is not installed: apt-get install -y wrk" >&2; exit 2; }
command -v perf >/dev/null || { echo "perf is not installed: apt-get install -y linux-perf" >&2; exit 2; }
OUT="$(mktemp -d)"
"$@" >"$OUT/server.log" 2>&1 &
PID=$!
COUNTER=""
cleanup() {
    [ -n "$COUNTER" ] && kill "$COUNTER" 2>/dev/null
    kill "$PID" 2>/dev/null || true
    wait "$PID" 2>/dev/null || true
    rm -rf "$OUT"
}
trap cleanup EXIT
for _ in $(seq 100); do curl -fs -o /dev/null --max-time 1 "http://127.0.0.1:$PORT$TARGET" && break; sleep 0.1; done
wrk -t"$THREADS" -c"$CONNECTIONS" -d1s "http://127.0.0.1:$PORT$TARGET" >/dev/null
CALLS="read write sendto recvfrom sendmsg writev readv epoll_wait epoll_pwait epoll_ctl futex accept accept4 close ioctl"
events="raw_syscalls:sys_enter"; for c in $CALLS; do events="$events,syscalls:sys_enter_$c"; done
perf stat -x, -e "$events" -p "$PID" -o "$OUT/perf.txt" &
COUNTER=$!
sleep 0.5
cpu() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$PID/stat"; }
c0=$(cpu)
wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" "http://127.0.0.1:$PORT$TARGET" >"$OUT/wrk.txt"
c1=$(cpu)
kill -INT "$COUNTER"; wait "$COUNTER" 2>/dev/null || true; COUNTER=""
requests=$(awk '/requests in/ { print $1 }' "$OUT/wrk.txt")
awk -F, -v n="$requests" -v target="$TARGET" -v c="$CONNECTIONS" -v ticks=$((c1 - c0)) -v hz="$(getconf CLK_TCK)" '
    $3 ~ /sys_enter/ && $1 ~ /^[0-9]+$/ {
        name = $3; sub(/^.*sys_enter_?/, "", name)
        if (name == "") total = $1; else if ($1 > 0) line[name] = $1
    }
    END {
        printf "%s: %d requests at c%d: %.2f system calls and %.1f us of server CPU per request (CPU includes the counting)\n", target, n, c, total / n, ticks / hz * 1e6 / n
        for (name in line) printf "  %-12s %6.3f\n", name, line[name] / n
    }' "$OUT/perf.txt" | sort -k2 -nr
