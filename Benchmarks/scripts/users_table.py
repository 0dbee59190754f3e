#!/usr/bin/env python3
"""Summarise scripts/bench-users' comparison lines (stdin): per upstream latency, medians per server;
per pair (a peer and the ours asking the upstream for the same encoding), the per-round ratios
ours/peer with their spread and median, the ratios of the medians, and issue 12's goals (Hummingbird).

Input lines: `PAIR <peer> ours=<ours-…> gzip=…`, `USERS <server> latency=L round=R rps=… p50=… p99=…
errors=… cpu_ms=… upstream_cpu_ms=… wrk_cpu=… other_cpu=…`, `SINGLE <server> latency=L ms=…`,
`RSS <server> latency=L mb=…`, `SAME <peer> …`, `LOAD before|after …`. Lines of the format before
issue 25 (servers `ours` and `peer`, no PAIR line) are read as the pair peer/ours.
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


KEYS = ("rps", "p50", "p99", "cpu_ms", "upstream_cpu_ms", "other_cpu")
runs, single, rss, pairs, notes = {}, {}, {}, {}, []
for raw in sys.stdin:
    parts = raw.split()
    if len(parts) < 2:
        continue
    kind, server, rest = parts[0], parts[1], " ".join(parts[2:])
    latency = num(rest, "latency")
    if kind == "USERS" and "FAILED" not in rest:
        runs.setdefault((latency, server), {})[int(num(rest, "round"))] = {k: num(rest, k) for k in KEYS + ("errors",)}
    elif kind == "SINGLE":
        single[(latency, server)] = num(rest, "ms")
    elif kind == "RSS":
        rss[(latency, server)] = num(rest, "mb")
    elif kind == "PAIR":
        pairs[server] = re.search(r"\bours=(\S+)", rest).group(1)
    elif kind in ("SAME", "LOAD"):
        notes.append(raw.strip())
if not pairs and any(s == "peer" for _, s in runs):
    pairs = {"peer": "ours"}

latencies = sorted({l for l, _ in runs})
servers = []
for peer, ours in pairs.items():
    servers += [s for s in (ours, peer) if s not in servers]

header = ["upstream", "server", "req/s", "p50 ms", "p99 ms", "CPU ms/req", "upstream CPU ms/req", "other_cpu max",
          "peak RSS MB", "single ms", "errors", "rounds"]
rows = []
for latency in latencies:
    for s in servers:
        rounds = runs.get((latency, s), {})
        m = {k: med([r[k] for r in rounds.values()]) for k in KEYS}
        other = [r["other_cpu"] for r in rounds.values() if r["other_cpu"] is not None]
        rows.append([f"{latency:g} ms", s, fmt(m["rps"]), fmt(m["p50"]), fmt(m["p99"]), fmt(m["cpu_ms"], 2),
                     fmt(m["upstream_cpu_ms"], 2), fmt(max(other) if other else None, 2), fmt(rss.get((latency, s))),
                     fmt(single.get((latency, s))), int(sum(r["errors"] or 0 for r in rounds.values())), len(rounds)])
widths = [max(len(str(row[i])) for row in [header] + rows) for i in range(len(header))]
line = lambda cells: "| " + " | ".join(str(c).ljust(w) for c, w in zip(cells, widths)) + " |"
print(line(header))
print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
for row in rows:
    print(line(row))

print()
verdicts = []
for latency in latencies:
    for peer, ours in pairs.items():
        a, b = runs.get((latency, ours), {}), runs.get((latency, peer), {})
        both = sorted(set(a) & set(b))
        if not both:
            continue
        parts = []
        for key, label in (("rps", "req/s"), ("cpu_ms", "CPU/request"), ("p99", "p99")):
            per_round = [ratio(a[r][key], b[r][key]) for r in both]
            per_round = [x for x in per_round if x is not None]
            of_medians = ratio(med([a[r][key] for r in both]), med([b[r][key] for r in both]))
            if per_round:
                parts.append(f"{label} {', '.join(f'{x:.2f}' for x in per_round)} (median {statistics.median(per_round):.2f}×, "
                             f"spread {min(per_round):.2f}–{max(per_round):.2f}×; of the medians {fmt(of_medians, 2)}×)")
        single_ratio = ratio(single.get((latency, ours)), single.get((latency, peer)))
        rss_ratio = ratio(rss.get((latency, ours)), rss.get((latency, peer)))
        print(f"{latency:g} ms, {ours}/{peer}, per round: " + "; ".join(parts)
              + f"; single request {fmt(single_ratio, 2)}×; peak RSS {fmt(rss_ratio, 2)}×")
        if peer in ("hummingbird", "peer"):
            m = {k: ratio(med([a[r][k] for r in both]), med([b[r][k] for r in both])) for k in ("rps", "p99", "cpu_ms")}
            met = lambda ok: "met" if ok else "MISSED"
            goals = [f"p99 ≤ peer {met(m['p99'] is not None and m['p99'] <= 1)}",
                     f"CPU/request ≤ 0.5× {met(m['cpu_ms'] is not None and m['cpu_ms'] <= 0.5)}",
                     f"single request ≤ peer {met(single_ratio is not None and single_ratio <= 1)}"]
            if latency == 0:
                goals.insert(0, f"req/s ≥ 2× {met(m['rps'] is not None and m['rps'] >= 2)}")
            verdicts.append(f"{latency:g} ms: " + ", ".join(goals))
others = [r["other_cpu"] for rounds in runs.values() for r in rounds.values() if r["other_cpu"] is not None]
if others:
    print(f"other_cpu (cores other sessions took during the rounds): {min(others):.2f}–{max(others):.2f}, median "
          f"{statistics.median(others):.2f}" + ("; above 0.2 the machine was busy: compare ratios within a round" if max(others) > 0.2 else ""))
for note in notes:
    print(note)
if verdicts:
    print("goals (issue 12, against Hummingbird): " + "; ".join(verdicts))
