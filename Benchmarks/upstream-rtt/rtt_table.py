#!/usr/bin/env python3
"""The summary of scripts/bench-upstream-rtt: one row per server (medians over rounds), then ours
against the better peer on each figure. Reads the script's raw lines on stdin."""
import re
import statistics
import sys

latency, rate, other = {}, {}, []
for line in sys.stdin:
    fields = dict(re.findall(r'(\w+)=("[^"]*"|\S+)', line))
    kind, name = (line.split() + ["", ""])[:2]
    if kind == "LATENCY":
        latency.setdefault(name, []).append(fields)
    elif kind == "RATE":
        rate.setdefault((name, int(fields["clients"])), []).append(fields)
    elif kind in ("DIRECT", "LOAD"):
        other.append(line.strip())

names = list(latency)
clients = sorted({c for _, c in rate})


def median(rows, key):
    values = [float(row[key]) for row in rows if key in row]
    return statistics.median(values) if values else float("nan")


head = ["server", "cold ms", "warm ms", "conns after warm (api/avatars: accepted/most open)"]
for c in clients:
    head += [f"req/s c{c}", f"p99 ms c{c}", f"CPU µs/req c{c}", f"conns after c{c}"]
print("| " + " | ".join(head) + " |")
print("|" + "---|" * len(head))
for name in names:
    rows = latency[name]
    cells = [name, f"{median(rows, 'cold_ms'):.0f}", f"{median(rows, 'warm_ms'):.0f}", rows[-1]["connections_after_warm"].strip('"')]
    for c in clients:
        r = rate.get((name, c), [])
        cells += [f"{median(r, 'rps'):.1f}", f"{median(r, 'p99_ms'):.0f}", f"{median(r, 'cpu_us_per_request'):.0f}",
                  r[-1]["connections"].strip('"') if r else "–"]
    print("| " + " | ".join(cells) + " |")

ours = next((n for n in names if n.startswith("ours")), None)
peers = [n for n in names if not n.startswith("ours")]
if ours and peers:
    print()
    def ratio(figure, better):
        values = {n: figure(n) for n in peers}
        best = better(values, key=values.get)
        return f"{figure(ours) / values[best]:.2f}× {best}" if values[best] else "–"
    print(f"ours ({ours}) / better peer: cold {ratio(lambda n: median(latency[n], 'cold_ms'), min)}, "
          f"warm {ratio(lambda n: median(latency[n], 'warm_ms'), min)}", end="")
    for c in clients:
        print(f"; c{c} req/s {ratio(lambda n: median(rate.get((n, c), []), 'rps'), max)}, "
              f"CPU/req {ratio(lambda n: median(rate.get((n, c), []), 'cpu_us_per_request'), min)}", end="")
    print()
for line in other:
    print(line)
