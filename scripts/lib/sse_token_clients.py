#!/usr/bin/env python3
"""sse_clients.py (the shared SSE load client) with a bearer token of its own on every
connection, spread over several client processes, and the rate subscribers are admitted.

usage: sse_token_clients.py TOOLS_DIR TOKENS_FILE URL -n N [--processes P] [--pid SERVER_PID]
                            [sse_clients.py options...]
TOKENS_FILE holds one token a line, at least N of them; connection i sends token i.

Why several processes: one asyncio process (no uvloop here) makes a few thousand connections
a second at 100 % of a core, so with one client the figure was the client's pace, and the
server's extra work per connect showed only as CPU taken from the client. Each of P processes
(default 2) holds N/P connections; they start together at an agreed instant.

Figures, over all processes:
  subscribe_rate_per_s  subscribers whose `200` head arrived, per second from the start to the
                        last such head: the server's accept, parse, token check and subscribe
                        (the issue's "connect rate");
  tcp_connect_rate_per_s  handshakes done per second (the kernel completes them from the listen
                        backlog, so this mostly shows the client's own pace);
  lag and time-to-first-event percentiles as sse_clients.py defines them, from every sample;
  server_cpu_cores, client_cpu_pct (all processes), other_cpu_cores (the rest of the machine).
Prints one JSON object. Only loopback targets (sse_clients.py refuses any other).
"""
import json
import os
import subprocess
import sys
import threading
import time


def worker(tools, tokens_file, first, start_at, rest):
    """One client process: sse_clients.main_async over its slice of the tokens; prints its raw samples."""
    sys.path.insert(0, tools)
    import asyncio
    import itertools
    import sse_clients

    with open(tokens_file) as f:
        tokens = [line.strip() for line in f if line.strip()]
    order = itertools.count(first)
    conns = []

    class TokenConn(sse_clients.SSEConn):
        def __init__(self, client, request, t_start):
            index = next(order)
            if index >= len(tokens):
                sys.exit(f"{tokens_file} has {len(tokens)} tokens, fewer than the connections")
            request = request.replace(b"\r\n\r\n", f"\r\nAuthorization: Bearer {tokens[index]}\r\n\r\n".encode(), 1)
            super().__init__(client, request, t_start)
            self.made = None
            self.head = None
            conns.append(self)

        def connection_made(self, transport):
            self.made = time.monotonic()
            super().connection_made(transport)

        def data_received(self, data):
            waiting = self.status is None
            super().data_received(data)
            if waiting and self.status == 200:
                self.head = time.monotonic()

    sse_clients.SSEConn = TokenConn
    import argparse
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("-n", type=int)
    parser.add_argument("--pid", type=int)
    parser.add_argument("--events", type=int, default=50)
    parser.add_argument("--interval", type=float, default=0.1)
    parser.add_argument("--connect-concurrency", type=int, default=256)
    parser.add_argument("--deadline", type=float, default=60)
    args = parser.parse_args(rest)
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.n + 256)), hard))
    time.sleep(max(0.0, start_at - time.monotonic()))
    summary = asyncio.run(sse_clients.main_async(args))
    lags, ttfes = [], []
    for c in conns:
        if c.arrivals:
            # As sse_clients.py: each stream's lag against its own best schedule origin.
            origin = min(t - k * args.interval for k, t in c.arrivals)
            lags.extend(t - (origin + k * args.interval) for k, t in c.arrivals)
        if c.ttfe is not None:
            ttfes.append(c.ttfe)
    json.dump({
        "summary": summary, "lags": lags, "ttfes": ttfes,
        "made": [c.made for c in conns if c.made is not None],
        "heads": [c.head for c in conns if c.head is not None],
    }, sys.stdout)


def main():
    argv = sys.argv[1:]
    if len(argv) >= 2 and argv[0] == "--worker":
        tools, tokens_file, first, start_at = argv[1], argv[2], int(argv[3]), float(argv[4])
        worker(tools, tokens_file, first, start_at, argv[5:])
        return
    if len(argv) < 3:
        sys.exit(__doc__)
    tools, tokens_file, url, rest = argv[0], argv[1], argv[2], argv[3:]
    sys.path.insert(0, tools)
    import sse_clients

    def take(flag, default, kind):
        if flag in rest:
            i = rest.index(flag)
            value = kind(rest[i + 1])
            del rest[i:i + 2]
            return value
        return default
    n = take("-n", None, int)
    processes = take("--processes", 2, int)
    pid = take("--pid", None, int)
    interval = float(rest[rest.index("--interval") + 1]) if "--interval" in rest else 0.1
    if n is None or n < 1 or processes < 1:
        sys.exit("need -n N (at least 1) and --processes P (at least 1)")
    shares = [n // processes + (1 if i < n % processes else 0) for i in range(processes)]
    # Every process starts connecting at one instant, after all have imported and read the tokens.
    start_at = time.monotonic() + 1.5
    children, first = [], 0
    for share in shares:
        if share == 0:
            continue
        command = [sys.executable, __file__, "--worker", tools, tokens_file, str(first), repr(start_at),
                   url, "-n", str(share)] + (["--pid", str(pid)] if pid else []) + rest
        children.append(subprocess.Popen(command, stdout=subprocess.PIPE))
        first += share

    # The server's RSS and CPU, and the machine's, sampled here over the whole window.
    peak_rss = [sse_clients.rss_kb(pid) or 0 if pid else 0]
    done = threading.Event()

    def sample():
        while not done.wait(0.2):
            rss = sse_clients.rss_kb(pid)
            if rss:
                peak_rss[0] = max(peak_rss[0], rss)
    sampler = threading.Thread(target=sample, daemon=True)
    if pid:
        sampler.start()
    time.sleep(max(0.0, start_at - time.monotonic()))
    server0 = sse_clients.proc_cpu_s(pid) if pid else None
    busy0, clients0 = sse_clients.machine_busy_s(), os.times()
    outputs = [child.communicate()[0] for child in children]
    wall = time.monotonic() - start_at
    done.set()
    server1 = sse_clients.proc_cpu_s(pid) if pid else None
    busy, clients1 = sse_clients.machine_busy_s() - busy0, os.times()
    client_cpu = (clients1.children_user - clients0.children_user) + (clients1.children_system - clients0.children_system)
    if any(child.returncode != 0 for child in children):
        sys.exit(f"a client process failed: exit codes {[child.returncode for child in children]}")

    parts = [json.loads(out) for out in outputs]
    lags = [x for p in parts for x in p["lags"]]
    ttfes = [x for p in parts for x in p["ttfes"]]
    made = [x for p in parts for x in p["made"]]
    heads = [x for p in parts for x in p["heads"]]
    reasons = {}
    for p in parts:
        for reason, count in p["summary"]["end_reasons"].items():
            reasons[reason] = reasons.get(reason, 0) + count
    total = lambda key: sum(p["summary"][key] for p in parts)
    server_cpu = (server1 - server0) if server0 is not None and server1 is not None else None
    rate = lambda stamps: round(len(stamps) / (max(stamps) - start_at), 1) if stamps and max(stamps) > start_at else None
    print(json.dumps({
        "url": url, "n": n, "processes": len(children),
        "full": total("full"), "partial": total("partial"), "no_event": total("no_event"),
        "connect_fail": total("connect_fail"), "refused_503": reasons.get("status-503", 0),
        "events": len(lags), "events_expected": total("events_expected"),
        "subscribed": len(heads), "subscribe_rate_per_s": rate(heads),
        "connected": len(made), "tcp_connect_rate_per_s": rate(made),
        "ttfe_p50_ms": round(sse_clients.pct(ttfes, 50) * 1000, 1), "ttfe_p99_ms": round(sse_clients.pct(ttfes, 99) * 1000, 1),
        "lag_p50_ms": round(sse_clients.pct(lags, 50) * 1000, 1), "lag_p99_ms": round(sse_clients.pct(lags, 99) * 1000, 1),
        "lag_max_ms": round(max(lags) * 1000, 1) if lags else None,
        "wall_s": round(wall, 1), "client_cpu_pct": round(100 * client_cpu / wall, 0),
        "server_cpu_cores": round(server_cpu / wall, 2) if server_cpu is not None else None,
        "other_cpu_cores": round((busy - client_cpu - (server_cpu or 0)) / wall, 2),
        "rss_peak_mb": round(peak_rss[0] / 1024, 1) if pid else None,
        "end_reasons": reasons, "interval": interval,
    }))


if __name__ == "__main__":
    main()
