"""A Redis failover under load, as the /events subscribers saw it (run by scripts/cluster failover).

Subscribers (SUBSCRIBERS, default 60) read /events?pipeline=users from the three replicas
directly, reconnecting with Last-Event-ID as EventSource does should a stream end; /users
requests through HAProxy (RATE per second, default 100) produce pipeline events. After 3 s the
Redis primary is killed (SIGKILL); the sentinels promote a replica; load goes on for AFTER
seconds (default 10). Then, per subscriber: events, resets, silent gaps (an id jump with no
reset before it), ids naming two different events (across all subscribers), and how long after
the kill its first event of the new history (after its reset) came. Exit 1 on a silent gap or a reused id.
SHOW_RESETS=1 prints the messages around each reset the first subscriber got.
"""
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import http.client

LB = int(sys.argv[1])
REPLICAS = [int(p) for p in os.environ["REPLICA_PORTS"].split(",")]
PRIMARY_PID = int(os.environ["PRIMARY_PID"])
SENTINEL = os.environ["SENTINEL"]
SUBSCRIBERS = int(os.environ.get("SUBSCRIBERS", "60"))
RATE = float(os.environ.get("RATE", "100"))
AFTER = float(os.environ.get("AFTER", "10"))
stop = threading.Event()


class Subscriber(threading.Thread):
    def __init__(self, port):
        super().__init__(daemon=True)
        self.port = port
        self.received = []  # (time, id, event, data)
        self.last_id = None

    def run(self):
        while not stop.is_set():
            try:
                self.read()
            except OSError:
                time.sleep(0.2)  # EventSource's retry, shortened

    def read(self):
        with socket.create_connection(("127.0.0.1", self.port), timeout=2) as sock:
            sock.settimeout(None)  # a quiet feed is no failure; the threads are daemons
            resume = f"Last-Event-ID: {self.last_id}\r\n" if self.last_id is not None else ""
            sock.sendall(f"GET /events?pipeline=users HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n{resume}\r\n".encode())
            stream = sock.makefile("rb")
            while stream.readline().strip():
                pass  # status line and headers
            fields = {}
            while not stop.is_set():
                raw = stream.readline()
                if not raw:
                    return
                line = raw.decode().rstrip("\r\n")
                if line == "":
                    if "id" in fields:
                        self.received.append((time.monotonic(), int(fields["id"]), fields.get("event", "message"), fields.get("data", "")))
                        self.last_id = fields["id"]
                    fields = {}
                elif ": " in line and not line.startswith(":"):
                    name, _, value = line.partition(": ")
                    if name in ("id", "event", "data"):
                        fields[name] = value
                # chunk-size lines (hex) are skipped: they hold no ": "


def load():
    pause = 1 / RATE
    while not stop.is_set():
        try:
            connection = http.client.HTTPConnection("127.0.0.1", LB, timeout=2)
            connection.request("GET", "/users?limit=1")
            connection.getresponse().read()
            connection.close()
        except OSError:
            pass
        time.sleep(pause)


def primary():
    host, port = SENTINEL.rsplit(":", 1)
    reply = subprocess.run(["redis-cli", "-h", host, "-p", port, "SENTINEL", "get-master-addr-by-name", "streamservice"],
                           capture_output=True, text=True).stdout.split()
    return ":".join(reply)


def main():
    subscribers = [Subscriber(REPLICAS[i % len(REPLICAS)]) for i in range(SUBSCRIBERS)]
    for subscriber in subscribers:
        subscriber.start()
    loaders = [threading.Thread(target=load, daemon=True) for _ in range(4)]
    for loader in loaders:
        loader.start()
    time.sleep(3)
    before = primary()
    killed = time.monotonic()
    os.kill(PRIMARY_PID, signal.SIGKILL)
    print(f"killed the Redis primary {before} (pid {PRIMARY_PID}) under load", flush=True)
    promoted = None
    while time.monotonic() - killed < 30:
        now = primary()
        if now and now != before:
            promoted = time.monotonic()
            print(f"the sentinels named {now} after {promoted - killed:.2f} s", flush=True)
            break
        time.sleep(0.05)
    time.sleep(AFTER)
    stop.set()

    by_id, gaps, resets, resumed = {}, 0, [], []
    for subscriber in subscribers:
        previous, told = None, False
        for when, id, event, data in subscriber.received:
            if event == "reset":
                told = True
                resets.append(when)
            else:
                by_id.setdefault(id, set()).add(data)
                if previous is not None and id > previous + 1 and not told:
                    gaps += 1
                told = False
            previous = id
        # Delivery resumed: the first event after the reset (the new history), else after the switch.
        after_reset = [i for i, (when, _, event, _) in enumerate(subscriber.received) if event == "reset" and when > killed]
        start = after_reset[0] + 1 if after_reset else None
        later = [when for when, _, event, _ in subscriber.received[start:] if event != "reset"] if start is not None else \
            [when for when, _, event, _ in subscriber.received if event != "reset" and when > (promoted or killed)]
        if later:
            resumed.append(later[0] - killed)
    if os.environ.get("SHOW_RESETS"):
        received = subscribers[0].received
        for index, (when, id, event, data) in enumerate(received):
            if event == "reset":
                around = [(round(w - killed, 3), i, e) for w, i, e, _ in received[max(0, index - 2):index + 3]]
                print(f"reset seen by subscriber 0 (:{subscribers[0].port}): {around} {data}")
    reused = sum(1 for datas in by_id.values() if len(datas) > 1)
    per_subscriber = len(resets) / max(1, len(subscribers))
    print(f"{len(subscribers)} subscribers, {sum(len(s.received) for s in subscribers)} messages, "
          f"{len(by_id)} distinct ids")
    print(f"silent gaps: {gaps}; ids naming two events: {reused}; resets: {len(resets)} ({per_subscriber:.2f} per subscriber)")
    if resumed:
        resumed.sort()
        print(f"deliveries resumed, seconds after the kill (detection and promotion included): "
              f"median {statistics.median(resumed):.2f}, p90 {resumed[int(len(resumed) * 0.9)]:.2f}, max {resumed[-1]:.2f} "
              f"({len(resumed)}/{len(subscribers)} subscribers)")
    else:
        print("no subscriber got an event after the kill")
    return 1 if gaps or reused or not resumed else 0


if __name__ == "__main__":
    sys.exit(main())
