#!/usr/bin/env python3
"""Summarise scripts/bench-server's raw lines (stdin) into medians per server and ratios ours/peer.

Input lines: `HEALTH <server> /health c=N rps=… p50=…ms p99=…ms … rss_peak=…MB … other_cpu=…` (load.sh),
`RATE <server> /health c=N rate=R … p99=…ms … srv_cpu_us=…` (rate-load), `TICKS <server> {json}` and `EVENTS<N> <server> {json}` (sse_clients.py --json).
"""
import json
import re
import statistics
import sys

PEERS = ["hummingbird", "flyingfox"]
# `ours-dispatch`: ours on the Dispatch engine (OURS_DISPATCH=1); `floor`: the minimal C epoll server.
ORDER = ["ours", "ours-dispatch"] + PEERS + ["floor"]


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def num(text, key):
    m = re.search(rf"\b{key}=(-?[0-9.]+)", text)
    return float(m.group(1)) if m else None


def fmt(v, digits=1):
    if v is None:
        return "–"
    return f"{v:,.{digits}f}"


def ratio(a, b):
    return f"{a / b:.2f}×" if a is not None and b else "–"


def table(header, rows):
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    line = lambda cells: "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"
    print(line(header))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print(line(r))


health, rated, ticks, events, capacity = {}, {}, {}, {}, []
for raw in sys.stdin:
    parts = raw.strip().split(" ", 2)
    if len(parts) < 3:
        continue
    kind, server, rest = parts
    if kind == "HEALTH":
        c = int(num(rest, "c") or 0)
        if "FAILED" in rest:
            health.setdefault((c, server), []).append({"failed": True})
            continue
        errors = re.search(r"err=(\d+)", rest)
        health.setdefault((c, server), []).append({
            "rps": num(rest, "rps"), "p50": num(rest, "p50"), "p99": num(rest, "p99"),
            "err": int(errors.group(1)) if errors else None, "rss": num(rest, "rss_peak"),
            "other": num(rest, "other_cpu"), "failed": False,
            # Server CPU per request in µs: busy cores over the run / requests per second.
            "cpu_us": (num(rest, "srv_cpu") / num(rest, "rps") * 1e6) if num(rest, "srv_cpu") is not None and num(rest, "rps") else None,
        })
    elif kind == "RATE":
        key = (int(num(rest, "c") or 0), int(num(rest, "rate") or 0))
        rated.setdefault(key, {}).setdefault(server, []).append(
            {k: num(rest, k) for k in ("achieved", "p50", "p99", "p999", "max", "srv_cpu_us", "client_late_p99", "errors", "non2xx")})
    elif kind == "CAPACITY":
        try:
            capacity.append((server, json.loads(rest)))
        except json.JSONDecodeError:
            continue
    elif kind == "TICKS" or kind.startswith("EVENTS"):
        try:
            result = json.loads(rest)
        except json.JSONDecodeError:
            continue
        target = ticks if kind == "TICKS" else events.setdefault(int(kind[6:]), {})
        target.setdefault(server, []).append(result)

if health:
    print("\nGET /health (wrk -t2, medians over rounds; ratios are ours/peer req/s and ours/peer p99)")
    rows = []
    for c in sorted({c for c, _ in health}):
        summary = {}
        for server in ORDER:
            runs = [r for r in health.get((c, server), []) if not r["failed"]]
            failed = len(health.get((c, server), [])) - len(runs)
            summary[server] = {k: med([r[k] for r in runs]) for k in ("rps", "p50", "p99", "rss", "other", "cpu_us")}
            summary[server]["err"] = sum(r["err"] or 0 for r in runs)
            summary[server]["rounds"] = f"{len(runs)}" + (f" (+{failed} failed)" if failed else "")
        for server in ORDER:
            if not health.get((c, server)):
                continue
            s = summary[server]
            if server.startswith("ours"):
                vs = " ; ".join(f"{p}: rps {ratio(s['rps'], summary[p]['rps'])}, p99 {ratio(s['p99'], summary[p]['p99'])}, "
                                f"CPU/req {ratio(s['cpu_us'], summary[p]['cpu_us'])}"
                                for p in PEERS + ["floor"] if health.get((c, p)))
            else:
                vs = ""
            rows.append([f"c={c}", server, fmt(s["rps"], 0), fmt(s["p50"], 2), fmt(s["p99"], 2), fmt(s["cpu_us"], 1), s["err"],
                         fmt(s["rss"]), fmt(s["other"], 2), s["rounds"], vs])
    table(["conns", "server", "req/s", "p50 ms", "p99 ms", "CPU µs/req", "errors", "RSS MB", "other_cpu", "rounds", "ours vs peer"], rows)
    verdicts = []
    for c in sorted({c for c, _ in health}):
        o = [r for r in health.get((c, "ours"), []) if not r["failed"]]
        h = [r for r in health.get((c, "hummingbird"), []) if not r["failed"]]
        f = [r for r in health.get((c, "floor"), []) if not r["failed"]]
        parts = []
        if o and h:
            rps_ok = med([r["rps"] for r in o]) >= 1.3 * med([r["rps"] for r in h])
            p99_ok = med([r["p99"] for r in o]) <= med([r["p99"] for r in h])
            parts += [f"req/s ≥ 1.3× HB {'met' if rps_ok else 'MISSED'}", f"p99 ≤ HB {'met' if p99_ok else 'MISSED'}"]
        if o and f:
            cpu_o, cpu_f = med([r["cpu_us"] for r in o]), med([r["cpu_us"] for r in f])
            cpu_ok = cpu_o is not None and cpu_f is not None and cpu_o <= 2 * cpu_f
            parts.append(f"CPU/req ≤ 2× floor {'met' if cpu_ok else 'MISSED'} ({ratio(cpu_o, cpu_f)})")
        if parts:
            verdicts.append(f"c={c}: " + ", ".join(parts))
    if verdicts:
        print("goals (issue 12): " + "; ".join(verdicts))


def sse_rows(results, servers):
    rows = []
    for server in servers:
        runs = results.get(server, [])
        if not runs:
            continue
        pick = lambda k: med([r.get(k) for r in runs])
        rows.append([server, f"{fmt(pick('full'), 0)}/{runs[0]['n']}", fmt(pick("connect_fail"), 0),
                     f"{fmt(pick('events'), 0)}/{fmt(pick('events_expected'), 0)}",
                     fmt(pick("ttfe_p50_ms")), fmt(pick("ttfe_p99_ms")), fmt(pick("lag_p50_ms")), fmt(pick("lag_p99_ms")),
                     fmt(pick("rss_peak_mb")), fmt(pick("threads_peak"), 0), fmt(pick("server_cpu_cores"), 2),
                     fmt(pick("client_cpu_pct"), 0), fmt(pick("other_cpu_cores"), 2), len(runs)])
    return rows


SSE_HEADER = ["server", "complete", "conn fail", "events", "TTFE p50 ms", "TTFE p99 ms", "lag p50 ms", "lag p99 ms",
              "RSS MB", "threads", "srv cpu", "client cpu%", "other_cpu", "runs"]

if rated:
    print("\nGET /health at a fixed offered rate (rate-load, open loop, latency from when each request was due; medians over rounds)")
    rows = []
    for c, rate in sorted(rated):
        runs = rated[(c, rate)]
        summary = {server: {k: med([r[k] for r in runs[server]]) for k in runs[server][0]} for server in runs}
        for server in [s for s in ORDER if s in runs]:
            r = summary[server]
            vs = ""
            if server.startswith("ours"):
                vs = " ; ".join(f"{p}: p99 {ratio(r['p99'], summary[p]['p99'])}, p99.9 {ratio(r['p999'], summary[p]['p999'])}, "
                                f"CPU/req {ratio(r['srv_cpu_us'], summary[p]['srv_cpu_us'])}"
                                for p in PEERS + ["floor"] if p in summary)
            rows.append([f"c={c}", f"{rate:,}", server, fmt(r["achieved"], 0), fmt(r["p50"], 2), fmt(r["p99"], 2), fmt(r["p999"], 2),
                         fmt(r["max"], 1), fmt(r["srv_cpu_us"], 1), fmt(r["client_late_p99"], 2),
                         int(sum((x["errors"] or 0) + (x["non2xx"] or 0) for x in runs[server])), len(runs[server]), vs])
    table(["conns", "offered req/s", "server", "achieved", "p50 ms", "p99 ms", "p99.9 ms", "max ms", "CPU µs/req",
           "client late p99 ms", "errors", "rounds", "ours vs peer"], rows)

if ticks:
    print("\nSSE /ticks?everyMs=100&count=50 (sse_clients.py; medians over runs)")
    table(SSE_HEADER, sse_rows(ticks, ORDER))
    lag = {s: med([r.get("lag_p99_ms") for r in ticks.get(s, [])]) for s in ORDER}
    ttfe = med([r.get("ttfe_p99_ms") for r in ticks.get("ours", [])])
    peers = [lag[p] for p in PEERS if lag.get(p) is not None]
    if lag.get("ours") is not None and peers:
        best = min(peers)
        print(f"lag p99 ours/better peer = {ratio(lag['ours'], best)} (goal ≤ 0.50×: "
              f"{'met' if lag['ours'] <= best / 2 else 'MISSED'}); TTFE p99 ours = {fmt(ttfe)} ms "
              f"(goal < 1,000 ms: {'met' if ttfe is not None and ttfe < 1000 else 'MISSED'})")

for n in sorted(events):
    print(f"\nSSE /events broadcast, {n:,} clients (one event per second; complete = connected to the end)")
    table(SSE_HEADER, sse_rows(events[n], ORDER))
    ours = events[n].get("ours", [])
    if ours:
        lag = med([r.get("lag_p99_ms") for r in ours])
        rss = med([r.get("rss_peak_mb") for r in ours])
        print(f"ours: lag p99 {fmt(lag)} ms (goal < 100 ms: {'met' if lag is not None and lag < 100 else 'MISSED'}), "
              f"RSS {fmt(rss)} MB (goal < 300 MB: {'met' if rss is not None and rss < 300 else 'MISSED'})")

floor_runs = [run for server, run in capacity if server == "broadcast-floor"]
for server, run in capacity:
    cpu = run.get("server_cpu_s")
    per_delivery = f", server CPU {cpu / run['events'] * 1e6:.1f} µs per delivery" if cpu is not None and run["events"] else ""
    print(f"\nSSE capacity, {server} (Benchmarks/sse-load, {run['processes']} client processes): {run['held']:,} of {run['n']:,} held, "
          f"{run['open_at_end']:,} open at the end, {run['failed']:,} failed, {run['closed_early']:,} closed early; "
          f"{run['events']:,} events, lag from each tick's stamp p50 {run['lag_p50_ms']} ms, p99 {run['lag_p99_ms']} ms, max {run['lag_max_ms']} ms; "
          f"server RSS peak {run['rss_peak_mb']} MB{per_delivery}; client turn p99 {run['client_turn_p99_ms']} ms, "
          f"max {run['client_turn_max_ms']} ms, client CPU {run.get('client_cpu_s', '?')} s; load average {run.get('load_average', '?')}")
    if server != "ours":
        continue
    if floor_runs and cpu is not None and floor_runs[-1].get("server_cpu_s") and floor_runs[-1]["events"] and run["events"]:
        floor = floor_runs[-1]
        ratio = (cpu / run["events"]) / (floor["server_cpu_s"] / floor["events"])
        print(f"ours / floor: lag p99 {run['lag_p99_ms'] / max(floor['lag_p99_ms'], 0.1):.2f}x, server CPU per delivery {ratio:.2f}x")
    ok = run["held"] == run["n"] == run["open_at_end"]
    print(f"goals (issue 12, 50,000 subscribers): all held {'met' if ok and run['n'] >= 50000 else 'MISSED'}"
          f"{'' if run['n'] >= 50000 else f' (only {run[chr(110)]:,} tried: file limit)'}, "
          f"lag p99 ≤ 250 ms {'met' if run['lag_p99_ms'] <= 250 else 'MISSED'}, RSS ≤ 500 MB {'met' if run['rss_peak_mb'] <= 500 else 'MISSED'}")
