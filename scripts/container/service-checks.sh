# Sourced by scripts/container-test: checks run against the running container.
# Each prints one "ok"/"FAIL" line and returns non-zero on failure; polling is
# bounded by a deadline so a broken image fails the run instead of hanging it.

now_ms() { date +%s%3N; }

pass() { echo "  ok    $*"; }
fail() { echo "  FAIL  $*" >&2; return 1; }

# Polls GET $1 until it answers 200 or $2 milliseconds pass; prints the
# milliseconds it took.
wait_for_200() {
    local url=$1 budget_ms=$2 start
    start=$(now_ms)
    while (($(now_ms) - start < budget_ms)); do
        if [[ $(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "$url" 2>/dev/null) == 200 ]]; then
            echo $(($(now_ms) - start))
            return 0
        fi
        sleep 0.01
    done
    return 1
}

# Passes when $2 equals $3; $1 names the setting.
expect_setting() {
    local name=$1 actual=$2 expected=$3
    if [[ $actual == "$expected" ]]; then pass "$name $actual"; else fail "$name is '$actual', expected '$expected'"; fi
}

check_image_config() {
    local image=$1 config user status=0
    config=$(podman image inspect --format json "$image" | jq '.[0] | .Config + {Healthcheck: (.Healthcheck // .Config.Healthcheck)}')
    user=$(jq -r '.User // ""' <<<"$config")
    if [[ -n $user && ${user%%:*} != 0 && ${user%%:*} != root ]]; then
        pass "runs as non-root user $user"
    else
        fail "image user is '$user'"; status=1
    fi
    expect_setting "exec-form ENTRYPOINT" "$(jq -c '.Entrypoint' <<<"$config")" '["stream-service"]' || status=1
    expect_setting "CMD" "$(jq -c '.Cmd' <<<"$config")" '["serve"]' || status=1
    expect_setting "EXPOSE" "$(jq -c '.ExposedPorts | keys' <<<"$config")" '["8080/tcp"]' || status=1
    expect_setting "STOPSIGNAL" "$(jq -r '.StopSignal // ""' <<<"$config")" SIGTERM || status=1
    # Only the docker format keeps HEALTHCHECK; OCI images drop it silently.
    expect_setting "HEALTHCHECK" "$(jq -c '.Healthcheck.Test // empty' <<<"$config")" '["CMD","stream-service","healthcheck"]' || status=1
    return $status
}

check_shared_libraries() {
    local image=$1 libs
    libs=$(podman run --rm --entrypoint ldd "$image" /usr/local/bin/stream-service) || { fail "ldd failed"; return 1; }
    if grep -q 'not found' <<<"$libs"; then
        fail "missing shared libraries: $(grep 'not found' <<<"$libs" | tr -s ' \t\n' ' ')"
        return 1
    fi
    pass "ldd: $(awk '/=>/ {print $1}' <<<"$libs" | tr '\n' ' ')"
}

check_users() {
    local base=$1 body code
    body=$(mktemp)
    code=$(curl -s -o "$body" -w '%{http_code}' --max-time 30 "$base/users?limit=5")
    if [[ $code == 200 ]] && jq -e 'if type == "array" then length > 0 else (.users | length > 0) end' "$body" >/dev/null 2>&1; then
        pass "GET /users?limit=5 -> 200, $(jq -c 'if type == "array" then length else (.users | length) end' "$body") users"
        rm -f "$body"
    else
        fail "GET /users?limit=5 -> $code: $(head -c 300 "$body")"
        rm -f "$body"
        return 1
    fi
}

check_ticks_feed() {
    local base=$1 out headers
    out=$(mktemp); headers=$(mktemp)
    curl -sN --max-time 10 -D "$headers" -o "$out" "$base/ticks?everyMs=100&count=5" || true
    local ticks ids content_type
    ticks=$(grep -c '^data: tick [0-4]$' "$out" || true)
    ids=$(grep '^id: ' "$out" | cut -d' ' -f2 | tr -d '\r' | tr '\n' ' ')
    content_type=$(grep -i '^content-type:' "$headers" | tr -d '\r' | cut -d' ' -f2-)
    rm -f "$out" "$headers"
    if [[ $ticks == 5 && $ids == '0 1 2 3 4 ' && $content_type == text/event-stream* ]]; then
        pass "GET /ticks?everyMs=100&count=5 -> $content_type, ids $ids"
    else
        fail "ticks feed: $ticks tick lines, ids '$ids', content-type '$content_type'"
        return 1
    fi
}

check_healthcheck() {
    local container=$1 output
    if output=$(podman healthcheck run "$container" 2>&1); then
        pass "podman healthcheck run -> ${output:-healthy}"
    else
        fail "podman healthcheck run -> $output"
        return 1
    fi
}

# `podman stop` while an SSE client is connected: the service must close the
# feed and exit 0 on SIGTERM well before podman's grace period would SIGKILL it.
check_graceful_stop() {
    local container=$1 base=$2 grace_s=$3 feed client_pid start stopped_ms exit_code
    feed=$(mktemp)
    curl -sN --max-time $((grace_s + 30)) "$base/ticks?everyMs=200&count=100000" > "$feed" 2>/dev/null &
    client_pid=$!
    start=$(now_ms)
    until grep -q '^data: tick 1' "$feed" 2>/dev/null; do
        if (($(now_ms) - start > 5000)); then
            kill "$client_pid" 2>/dev/null; wait "$client_pid" 2>/dev/null
            rm -f "$feed"
            fail "SSE client got no ticks within 5 s"
            return 1
        fi
        sleep 0.05
    done
    start=$(now_ms)
    podman stop --time "$grace_s" "$container" >/dev/null
    stopped_ms=$(($(now_ms) - start))
    exit_code=$(podman inspect --format '{{.State.ExitCode}}' "$container")
    # The feed must end on its own once the server has shut down.
    local waited=0
    while kill -0 "$client_pid" 2>/dev/null && ((waited < 50)); do sleep 0.1; waited=$((waited + 1)); done
    local client_alive=no
    if kill -0 "$client_pid" 2>/dev/null; then client_alive=yes; kill "$client_pid" 2>/dev/null; fi
    wait "$client_pid" 2>/dev/null || true
    local tail_lines
    tail_lines=$(grep -v '^$' "$feed" | tail -n 3 | tr -d '\r' | tr '\n' '|')
    rm -f "$feed"
    if [[ $exit_code == 0 && $stopped_ms -lt $((grace_s * 1000)) && $client_alive == no ]]; then
        pass "podman stop with an SSE client connected: exit 0 after ${stopped_ms} ms (grace ${grace_s} s); feed ended with: $tail_lines"
        # Read by scripts/container-test for its summary.
        # shellcheck disable=SC2034
        STOP_MS=$stopped_ms
    else
        fail "podman stop: exit code $exit_code after ${stopped_ms} ms (grace ${grace_s} s), SSE client still open: $client_alive; feed ended with: $tail_lines"
        return 1
    fi
}
