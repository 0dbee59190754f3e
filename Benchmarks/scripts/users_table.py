#!/usr/bin/env python3
"""Summarise scripts/bench-users' comparison lines (stdin): medians per server and upstream latency,
ratios ours/peer, and issue 12's goals.

Input lines: `USERS <server> latency=L round=R rps=… p50=… p99=… errors=… cpu_ms=…`,
`SINGLE <server> latency=L ms=…`, `RSS <server> latency=L mb=…`.
"""
import re
import statistics
import sys


def num(text, key):
    m = re.search(rf"\b{key}=(-?[0-9.]+)", text)
    return float(m.group(1)) if m else None


def med(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt(v, digits=1):
    return "–" if v is None else f"{v:,.{digits}f}"


def ratio(a, b):
    return a / b if a is not None and b else None


runs, single, rss = {}, {}, {}
for raw in sys.stdin:
    parts = raw.split()
    if len(parts) < 3:
        continue
    kind, server, rest = parts[0], parts[1], " ".join(parts[2:])
    latency = num(rest, "latency")
    if kind == "USERS" and "FAILED" not in rest:
        runs.setdefault((latency, server), []).append(
            {k: num(rest, k) for k in ("rps", "p50", "p99", "errors", "cpu_ms")})
    elif kind == "SINGLE":
        single[(latency, server)] = num(rest, "ms")
    elif kind == "RSS":
        rss[(latency, server)] = num(rest, "mb")

rows, verdicts = [], []
for latency in sorted({l for l, _ in runs}):
    m = {s: {k: med([r[k] for r in runs.get((latency, s), [])]) for k in ("rps", "p50", "p99", "cpu_ms")}
         for s in ("ours", "peer")}
    errors = {s: sum(r["errors"] or 0 for r in runs.get((latency, s), [])) for s in ("ours", "peer")}
    n = {s: len(runs.get((latency, s), [])) for s in ("ours", "peer")}
    for s in ("ours", "peer"):
        rows.append([f"{latency:g} ms", s, fmt(m[s]["rps"]), fmt(m[s]["p50"]), fmt(m[s]["p99"]), fmt(m[s]["cpu_ms"], 2),
                     fmt(rss.get((latency, s))), fmt(single.get((latency, s))), errors[s], n[s]])
    r = {k: ratio(m["ours"][k], m["peer"][k]) for k in ("rps", "p99", "cpu_ms")}
    rs = ratio(single.get((latency, "ours")), single.get((latency, "peer")))
    rows.append([f"{latency:g} ms", "ours/peer", f"{fmt(r['rps'], 2)}×", "", f"{fmt(r['p99'], 2)}×",
                 f"{fmt(r['cpu_ms'], 2)}×", f"{fmt(ratio(rss.get((latency, 'ours')), rss.get((latency, 'peer'))), 2)}×",
                 f"{fmt(rs, 2)}×", "", ""])
    met = lambda ok: "met" if ok else "MISSED"
    goals = [f"p99 ≤ peer {met(r['p99'] is not None and r['p99'] <= 1)}",
             f"CPU/request ≤ 0.5× {met(r['cpu_ms'] is not None and r['cpu_ms'] <= 0.5)}",
             f"single request ≤ peer {met(rs is not None and rs <= 1)}"]
    if latency == 0:
        goals.insert(0, f"req/s ≥ 2× {met(r['rps'] is not None and r['rps'] >= 2)}")
    verdicts.append(f"{latency:g} ms: " + ", ".join(goals))

header = ["upstream", "server", "req/s", "p50 ms", "p99 ms", "CPU ms/req", "peak RSS MB", "single ms", "errors", "rounds"]
widths = [max(len(str(row[i])) for row in [header] + rows) for i in range(len(header))]
line = lambda cells: "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"
print(line(header))
print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
for row in rows:
    print(line(row))
print("goals (issue 12): " + "; ".join(verdicts))
