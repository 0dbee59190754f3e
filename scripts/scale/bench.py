"""Scale-out benchmark (run by scripts/bench-cluster): three replicas sharing /events through Redis.

  1. fan-out: 3 replicas x CLIENTS /events clients, a RATE events/s source; delivery lag
     (p50/p99/max) and missed/duplicated ids per client.
  2. reconnect: every client of replica k reconnects to replica k+1 with its Last-Event-ID
     while the source keeps going; missed/duplicated ids across the switch.
  3. publish: wrk drives /users on all replicas (PUBLISH_CONNECTIONS="4 6 8 16" per replica, one run
     each); events/s appended to the shared stream by
     the replicas' publishers, and their drop counters.
  4. recovery: Redis SIGSTOPped for 2 s with the source running; time from SIGCONT to the
     next event at a client, and ids still contiguous.

The source appends events with the replicas' own publish script (EVAL over RESP), each
event's `detail` carrying its send time. The /events clients of 1 and 2 are the C load
client Benchmarks/sse-load (one epoll loop per process, a few processes), which takes
lag = receive time - send time (one machine, one clock) and reports its own lateness, so
the clients' cost is not mistaken for the replicas'. Only 127.0.0.1 is used; every loop is
bounded in count and time.
"""
import asyncio
import itertools
import json
import os
import signal
import socket
import subprocess
import sys
import time

REDIS_PORT = int(os.environ["REDIS_PORT"])
REDIS_PID = int(os.environ["REDIS_PID"])
PORTS = [int(p) for p in os.environ["REPLICA_PORTS"].split(",")]
CLIENTS = int(os.environ.get("CLIENTS", "1000"))
RATE = float(os.environ.get("RATE", "10"))
SECONDS = float(os.environ.get("SECONDS", "20"))
# The replicas' own publish script, read from its Swift source.
_source = open(os.path.join(os.path.dirname(__file__), "../../Sources/Server/SharedFeed/SharedFeedScript.swift")).read()
SCRIPT = "\n".join(line.strip() for line in _source.split('static let publish = RedisScript("""')[1].split('"""')[0].strip().splitlines())
KEYS = ["stream-service:events:" + k for k in ("seq", "stream", "clock-lease", "published")]


def resp(*args):
    out = [f"*{len(args)}\r\n".encode()]
    for a in args:
        b = a if isinstance(a, bytes) else str(a).encode()
        out.append(b"$%d\r\n%s\r\n" % (len(b), b))
    return b"".join(out)


class Source:
    """Appends events through the publish script at RATE per second (pipelined, one reply read per event)."""

    tokens = itertools.count(1)

    def __init__(self):
        self.number = 0
        # A token per source: the script skips numbers a token already appended.
        self.token = "bench-%d-%d" % (os.getpid(), next(Source.tokens))

    async def run(self, until):
        reader, writer = await asyncio.open_connection("127.0.0.1", REDIS_PORT)
        start = time.monotonic()
        sent = 0
        while time.monotonic() < until:
            due = start + sent / RATE
            await asyncio.sleep(max(0, due - time.monotonic()))
            self.number += 1
            # Filed under `users`, a pipeline /events knows (it refuses others); nothing runs /users during the bench.
            event = {"id": 0, "kind": "data", "pipeline": "users", "requestId": "bench-%d" % self.number,
                     "stage": "source", "timestamp": "2026-01-01T00:00:00.000Z", "detail": repr(time.time()), "replica": "bench"}
            # ARGV: retention, process token, then the batch (one event): number, event, data, lease owner, lease ms, pipeline.
            data = json.dumps(event, separators=(",", ":"), sort_keys=True)
            writer.write(resp("EVAL", SCRIPT, 4, *KEYS, 1000, self.token, self.number, "data", data, "", 0, "users"))
            sent += 1
            try:
                # The reply: a one-element array (two lines).
                await asyncio.wait_for(reader.readline(), timeout=0.2)
                await asyncio.wait_for(reader.readline(), timeout=0.2)
            except asyncio.TimeoutError:
                pass  # Redis paused: the reply comes later; keep the pace (replies are not matched)
        writer.close()


class Client:
    def __init__(self, port):
        self.port = port
        self.ids = []
        self.lags = []
        self.first_at = {}
        self.writer = None

    async def follow(self, until, last_event_id=None, stop_after_ids=None):
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writer = writer
        headers = "Last-Event-ID: %s\r\n" % last_event_id if last_event_id is not None else ""
        writer.write(("GET /events?pipeline=users HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n%s\r\n" % headers).encode())
        buffer = b""
        event_id = None
        try:
            while time.monotonic() < until:
                chunk = await asyncio.wait_for(reader.read(65536), timeout=max(0.01, until - time.monotonic()))
                if not chunk:
                    break
                now = time.time()
                buffer += chunk
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    if line.startswith(b"id: "):
                        event_id = int(line[4:])
                    elif line.startswith(b"data: {") and event_id is not None:
                        # The send time without a full JSON parse: clients, not the server, bound this loop.
                        detail = line.find(b'"detail":"')
                        self.ids.append(event_id)
                        self.lags.append(now - float(line[detail + 10:line.index(b'"', detail + 10)]))
                        self.first_at.setdefault(event_id, now)
                        event_id = None
                if stop_after_ids and len(self.ids) >= stop_after_ids:
                    break
        except (asyncio.TimeoutError, ConnectionError):
            pass
        writer.close()


def gaps_and_duplicates(ids):
    if not ids:
        return 0, 0
    duplicates = len(ids) - len(set(ids))
    missed = (max(ids) - min(ids) + 1) - len(set(ids))
    return missed, duplicates


SSE_LOAD = os.environ.get("SSE_LOAD", "")
REPLICA_PIDS = [int(p) for p in os.environ.get("REPLICA_PIDS", "").split(",") if p]


def replicas_cpu():
    """user+system seconds of the three replicas so far (from /proc)."""
    total = 0
    for pid in REPLICA_PIDS:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")
PROCESSES = int(os.environ.get("PROCESSES", "2"))
# wrk connections per replica in the publish figure, one run per count: /users' event rate grows with them,
# and past what the publishers send the bounded queue drops (requests never wait on Redis), so the figure is
# the highest rate with 0 drops. At 16 connections main's /users (17:12Z) offered 33,000 events/s.
PUBLISH_CONNECTIONS = [int(c) for c in os.environ.get("PUBLISH_CONNECTIONS", "4 6 8 16").split()]


def subscribers():
    return sum(metric(p, "sse_subscribers") for p in PORTS)


def load_clients(n, seconds, source_seconds, switch_after=None):
    """Runs the C client over the three replicas (client i on replica i mod 3), waits until every
    subscriber is counted by the replicas, runs the source for `source_seconds`, returns both."""
    before = subscribers()
    args = [SSE_LOAD, "--ports", ",".join(map(str, PORTS)), "--path", "/events?pipeline=users",
            "--clients", str(n), "--processes", str(PROCESSES), "--seconds", str(seconds)]
    if switch_after is not None:
        args += ["--switch-after", str(switch_after)]
    client = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while subscribers() < before + n and time.monotonic() < deadline and client.poll() is None:
        time.sleep(0.2)
    source = Source()
    started = time.monotonic()
    cpu_before = replicas_cpu() if REPLICA_PIDS else 0
    asyncio.run(source.run(started + source_seconds))
    result_cpu = replicas_cpu() - cpu_before if REPLICA_PIDS else None
    out, _ = client.communicate(timeout=seconds + 120)
    result = json.loads(out.strip().splitlines()[-1])
    result["replicas_cpu_s"] = result_cpu
    return source, result


def load_line(result):
    cpu = result.get("replicas_cpu_s")
    per_delivery = f"replicas' CPU {cpu / result['stamped'] * 1e6:.1f} µs per delivery while the source ran; " if cpu and result["stamped"] else ""
    return (per_delivery + f"client lateness: turn p99 {result['client_turn_p99_ms']:.1f} ms, max {result['client_turn_max_ms']:.1f} ms, "
            f"client CPU {result['client_cpu_s']:.1f} s; load average {os.getloadavg()[0]:.1f}")


def fanout():
    # The window (SECONDS + 5 s after all are connected) outlasts the source by the time it takes to see them all.
    source, r = load_clients(3 * CLIENTS, int(SECONDS) + 5, SECONDS)
    print(f"fan-out: {r['held']} of {r['n']} clients held over 3 replicas, {source.number} events at {RATE:.0f}/s: "
          f"lag p50 {r['lag_p50_ms']:.1f} ms, p99 {r['lag_p99_ms']:.1f} ms, max {r['lag_max_ms']:.1f} ms "
          f"({r['stamped']} deliveries); missed {r['missed']}, duplicated {r['duplicated']}, "
          f"events per client {r['events_per_client_min']}-{r['events_per_client_max']} of {source.number}; {load_line(r)}")


def reconnect():
    # Each client reads 6 s on replica k, then resumes on replica k+1 with its Last-Event-ID; the source runs 12 s.
    source, r = load_clients(CLIENTS, 16, 12, switch_after=6)
    print(f"reconnect: {r['reconnected']} of {r['n']} clients moved to another replica mid-stream ({source.number} events): "
          f"missed {r['missed']}, duplicated {r['duplicated']}, events per client {r['events_per_client_min']}-"
          f"{r['events_per_client_max']} of {source.number}; {load_line(r)}")


def metric(port, name):
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    total = 0.0
    for line in data.decode(errors="replace").splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            total += float(line.rsplit(" ", 1)[1])
    return total


def redis_int(*args):
    """An integer reply, or a bulk string holding one (GET of a counter)."""
    with socket.create_connection(("127.0.0.1", REDIS_PORT), timeout=5) as s:
        s.sendall(resp(*args))
        reply = s.makefile("rb")
        line = reply.readline()
        if line.startswith(b"$"):
            return 0 if line.startswith(b"$-1") else int(reply.readline())
    return int(line[1:])


def publish():
    for connections in PUBLISH_CONNECTIONS:
        publish_with(connections)


def publish_with(connections):
    duration = 10
    before = redis_int("GET", KEYS[0])
    drops_before = sum(metric(p, "events_publish_dropped_total") for p in PORTS)
    started = time.monotonic()
    runs = [subprocess.Popen(["wrk", "-t1", "-c%d" % connections, "-d%ds" % duration, "http://127.0.0.1:%d/users?limit=100" % p],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT) for p in PORTS]
    # The queue's depth while wrk runs: near 0 means the publishers kept up and /users' event rate is what is counted.
    deepest = 0
    while any(r.poll() is None for r in runs) and time.monotonic() < started + duration + 30:
        deepest = max(deepest, sum(metric(p, "events_publish_queue_depth") for p in PORTS))
        time.sleep(0.5)
    for r in runs:
        r.communicate(timeout=30)
    depth_deadline = time.monotonic() + 30
    while time.monotonic() < depth_deadline and sum(metric(p, "events_publish_queue_depth") for p in PORTS) > 0:
        time.sleep(0.1)
    elapsed = time.monotonic() - started
    after = redis_int("GET", KEYS[0])
    drops = sum(metric(p, "events_publish_dropped_total") for p in PORTS) - drops_before
    print(f"publish: {after - before} events appended by 3 replicas' publishers in {elapsed:.1f} s = "
          f"{(after - before) / elapsed:,.0f} events/s (wrk /users?limit=100, {connections} connections per replica); drops {int(drops)}, "
          f"deepest publish queue {int(deepest)} events; load average {os.getloadavg()[0]:.1f}")


async def recovery():
    global RATE
    RATE = 50.0
    source = Source()
    client = Client(PORTS[0])
    t0 = time.monotonic()
    follow = asyncio.create_task(client.follow(t0 + 9))
    await asyncio.sleep(0.5)
    source_task = asyncio.create_task(source.run(t0 + 7))
    await asyncio.sleep(2)
    os.kill(REDIS_PID, signal.SIGSTOP)
    await asyncio.sleep(2)
    resumed_at = time.time()
    os.kill(REDIS_PID, signal.SIGCONT)
    await source_task
    await follow
    after = [t for t in client.first_at.values() if t >= resumed_at]
    missed, dups = gaps_and_duplicates(client.ids)
    first = (min(after) - resumed_at) * 1000 if after else float("nan")
    print(f"recovery: Redis stopped 2 s under a {RATE:.0f}/s source; first event {first:.0f} ms after SIGCONT; "
          f"missed {missed}, duplicated {dups}")


def main():
    which = sys.argv[1:] or ["fanout", "reconnect", "publish", "recovery"]
    for name in which:
        if name == "recovery":
            asyncio.run(recovery())
        else:
            {"fanout": fanout, "reconnect": reconnect, "publish": publish}[name]()


main()
