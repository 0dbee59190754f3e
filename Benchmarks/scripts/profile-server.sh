#!/usr/bin/env bash
# Instruction profile of one server endpoint under valgrind's callgrind (counts instructions, so the
# figures repeat on a shared machine): starts the server under callgrind, sends REQUESTS requests
# with curl over CONNECTIONS keep-alive connections, stops it by PID, and prints instructions per
# request and the top functions (inclusive and self).
#
# usage: Benchmarks/scripts/profile-server.sh PORT PATH -- SERVER COMMAND...
# env:   REQUESTS=2000 CONNECTIONS=4 TOP=25 OUT=/tmp/callgrind.PORT  (callgrind.out file prefix)
#        SETUP_PATH= (one request sent before counting starts, e.g. to warm a pool)
#        READY_PATH=/health (polled until it answers; the demo upstream has no /health: READY_PATH=/users)
#        CLIENT=curl, or h2load: the warm-up and the counted requests from h2load (nghttp2-client) with
#        H2LOAD_FLAGS (none: h2c with prior knowledge; --h1: HTTP/1.1), so both protocols are driven
#        by one client (curl 7.88 sends nothing on a reused h2c connection)
# Every counted request must answer 2xx, or the script fails and says which statuses came: under
# callgrind a server runs tens of times slower, and on a busy machine a `/users` request can outlast
# the upstream timeouts (504) — h2load's "0 succeeded" was that (its status line was not shown), and
# curl's failures were not counted at all. Give a profiled server long upstream timeouts.
set -euo pipefail
PORT=$1; TARGET=$2; shift 2; [ "$1" = "--" ] && shift
REQUESTS="${REQUESTS:-2000}"; CONNECTIONS="${CONNECTIONS:-4}"; TOP="${TOP:-25}"; OUT="${OUT:-/tmp/callgrind.$PORT}"
rm -f "$OUT".[0-9]* "$OUT".log
valgrind --tool=callgrind --callgrind-out-file="$OUT.%p" --instr-atstart=no --separate-threads=no "$@" >/dev/null 2>"$OUT.log" &
PID=$!
trap 'kill "$PID" 2>/dev/null || true' EXIT
for _ in $(seq 600); do curl -fs -o /dev/null --max-time 5 "http://127.0.0.1:$PORT${READY_PATH:-/health}" && break; sleep 0.2; done
[ -n "${SETUP_PATH:-}" ] && curl -fs -o /dev/null --max-time 60 "http://127.0.0.1:$PORT$SETUP_PATH"
read -r -a h2load_flags <<<"${H2LOAD_FLAGS:-}"
# Warm-up outside the counted window, then count exactly REQUESTS requests.
if [ "${CLIENT:-curl}" = h2load ]; then
    h2load "${h2load_flags[@]}" -n "$(( CONNECTIONS > 20 ? CONNECTIONS : 20 ))" -c "$CONNECTIONS" "http://127.0.0.1:$PORT$TARGET" >/dev/null
    callgrind_control -i on "$PID" >/dev/null
    out=$(h2load "${h2load_flags[@]}" -n "$REQUESTS" -c "$CONNECTIONS" "http://127.0.0.1:$PORT$TARGET")
    grep -q " $REQUESTS succeeded" <<<"$out" || { echo "h2load: not all $REQUESTS requests succeeded: $(grep -E "requests:|status codes:" <<<"$out" | tr "\n" " ")" >&2; exit 1; }
    per=$((REQUESTS / CONNECTIONS))
else
    seq 20 | xargs -P "$CONNECTIONS" -I{} curl -fs -o /dev/null --max-time 60 "http://127.0.0.1:$PORT$TARGET" \
        || { echo "curl: the warm-up's requests to $TARGET did not all answer 2xx" >&2; exit 1; }
    callgrind_control -i on "$PID" >/dev/null
    per=$((REQUESTS / CONNECTIONS))
    clients=()
    for index in $(seq "$CONNECTIONS"); do
        # One curl process per connection: its URLs share one keep-alive connection.
        ( urls=(); for _ in $(seq "$per"); do urls+=("http://127.0.0.1:$PORT$TARGET" -o /dev/null); done
          curl -s --max-time 600 -w "%{http_code}\n" "${urls[@]}" >"$OUT.status.$index" ) &
        clients+=($!)
    done
    wait "${clients[@]}" || true
    ok=$(cat "$OUT".status.* | grep -c '^2' || true)
    statuses=$(sort "$OUT".status.* | uniq -c | tr -s ' \n' ' ')
    rm -f "$OUT".status.*
    [ "$ok" -eq $((per * CONNECTIONS)) ] || { echo "curl: $ok of $((per * CONNECTIONS)) requests answered 2xx (statuses:$statuses)" >&2; exit 1; }
fi
callgrind_control -i off "$PID" >/dev/null
kill "$PID"; wait "$PID" 2>/dev/null || true
trap - EXIT
# The report reads only the head of callgrind_annotate's output: its broken pipe is expected.
set +o pipefail
file=$(ls -t "$OUT".[0-9]* | head -1)
total=$(callgrind_annotate "$file" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }')
echo "$TARGET: $total instructions for $((per * CONNECTIONS)) requests = $((total / (per * CONNECTIONS))) per request ($file)"
echo "--- top $TOP inclusive"
callgrind_annotate --inclusive=yes "$file" 2>/dev/null | grep -E "^ *[0-9,]+ " | head -n "$((TOP + 1))" | tail -n "$TOP" | cut -c1-200
echo "--- top $TOP self"
callgrind_annotate "$file" 2>/dev/null | grep -E "^ *[0-9,]+ " | head -n "$((TOP + 1))" | tail -n "$TOP" | cut -c1-200
