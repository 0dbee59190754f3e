#!/usr/bin/env bash
# The two instruction counts of the ledger (Benchmarks/README.md, "Ledger"), callgrind on a `strip -g`
# copy of one stream-service binary (valgrind 3.19 cannot read the toolchain's DWARF 5):
#   /users?limit=30&concurrency=16: REQUESTS_USERS=40 requests on 1 keep-alive connection, against a
#       demo upstream of the same binary in its own process (not counted), cache and single flight off,
#       once per upstream encoding in GZIP_MODES ("true false": --upstream-gzip true, the default, and
#       false, the identity bodies of the Hummingbird comparison);
#   /health: REQUESTS_HEALTH=2000 requests on 4 keep-alive connections.
# Counts are user-space instructions of all the server's threads; they repeat within about 1 % here
# whatever else the machine runs, so they are the figures to compare across commits.
#
# Over PROTOCOLS ("h1", the default, with curl as before; "h2c" with h2load, prior knowledge, the same
# requests and connections). The profiled server gets long upstream timeouts (`--upstream-timeout 60
# --upstream-deadline 120`): under callgrind on a busy machine a `/users` request outlasted the
# defaults and answered 504, which profile-server.sh now refuses to count.
#
# usage: Benchmarks/scripts/instructions-per-request.sh STREAM_SERVICE_BIN
# env:   PORT=18640 (server; +1 the demo upstream)  REPEAT=1 (runs of each count)  GZIP_MODES="true false"
#        PROTOCOLS="h1" (or "h1 h2c")
# Prints one `INSTRUCTIONS path=… gzip=… protocol=… per_request=N requests=N` line per run and stops
# every process it started by PID.
set -euo pipefail
BIN=${1:?usage: instructions-per-request.sh STREAM_SERVICE_BIN}
HERE="$(cd "$(dirname "$0")" && pwd)"
PORT="${PORT:-18640}"; UP_PORT=$((PORT + 1)); REPEAT="${REPEAT:-1}"; GZIP_MODES="${GZIP_MODES:-true false}"
REQUESTS_USERS="${REQUESTS_USERS:-40}"; REQUESTS_HEALTH="${REQUESTS_HEALTH:-2000}"; PROTOCOLS="${PROTOCOLS:-h1}"
command -v valgrind >/dev/null || { echo "valgrind is not installed: apt-get install -y valgrind" >&2; exit 2; }
WORK="$(mktemp -d)"
UP_PID=""
cleanup() {
    if [ -n "$UP_PID" ]; then kill "$UP_PID" 2>/dev/null || true; wait "$UP_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT
cp "$BIN" "$WORK/stream-service" && strip -g "$WORK/stream-service"
SERVICE="$WORK/stream-service"

LOG_LEVEL=warning "$SERVICE" demo-upstream --host 127.0.0.1 --port "$UP_PORT" --demo-latency-ms 0 >"$WORK/upstream.log" 2>&1 &
UP_PID=$!
for _ in $(seq 100); do curl -fs -o /dev/null --max-time 1 "http://127.0.0.1:$UP_PORT/users?per_page=1" && break; sleep 0.1; done
curl -fs -o /dev/null --max-time 5 "http://127.0.0.1:$UP_PORT/users?per_page=1" || { echo "the demo upstream did not start" >&2; exit 1; }

# count PROTOCOL PATH GZIP REQUESTS CONNECTIONS SERVE_FLAGS...: one profile-server.sh run, one INSTRUCTIONS line.
count() {
    local protocol=$1 path=$2 gzip=$3 requests=$4 connections=$5; shift 5
    local out client=curl
    [ "$protocol" = h2c ] && client=h2load
    out=$(CLIENT=$client H2LOAD_FLAGS="" REQUESTS=$requests CONNECTIONS=$connections TOP=0 OUT="$WORK/callgrind" \
        "$HERE/profile-server.sh" "$PORT" "$path" -- \
        "$SERVICE" serve --host 127.0.0.1 --port "$PORT" --log-level warning --upstream-timeout 60 --upstream-deadline 120 "$@")
    # Its first line: "PATH: TOTAL instructions for N requests = PER per request (FILE)".
    awk -v p="$path" -v g="$gzip" -v t="$protocol" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "per" && $(i + 1) == "request") per = $(i - 1)
        printf "INSTRUCTIONS path=%s gzip=%s protocol=%s per_request=%s requests=%s\n", p, g, t, per, $5 }' <<<"$out"
}
for _ in $(seq "$REPEAT"); do
    for protocol in $PROTOCOLS; do
        for gzip in $GZIP_MODES; do
            count "$protocol" "/users?limit=30&concurrency=16" "$gzip" "$REQUESTS_USERS" 1 --upstream "http://127.0.0.1:$UP_PORT" \
                --upstream-cache-bytes 0 --upstream-single-flight false --upstream-gzip "$gzip"
        done
        count "$protocol" /health - "$REQUESTS_HEALTH" 4
    done
done
