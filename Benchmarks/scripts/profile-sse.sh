#!/usr/bin/env bash
# Instructions per SSE delivery under valgrind's callgrind (counts instructions, so the figure repeats
# on a shared machine): starts the server under callgrind with `--events-clock 1` (one broadcast a
# second), connects CLIENTS `/events` subscribers with Benchmarks/sse-load (`--h2`: streams of h2c
# connections, STREAMS each), counts instructions for WINDOW seconds once they are all connected,
# stops the server by PID and prints the instructions per delivery: the window's instructions over the
# body chunks the connections handled in it. Needs a binary with symbols and no DWARF (`strip -g`:
# valgrind 3.19 cannot read Swift 6's DWARF 5).
#
# usage: Benchmarks/scripts/profile-sse.sh PORT -- SERVER COMMAND... (give it --port PORT --events-clock 1)
# env:   PROTOCOL=h2 (or h1) CLIENTS=2000 STREAMS=100 SETTLE=20 (s after starting the clients) WINDOW=10
#        OUT=/tmp/callgrind-sse.PORT (callgrind.out file prefix) TOP=20
set -euo pipefail
PORT=$1; shift; [ "$1" = "--" ] && shift
PROTOCOL="${PROTOCOL:-h2}"; CLIENTS="${CLIENTS:-2000}"; STREAMS="${STREAMS:-100}"
SETTLE="${SETTLE:-20}"; WINDOW="${WINDOW:-10}"; OUT="${OUT:-/tmp/callgrind-sse.$PORT}"; TOP="${TOP:-20}"
rm -f "$OUT".[0-9]* "$OUT".log
gcc -O2 -Wall -Wextra -o "$OUT.sse-load" "$(dirname "$0")/../sse-load/sse-load.c"
valgrind --tool=callgrind --callgrind-out-file="$OUT.%p" --instr-atstart=no --separate-threads=no "$@" >/dev/null 2>"$OUT.log" &
PID=$!
CLIENT=
cleanup() { kill "$PID" 2>/dev/null || true; [ -n "$CLIENT" ] && kill "$CLIENT" 2>/dev/null || true; }
trap cleanup EXIT
for _ in $(seq 600); do curl -fs -o /dev/null --max-time 5 "http://127.0.0.1:$PORT/health" && break; sleep 0.2; done
flags=(--port "$PORT" --clients "$CLIENTS" --processes 1 --seconds $((SETTLE + WINDOW + 5)))
[ "$PROTOCOL" = h2 ] && flags+=(--h2 --streams-per-connection "$STREAMS")
"$OUT.sse-load" "${flags[@]}" >"$OUT.client.json" &
CLIENT=$!
sleep "$SETTLE"
callgrind_control -i on "$PID" >/dev/null
sleep "$WINDOW"
callgrind_control -i off "$PID" >/dev/null
wait "$CLIENT" || true
CLIENT=
kill -INT "$PID"; wait "$PID" || true
file=$(ls "$OUT".[0-9]* | head -1)
python3 - "$file" "$CLIENTS" "$OUT.client.json" "$(dirname "$0")" <<'PY'
import json, re, subprocess, sys
f, clients, client = sys.argv[1], int(sys.argv[2]), sys.argv[3]
sys.path.insert(0, sys.argv[4])
from callgrind_calls import call_counts
byname = call_counts(f)
out = subprocess.run(['callgrind_annotate', '--threshold=100', f], capture_output=True, text=True).stdout
total = int(re.search(r'([\d,]+)\s+\(100.0%\)\s+PROGRAM TOTALS', out).group(1).replace(',', ''))
# Deliveries: the calls of AnswerDriver's private bodyEvent(_:for:) (one specialisation per
# connection type; before issue 35 each connection had its own), which every chunk of a streamed body
# reaches once (an event, or a heartbeat that went out). Counting broadcasts instead
# undercounts: a server slowed by callgrind is still delivering earlier broadcasts in the window.
deliveries = sum(n for name, n in byname.items() if re.search(r'9bodyEvent', name) and 'fU' not in name)
result = json.loads(open(client).read().splitlines()[-1])
print(f"held {result['held']} / {clients}, missed {result['missed']}, deliveries in window {deliveries}")
if deliveries:
    print(f"instructions in window {total:,}; per delivery {total / deliveries:,.0f}")
PY
callgrind_annotate --threshold=100 "$file" | sed -n '/PROGRAM TOTALS/,$p' | head -$((TOP + 4))
