#!/usr/bin/env bash
# Instruction profile of the DEMO UPSTREAM while a real service drives it with /users requests.
# usage: Benchmarks/scripts/profile-upstream.sh SERVER_BIN UPSTREAM_BIN_STRIPPED   (strip -g copies: valgrind chokes on debug info)
# env:   UP_PORT=18880 SRV_PORT=18881 OUT=/tmp/cg-up (callgrind file prefix) REQUESTS=40
# Prints instructions per /users request (31 upstream exchanges each: 1 user list + 30 avatars).
set -u
SRV=$1; UPB=$2
UP_PORT=${UP_PORT:-18880}; SRV_PORT=${SRV_PORT:-18881}; OUT=${OUT:-/tmp/cg-up}; REQUESTS=${REQUESTS:-40}
rm -f "$OUT".[0-9]*
LOG_LEVEL=warning valgrind --tool=callgrind --callgrind-out-file="$OUT.%p" --instr-atstart=no --separate-threads=no \
    "$UPB" demo-upstream --host 127.0.0.1 --port "$UP_PORT" --demo-latency-ms 0 >/dev/null 2>"$OUT.log" & UP=$!
for _ in $(seq 300); do curl -fs -o /dev/null "http://127.0.0.1:$UP_PORT/users?per_page=1" && break; sleep 0.2; done
"$SRV" serve --host 127.0.0.1 --port "$SRV_PORT" --upstream "http://127.0.0.1:$UP_PORT" --upstream-cache-bytes 0 \
    --upstream-single-flight false --log-level error >/dev/null 2>&1 & S=$!
for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$SRV_PORT/health" && break; sleep 0.1; done
U="http://127.0.0.1:$SRV_PORT/users?limit=30&concurrency=16"
for _ in $(seq 5); do curl -fs -o /dev/null "$U"; done
callgrind_control -i on $UP >/dev/null
urls=(); for _ in $(seq "$REQUESTS"); do urls+=("$U" -o /dev/null); done; curl -fs "${urls[@]}"
callgrind_control -i off $UP >/dev/null
kill $S $UP; wait $S $UP 2>/dev/null
f=$(ls -t "$OUT".[0-9]* | head -1)
echo "file: $f"
python3 "$(dirname "$0")/callgrind-summary.py" "$f" "$REQUESTS" | head -12
