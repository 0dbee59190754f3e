"""Cross-replica resume through the balancer (run by scripts/cluster demo).

Reads a few /events messages through HAProxy, produces pipeline events with
/users requests (round-robin: they land on different replicas), reconnects with
Last-Event-ID (round-robin: another replica answers) and checks that exactly the
events after that id arrive: no gap, no duplicate.
"""
import http.client
import json
import sys

LB = int(sys.argv[1])


def get(path):
    connection = http.client.HTTPConnection("127.0.0.1", LB, timeout=10)
    connection.request("GET", path)
    response = connection.getresponse()
    response.read()
    return response.status, response.getheader("X-Replica")


def events(count, last_event_id=None):
    """The next `count` messages of /events?pipeline=users (resuming after last_event_id) and the replica."""
    connection = http.client.HTTPConnection("127.0.0.1", LB, timeout=10)
    headers = {"Accept": "text/event-stream"}
    if last_event_id is not None:
        headers["Last-Event-ID"] = last_event_id
    connection.request("GET", "/events?pipeline=users", headers=headers)
    response = connection.getresponse()
    replica = response.getheader("X-Replica")
    messages, fields = [], {}
    while len(messages) < count:
        line = response.fp.readline().decode().rstrip("\n")
        if line == "":
            if "id" in fields:
                messages.append(fields)
            fields = {}
            continue
        name, _, value = line.partition(": ")
        fields[name] = fields.get(name, "") + value
    connection.close()
    return replica, messages


def main():
    for _ in range(3):
        status, replica = get("/users?limit=2")
        print(f"GET /users?limit=2 -> {status} from {replica}")
    replica, first = events(4, last_event_id="0")
    print(f"/events from {replica}: ids {[m['id'] for m in first]}")
    last = first[1]["id"]
    for _ in range(2):
        status, producer = get("/users?limit=1")
        print(f"GET /users?limit=1 -> {status} from {producer}")
    # Round-robin decides where a connection lands; ask again (3 times at most) until another replica answers.
    for _ in range(3):
        resumed_replica, resumed = events(4, last_event_id=last)
        if resumed_replica != replica:
            break
    print(f"resume with Last-Event-ID {last} on {resumed_replica}: ids {[m['id'] for m in resumed]}")
    expected = [str(int(last) + k) for k in range(1, 5)]
    producers = sorted({json.loads(m["data"]).get("replica") for m in first + resumed})
    print(f"events produced by: {producers}")
    if [m["id"] for m in resumed] != expected:
        print(f"FAIL: expected ids {expected}")
        return 1
    if resumed_replica == replica:
        print("note: the balancer sent both connections to the same replica")
    print(f"OK: resumed on {resumed_replica} after {last} with exactly {expected} (read first on {replica})")
    return 0


sys.exit(main())
