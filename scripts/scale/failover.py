"""Redis failovers under load, as the /events subscribers saw them (run by scripts/cluster failover).

Subscribers (--subscribers, default 60) read the whole /events feed of the service replicas,
spread over them and over client processes (Benchmarks/sse-load/sse-failover.c, at most
--per-process each, so no process nears its descriptor limit), reconnecting with Last-Event-ID as
EventSource does should a stream end. /users?limit=1 requests, spread over the replicas, produce
pipeline events at --rate events per second (default 100; the requests per second are set from a
measured events-per-request). Then --failovers times (default 1), a few seconds apart: with
--loss S (default 1; 0 = none) the replication stream stops (every Redis replica is re-pointed
at a listener that moves no bytes) and writes go on for S seconds on the primary alone; the
primary is killed (SIGKILL); the sentinels promote a replica; the killed node comes back as a
replica of the new primary and the next failover waits until the sentinels know it again.

Prints: silent gaps (an id jump with no reset before it), ids naming two different events,
resets per subscriber per failover (the most any subscriber got in one), and per replica of the
service the distribution of delivery resume times (kill → first event of the new history; see
sse-failover.c). Exit 1 on a silent gap, a reused id, more resets for a subscriber in one
failover window than the primary changed in it, or a subscriber that never resumed.

The sentinels may fail over more than once for one kill: on a loaded machine a sentinel that
has just switched to the promoted node can find it down (no answer within down-after-milliseconds
on its fresh link) and, with the other sentinels' votes from the failover just done still
counted, promote another replica. Each switch may lose writes (asynchronous replication), so
each may rightly cost a reset: the switches are counted from the sentinels' `+switch-master`
and every failover window reports them.
"""
import argparse
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

def positive(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


parser = argparse.ArgumentParser(prog="scripts/cluster failover")
parser.add_argument("--subscribers", type=positive, default=60)
parser.add_argument("--failovers", type=positive, default=1)
parser.add_argument("--rate", type=float, default=100, help="pipeline events per second")
parser.add_argument("--loss", type=float, default=1.0, help="seconds of writes on the primary alone before the kill")
parser.add_argument("--per-process", type=positive, default=5000, help="subscribers per client process")
parser.add_argument("--settle", type=float, default=3.0, help="seconds of steady load between failovers")
parser.add_argument("--replicas", type=positive, default=3, help="(read by scripts/cluster) service replicas")
args = parser.parse_args(sys.argv[1:])
if os.environ.get("FAILOVER_CHECK_ONLY"):
    sys.exit(0)  # scripts/cluster checks the options before it builds and starts anything

REPLICAS = [int(p) for p in os.environ["REPLICA_PORTS"].split(",")]
SENTINELS = os.environ["SENTINELS"].split(",")
MASTER = "streamservice"
# port:pid of every Redis node, and how to start one again (scripts/cluster's redis_node).
NODES = {int(port): int(pid) for port, pid in (item.split(":") for item in os.environ["REDIS_NODES"].split(","))}
LOGS = os.environ["CLUSTER_LOGS"]
CLIENT = os.environ["SSE_FAILOVER"]
stop = threading.Event()
incomplete = threading.Event()  # a failover did not complete (the summary covers the ones before)
started = []  # Redis nodes started here (pids), killed on exit


def cli(port, *command):
    return subprocess.run(["redis-cli", "-h", "127.0.0.1", "-p", str(port), *command], capture_output=True, text=True, timeout=5).stdout


def primary():
    """The primary every sentinel names, or None while they disagree or one does not answer."""
    named = set()
    for sentinel in SENTINELS:
        try:
            named.add(":".join(cli(sentinel.rsplit(":", 1)[1], "SENTINEL", "get-master-addr-by-name", MASTER).split()))
        except subprocess.TimeoutExpired:
            return None
    return int(named.pop().rsplit(":", 1)[1]) if len(named) == 1 and "" not in named else None


def settled(port):
    """Every sentinel knows two replicas of `port`, both online there, and the other sentinels."""
    info = cli(port, "INFO", "replication")
    if info.count("state=online") < len(NODES) - 1:
        return False
    for sentinel in SENTINELS:
        state = " ".join(cli(sentinel.rsplit(":", 1)[1], "SENTINEL", "master", MASTER).split())
        if f"num-slaves {len(NODES) - 1} " not in state + " " or f"num-other-sentinels {len(SENTINELS) - 1} " not in state + " ":
            return False
    return True


class Switches:
    """Every `+switch-master` of MASTER, as (unix time, new primary port), once however many sentinels announce it."""
    def __init__(self):
        self.seen = []
        self.lock = threading.Lock()
        self.processes = [subprocess.Popen(["redis-cli", "-h", "127.0.0.1", "-p", sentinel.rsplit(":", 1)[1], "--csv", "SUBSCRIBE", "+switch-master"],
                                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) for sentinel in SENTINELS]
        for process in self.processes:
            threading.Thread(target=self.read, args=(process,), daemon=True).start()

    def read(self, process):
        for line in process.stdout:
            fields = line.strip().replace('"', "").split(",")
            if len(fields) != 3 or fields[0] != "message":
                continue
            words = fields[2].split()
            if len(words) != 5 or words[0] != MASTER:
                continue
            with self.lock:
                if not self.seen or self.seen[-1][1] != int(words[4]):
                    self.seen.append((time.time(), int(words[4])))

    def between(self, start, end):
        with self.lock:
            return sum(1 for at, _ in self.seen if start <= at < end)

    def close(self):
        for process in self.processes:
            process.kill()
            process.wait()


def wait(what, condition, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise SystemExit(f"error: {what} within {timeout:.0f} s; see {LOGS}/")


def shared(port):
    try:
        # A loaded replica may take many seconds to answer (its event loops also write every event
        # to its subscribers, and a failover's burst queues up behind them): slow is not degraded.
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        connection.request("GET", "/ready")
        return json.loads(connection.getresponse().read()).get("events") == "shared"
    except (OSError, ValueError):
        return False


readiness = []  # per failover: {port: seconds from the kill to its first "shared" answer}, slowest answer


def wait_until_shared(killed, timeout=120):
    """Asks every replica's /ready until each has said "shared" once (not all in one pass: a slow
    answer from one would start the others over); records when, and the slowest answer."""
    pending, first, slowest = set(REPLICAS), {}, 0.0
    deadline = time.monotonic() + timeout
    while pending and time.monotonic() < deadline:
        for port in sorted(pending):
            asked = time.time()
            answer = shared(port)
            slowest = max(slowest, time.time() - asked)
            if answer:
                first[port] = time.time() - killed
                pending.discard(port)
        time.sleep(0.05)
    readiness.append((first, slowest))
    if pending:
        raise SystemExit(f"error: /ready of :{', :'.join(map(str, sorted(pending)))} did not say \"shared\" within {timeout} s "
                         f"(slowest answer {slowest:.1f} s); see {LOGS}/")


class BlackHole:
    """A listener that accepts and never reads or writes: a replication link that moves no bytes."""
    def __init__(self):
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(16)
        self.port = self.server.getsockname()[1]
        self.held = []
        threading.Thread(target=self.accept, daemon=True).start()

    def accept(self):
        while True:
            try:
                self.held.append(self.server.accept()[0])
            except OSError:
                return

    def close(self):
        self.server.close()
        for sock in self.held:
            sock.close()


def events_per_request():
    """Pipeline events one /users?limit=1 produces, read from one subscriber of the first replica."""
    sock = socket.create_connection(("127.0.0.1", REPLICAS[0]), timeout=5)
    sock.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
    time.sleep(0.5)
    count = 10
    for index in range(count):
        request(REPLICAS[index % len(REPLICAS)])
    time.sleep(1.5)
    sock.settimeout(0.5)
    data = b""
    try:
        while chunk := sock.recv(1 << 20):
            data += chunk
    except OSError:
        pass
    sock.close()
    return max(1, data.count(b"\nid: ") // count)


def request(port):
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        connection.request("GET", "/users?limit=1")
        connection.getresponse().read()
        connection.close()
    except OSError:
        pass


def load(per_second, offset):
    """Requests at `per_second` (one thread of several), round-robin over the replicas."""
    pause, due, index = 1 / per_second, time.monotonic(), offset
    while not stop.is_set():
        request(REPLICAS[index % len(REPLICAS)])
        index += 1
        # Behind (slow answers from saturated replicas): go on from now instead of catching up in a
        # burst, which landed on the replicas with a failover's own burst and saturated them more.
        due = max(due + pause, time.monotonic() - pause)
        time.sleep(max(0, due - time.monotonic()))


def restart(port, replica_of):
    name = f"redis-failover-{port}"
    os.makedirs(f"{LOGS}/{name}", exist_ok=True)
    dump = f"{LOGS}/{name}/dump.rdb"
    if os.path.exists(dump):
        os.remove(dump)
    process = subprocess.Popen(["redis-server", "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no",
                                "--dir", f"{LOGS}/{name}", "--maxmemory", "256mb", "--maxmemory-policy", "volatile-lru",
                                "--logfile", f"{LOGS}/{name}.log", "--replicaof", "127.0.0.1", str(replica_of)])
    started.append(process.pid)
    NODES[port] = process.pid


def failover(number, times):
    """One failover; its (kill, promotion) times go into `times` as soon as they are known, so a
    failover that does not complete still has its kill counted."""
    old = primary()
    holes = []
    if args.loss > 0:
        for port in NODES:
            if port != old:
                hole = BlackHole()
                holes.append(hole)
                cli(port, "REPLICAOF", "127.0.0.1", str(hole.port))
        time.sleep(args.loss)
    killed = time.time()
    os.kill(NODES[old], signal.SIGKILL)
    times.append((killed, killed))
    wait("the sentinels promoted a replica", lambda: primary() not in (None, old), 30)
    promoted = time.time()
    times[-1] = (killed, promoted)
    new = primary()
    print(f"failover {number}: killed {old} after {args.loss:.1f} s of unreplicated writes; the sentinels named {new} "
          f"after {promoted - killed:.2f} s", flush=True)
    for hole in holes:
        hole.close()
    restart(old, new)
    # Asked before the killed node has rejoined: the time to "shared" counts from the kill.
    wait_until_shared(killed)
    # The primary now, not `new`: the sentinels may have promoted yet another replica meanwhile.
    wait("the killed node rejoined as a replica and the sentinels know it", lambda: (now := primary()) is not None and settled(now), 60)


def summarize(lines, failovers, switches):
    """`switches`: per failover window, the times the primary changed in it (at least the one the kill caused)."""
    processes = [line["process"] for line in lines if "process" in line]
    subscribers = [line for line in lines if "port" in line]
    gaps = sum(s["gaps"] for s in subscribers)
    reused = sum(p["ids_naming_two_events"] for p in processes)
    most_resets = max((resets for s in subscribers for resets, _ in s["failovers"]), default=0)
    resets = sum(resets for s in subscribers for resets, _ in s["failovers"])
    # A reset per change of history a subscriber crossed: at most one per switch of the primary.
    over = sum(1 for s in subscribers for k, (count, _) in enumerate(s["failovers"]) if count > max(1, switches[k]))
    never = sum(1 for s in subscribers for _, resumed in s["failovers"] if resumed < 0)
    print(f"{len(subscribers)} subscribers, {sum(s['events'] for s in subscribers)} events delivered, "
          f"{max((p['distinct_ids'] for p in processes), default=0)} distinct ids, {failovers} failovers")
    print(f"silent gaps: {gaps}; ids naming two events: {reused}; resets: {resets} "
          f"({resets / max(1, len(subscribers) * failovers):.2f} per subscriber per failover, at most {most_resets} in one)")
    extra = sum(switches) - failovers
    print(f"primary switches (+switch-master): {sum(switches)} for {failovers} kills"
          + (f" — the sentinels failed over again on their own {extra} times (windows: {switches})" if extra else ""))
    print(f"subscriber-failovers with more resets than switches of the primary in the window: {over}")
    for port in REPLICAS:
        times = sorted(resumed for s in subscribers if s["port"] == port for _, resumed in s["failovers"] if resumed >= 0)
        if not times:
            print(f"replica :{port}: no delivery resumed")
            continue
        pick = lambda q: times[min(len(times) - 1, int(len(times) * q))]
        print(f"replica :{port}: delivery resumed after the kill in s (detection and promotion included): "
              f"min {times[0]:.2f}, median {statistics.median(times):.2f}, p90 {pick(0.9):.2f}, p99 {pick(0.99):.2f}, max {times[-1]:.2f} "
              f"({len(times)} subscriber-failovers)")
    if never:
        print(f"subscriber-failovers with no delivery after: {never}")
    for port in REPLICAS:
        times = sorted(first[port] for first, _ in readiness if port in first)
        if times:
            print(f"replica :{port}: /ready \"shared\" again after the kill in s (the answer's arrival): "
                  f"median {statistics.median(times):.2f}, max {times[-1]:.2f} ({len(times)} failovers)")
    if readiness:
        print(f"slowest /ready answer while waiting: {max(slowest for _, slowest in readiness):.1f} s")
    return 1 if gaps or reused or over or never else 0


def main():
    wait("the sentinels agree on a primary with both replicas", lambda: primary() is not None and settled(primary()), 30)
    per_request = events_per_request()
    requests_per_second = args.rate / per_request
    print(f"{per_request} events per /users?limit=1: {requests_per_second:.1f} requests/s for {args.rate:.0f} events/s", flush=True)
    failovers_file = tempfile.NamedTemporaryFile("w", suffix=".failovers", delete=False)
    clients = []
    for offset in range(0, args.subscribers, args.per_process):
        count = min(args.per_process, args.subscribers - offset)
        clients.append(subprocess.Popen(
            [CLIENT, "--ports", ",".join(map(str, REPLICAS)), "--clients", str(count), "--offset", str(offset),
             "--failovers-file", failovers_file.name, "--max-seconds", str(120 + args.failovers * 90)],
            stdout=subprocess.PIPE, text=True))
    threads = max(1, min(16, int(requests_per_second / 10) + 1))
    switches = Switches()
    loaders = [threading.Thread(target=load, args=(requests_per_second / threads, i), daemon=True) for i in range(threads)]
    for loader in loaders:
        loader.start()
    try:
        time.sleep(args.settle + 2)
        times = []
        for number in range(1, args.failovers + 1):
            try:
                failover(number, times)
            except SystemExit as error:
                # What the subscribers saw until then is still reported (the exit status says it stopped).
                print(f"{error} — stopping after {len(times)} failovers", flush=True)
                incomplete.set()
                break
            time.sleep(args.settle)
        for killed, promoted in times:
            failovers_file.write(f"{killed:.6f} {promoted:.6f}\n")
        failovers_file.close()
        stop.set()
        lines = []
        for client in clients:
            client.send_signal(signal.SIGTERM)
            output, _ = client.communicate(timeout=120)
            lines += [json.loads(line) for line in output.splitlines() if line.strip()]
        windows = [switches.between(killed, times[k + 1][0] if k + 1 < len(times) else float("inf")) for k, (killed, _) in enumerate(times)]
        status = summarize(lines, len(times), windows)
        return 1 if incomplete.is_set() else status
    finally:
        stop.set()
        switches.close()
        for client in clients:
            if client.poll() is None:
                client.kill()
        for pid in started:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        os.unlink(failovers_file.name)


if __name__ == "__main__":
    sys.exit(main())
