#!/usr/bin/env bash
# CPU per request of the demo upstream (`stream-service demo-upstream`), read from /proc/PID/stat
# (utime + stime) around a bounded wrk run on 127.0.0.1: a users page of 30 plain and with
# `Accept-Encoding: gzip`, and an avatar from the second (ephemeral) origin, its URL taken from the
# page. Given two binaries, each round runs both, interleaved, and prints new/old ratios.
#
# usage: Benchmarks/scripts/demo-upstream-cpu.sh NEW_BINARY [OLD_BINARY]
# env:   PORT=19150 DURATION=5s CONNECTIONS=16 ROUNDS=2
set -euo pipefail
NEW=$1; OLD=${2:-}; PORT=${PORT:-19150}; DURATION=${DURATION:-5s}; CONNECTIONS=${CONNECTIONS:-16}; ROUNDS=${ROUNDS:-2}
command -v wrk >/dev/null || { echo "demo-upstream-cpu: wrk is missing (apt-get install wrk)" >&2; exit 1; }
HZ=$(getconf CLK_TCK)

# Prints "users users-gzip avatar" CPU per request in µs for one binary.
measure() {
    local binary=$1 pid avatar
    "$binary" demo-upstream --host 127.0.0.1 --port "$PORT" >/dev/null 2>&1 &
    pid=$!
    trap 'kill "$pid" 2>/dev/null || true' RETURN
    for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$PORT/users" && break; sleep 0.1; done
    avatar=$(curl -fs "http://127.0.0.1:$PORT/users?per_page=30" | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["avatar_url"])')
    local figures=()
    for spec in "http://127.0.0.1:$PORT/users?per_page=30|" "http://127.0.0.1:$PORT/users?per_page=30|Accept-Encoding: gzip" "$avatar|"; do
        local url=${spec%%|*} header=${spec#*|} before after requests
        before=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
        if [ -n "$header" ]; then out=$(wrk -t1 -c"$CONNECTIONS" -d"$DURATION" -H "$header" "$url"); else out=$(wrk -t1 -c"$CONNECTIONS" -d"$DURATION" "$url"); fi
        after=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
        requests=$(echo "$out" | awk '/requests in/ { print $1 }')
        figures+=("$(python3 -c "print(round(($after - $before) / $HZ / $requests * 1e6, 1))")")
    done
    kill "$pid"; wait "$pid" 2>/dev/null || true
    echo "${figures[*]}"
}

echo "CPU per request in µs (users page of 30 | same with gzip | avatar), load: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$ROUNDS"); do
    read -r nu ng na <<<"$(measure "$NEW")"
    echo "round $round  new: $nu | $ng | $na"
    if [ -n "$OLD" ]; then
        read -r ou og oa <<<"$(measure "$OLD")"
        echo "round $round  old: $ou | $og | $oa"
        python3 -c "print('round $round  new/old: %.3f | %.3f | %.3f' % ($nu / $ou, $ng / $og, $na / $oa))"
    fi
done
