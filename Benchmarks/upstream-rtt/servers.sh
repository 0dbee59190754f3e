# Sourced by scripts/bench-upstream-rtt: the upstream it builds (a test CA, nghttpd over TLS, for
# ours without an HTTP/2 client an HTTP/1.1 TLS front, the delay proxy) and how each server under
# test is started against it. Every process is started in the background with its PID kept in
# PIDS, and stopped by that PID only (stop_pid).

declare -A PIDS=()
stop_pid() { # NAME: stops the process started under NAME, if any
    local pid="${PIDS[$1]:-}"
    [ -n "$pid" ] || return 0
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    PIDS[$1]=""
}
stop_all() { for name in "${!PIDS[@]}"; do stop_pid "$name"; done; }

# wait_for NAME URL [CURL_FLAGS...]: polls URL (bounded, 20 s) while NAME runs.
wait_for() {
    local name=$1 url=$2; shift 2
    for _ in $(seq 200); do
        curl -fs -o /dev/null --max-time 1 "$@" "$url" 2>/dev/null && return 0
        kill -0 "${PIDS[$name]}" 2>/dev/null || break
        sleep 0.1
    done
    echo "$name did not answer $url:" >&2; tail -5 "$WORK/$name.log" >&2; exit 1
}

# start NAME COMMAND...: in the background, output to $WORK/NAME.log.
start() {
    local name=$1; shift
    "$@" > "$WORK/$name.log" 2>&1 &
    PIDS[$name]=$!
}

# make_ca: a test CA and a certificate for 127.0.0.1 and localhost signed by it (openssl), in $WORK.
make_ca() {
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=bench-upstream-rtt test CA" \
        -keyout "$WORK/ca.key" -out "$WORK/ca.pem" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout "$WORK/upstream.key" -out "$WORK/upstream.csr" 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1,DNS:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' > "$WORK/upstream.ext"
    openssl x509 -req -in "$WORK/upstream.csr" -CA "$WORK/ca.pem" -CAkey "$WORK/ca.key" -CAcreateserial -days 2 \
        -extfile "$WORK/upstream.ext" -out "$WORK/upstream.pem" 2>/dev/null
    cat "$WORK/upstream.pem" "$WORK/upstream.key" > "$WORK/upstream-haproxy.pem"
}

# start_upstreams: nghttpd over TLS (h2 only) on NG_PORT, and for an HTTP/1.1 client an haproxy TLS
# front on H1_PORT (ALPN http/1.1) relaying to a cleartext nghttpd (h2c, NGC_PORT) serving the same files.
start_upstreams() {
    start nghttpd nghttpd -d "$WORK/docroot" "$NG_PORT" "$WORK/upstream.key" "$WORK/upstream.pem"
    start nghttpd-h2c nghttpd --no-tls -d "$WORK/docroot" "$NGC_PORT"
    cat > "$WORK/haproxy.cfg" <<CFG
global
    maxconn 4096
defaults
    mode http
    timeout connect 5s
    timeout client 60s
    timeout server 60s
frontend h1tls
    bind 127.0.0.1:$H1_PORT ssl crt $WORK/upstream-haproxy.pem alpn http/1.1
    default_backend files
backend files
    server nghttpd 127.0.0.1:$NGC_PORT proto h2
CFG
    start haproxy haproxy -db -f "$WORK/haproxy.cfg"
    wait_for nghttpd "https://127.0.0.1:$NG_PORT/users" --cacert "$WORK/ca.pem" --http2
    wait_for haproxy "https://127.0.0.1:$H1_PORT/users" --cacert "$WORK/ca.pem" --http1.1
}

# start_proxy TARGET_PORT: a fresh delay proxy (so its counts are this server's), the API origin on
# API_PORT and the avatar origin on AV_PORT, both to TARGET_PORT.
start_proxy() {
    start proxy "$PROXY_BIN" --delay "${DELAY_MS}ms" --stats "127.0.0.1:$STATS_PORT" \
        --route "127.0.0.1:$API_PORT=127.0.0.1:$1" --route "127.0.0.1:$AV_PORT=127.0.0.1:$1"
    wait_for proxy "http://127.0.0.1:$STATS_PORT/stats"
}

# proxy_counts: "api=ACCEPTED/MAXOPEN avatars=ACCEPTED/MAXOPEN" so far.
proxy_counts() {
    curl -fsS --max-time 5 "http://127.0.0.1:$STATS_PORT/stats" | python3 -c '
import json, sys
routes = json.load(sys.stdin)
print(" ".join("%s=%d/%d" % (name, r["accepted"], r["max_open"]) for name, r in zip(["api", "avatars"], routes)))'
}

# start_server NAME: one server under test on SERVER_PORT, its upstream https://127.0.0.1:API_PORT.
start_server() {
    local api="https://127.0.0.1:$API_PORT"
    case $1 in
        ours-h2|ours-h1|ours-direct)
            local flags=(--upstream-cache-bytes 0 --upstream-single-flight false)
            [ "$1" = ours-h2 ] && flags+=(--upstream-http2 auto)
            start "$1" env SSL_CERT_FILE="$WORK/ca.pem" "$OURS_BIN" serve --host 127.0.0.1 --port "$SERVER_PORT" \
                --log-level warning --upstream "$api" "${flags[@]}" ;;
        go) start go env SSL_CERT_FILE="$WORK/ca.pem" "$GO_BIN" --port "$SERVER_PORT" --upstream "$api" ;;
        hummingbird) start hummingbird "$PEER_BIN/hummingbird-users" --port "$SERVER_PORT" --upstream "$api" \
                --upstream-ca-file "$WORK/ca.pem" ;;
    esac
    wait_for "$1" "http://127.0.0.1:$SERVER_PORT/health"
}

# upstream_port NAME: where NAME's proxy relays: nghttpd (h2), or the HTTP/1.1 TLS front for ours-h1.
upstream_port() { [ "$1" = ours-h1 ] && echo "$H1_PORT" || echo "$NG_PORT"; }
