# Sourced by the h2load benchmarks (scripts/bench-h2, scripts/bench-h2-users): one measured h2load
# run against a server started by the caller, and the helpers around it. The caller sets $work (a
# scratch directory it removes) and DURATION; results go to "$work/results.txt", one line per run:
#   LABEL req/s p50_ms p99_ms cpu_us_per_request other_cpu_cores
# req/s counts succeeded requests (2xx/3xx) only; `failed`/`errored` requests are reported apart so
# that a server answering errors fast is never mistaken for a fast one.
for tool in h2load openssl python3 curl; do
    command -v "$tool" >/dev/null || { echo "error: $tool is missing (apt-get install -y nghttp2-client openssl python3 curl)" >&2; exit 1; }
done

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# make_certificate: a self-signed P-256 certificate for 127.0.0.1 in $work/cert.pem, $work/key.pem.
make_certificate() {
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$work/key.pem" -out "$work/cert.pem" \
        -days 1 -subj /CN=localhost -addext subjectAltName=DNS:localhost,IP:127.0.0.1 2>/dev/null
}

# wait_answering CURL_ARGS... URL: polls (bounded, 10 s) until the URL answers 2xx, else fails.
wait_answering() {
    for _ in $(seq 200); do
        curl -skf --max-time 2 "$@" >/dev/null 2>&1 && return 0
        sleep 0.05
    done
    echo "error: no answer from curl $*" >&2
    exit 1
}

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
all_ticks() { awk '/^cpu /{print $2 + $3 + $4 + $7 + $8}' /proc/stat; }

# h2load_run LABEL PID URL H2LOAD_ARGS...: one h2load run of DURATION seconds; appends its line to
# $work/results.txt and echoes it to stderr. Server CPU is PID's utime + stime from /proc over the run;
# other_cpu is what every other process used meanwhile (h2load's own thread included: about one core).
h2load_run() {
    local label="$1" pid="$2" url="$3"; shift 3
    local log="$work/$label.$RANDOM.log" before all_before started out
    before=$(cpu_ticks "$pid"); all_before=$(all_ticks); started=$(date +%s.%N)
    out=$(h2load "$@" -D "$DURATION" -t 1 --log-file="$log" "$url" 2>&1)
    local elapsed used all succeeded failed errored
    elapsed=$(python3 -c "import time; print(time.time() - $started)")
    used=$(( $(cpu_ticks "$pid") - before )); all=$(( $(all_ticks) - all_before ))
    succeeded=$(grep -oE '[0-9]+ succeeded' <<<"$out" | grep -oE '^[0-9]+' || echo 0)
    failed=$(grep -oE '[0-9]+ failed' <<<"$out" | head -1 | grep -oE '^[0-9]+' || echo 0)
    errored=$(grep -oE '[0-9]+ errored' <<<"$out" | grep -oE '^[0-9]+' || echo 0)
    if (( failed + errored > 0 )); then
        echo "warning: $label: $failed failed, $errored errored requests ($(grep -E 'status codes' <<<"$out" | xargs))" >&2
    fi
    python3 - "$label" "$log" "$succeeded" "$used" "$all" "$(getconf CLK_TCK)" "$elapsed" "$DURATION" <<'PY' >>"$work/results.txt"
import sys
label, log, ok, used, total, hz, elapsed, duration = sys.argv[1:]
# h2load's log: start time, status, latency in µs; only 2xx/3xx count.
lat = sorted(int(f[2]) for f in (line.split() for line in open(log)) if len(f) >= 3 and 200 <= int(f[1]) < 400)
pct = lambda q: lat[min(len(lat) - 1, int(q * len(lat)))] / 1000 if lat else float("nan")
ok, used, total, hz, elapsed = int(ok or 0), int(used), int(total), int(hz), float(elapsed)
other = max(total - used, 0) / hz / elapsed
print(f"{label} {ok / float(duration):.0f} {pct(0.5):.3f} {pct(0.99):.3f} {used / hz / max(ok, 1) * 1e6:.2f} {other:.2f}")
PY
    tail -1 "$work/results.txt" >&2
}
