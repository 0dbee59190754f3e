"""Slow HTTP/2 peers for the server's tests: request bodies that do not come, uploads that stall, and
response windows opened a few bytes at a time. Same conventions as h2_frames.py (whose client it uses):

    h2_slow_peers.py PORT CASE [--tls] [--hold SECONDS]

prints one JSON line saying what the server did. `--hold` keeps the connection open that long after
the line (bounded, for measuring the server's memory by hand while the uploads stall).
Every loop is bounded in count and in time.
"""
import json
import sys
import time

import h2.config
import h2.connection
import h2.events
import h2.settings
from hyperframe.frame import DataFrame, WindowUpdateFrame

from h2_frames import DEADLINE, RawClient, connect, ended


def after_then_get(client, started_case, **extra):
    """GET /hello on stream 3 once stream 1 is settled: the connection goes on. Reports when stream 1 was."""
    settled_after = round(time.monotonic() - started_case, 3)
    client.send(client.headers(3), WindowUpdateFrame(3, window_increment=65535), WindowUpdateFrame(0, window_increment=65535))
    client.read(ended(3))
    client.observed.report(stream1SettledAfter=settled_after, ended=sorted(client.observed.ended), **extra)


def case_body_never_sent(port, tls):
    """POST /echo: HEADERS without END_STREAM, then no DATA at all."""
    client = RawClient(port, tls)
    started = time.monotonic()
    client.send(client.headers(1, path="/echo", method="POST", end_stream=False))
    client.read(lambda o: 1 in o.ended or 1 in o.resets)
    # The reset that closes the stream after its answer (NO_ERROR) follows the answer's frames.
    client.read(lambda o: 1 in o.resets, timeout=1)
    after_then_get(client, started)


def case_body_dribble(port, tls):
    """POST /echo: its body one byte every 0.2 s, without end, for as long as the server takes it."""
    client = RawClient(port, tls)
    started = time.monotonic()
    client.send(client.headers(1, path="/echo", method="POST", end_stream=False))
    sent = 0
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline and 1 not in client.observed.ended and 1 not in client.observed.resets:
        if not client.send(DataFrame(1, b"x")):
            break
        sent += 1
        # The pace of the dribble: the read returns early once the server answers.
        client.read(lambda o: 1 in o.ended or 1 in o.resets, timeout=0.2)
    client.read(lambda o: 1 in o.resets, timeout=1)
    after_then_get(client, started, bytesSent=sent)


def nudged(port, tls, stream_window, nudge_stream):
    """GET /big (256 KiB) through a window that opens by 128 bytes every 0.4 s (on `nudge_stream`: 1 for
    the stream's window, 0 for the connection's) until the server gives the stream up or 10 s pass."""
    client = RawClient(port, tls, settings={h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: stream_window})
    started = time.monotonic()
    client.send(client.headers(1, path="/big"))
    nudges = 0
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and 1 not in client.observed.resets and not client.observed.closed:
        client.read(lambda o: 1 in o.resets, timeout=0.4)
        if 1 not in client.observed.resets and client.send(WindowUpdateFrame(nudge_stream, window_increment=128)):
            nudges += 1
    after_then_get(client, started, nudges=nudges)


def case_stream_window_nudged(port, tls):
    """A stream window of 0, opened 128 bytes at a time."""
    nudged(port, tls, 0, 1)


def case_connection_window_nudged(port, tls):
    """A large stream window behind the connection's 65,535 bytes, which is opened 128 bytes at a time."""
    nudged(port, tls, 1 << 20, 0)


def case_window_opened_by_frames(port, tls):
    """A stream window of 0 for GET /big, opened 16 KiB every 0.4 s: a slow reader that keeps reading,
    for 3 s (several write timeouts of 1 s)."""
    client = RawClient(port, tls, settings={h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 0})
    started = time.monotonic()
    client.send(client.headers(1, path="/big"))
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline and 1 not in client.observed.resets and not client.observed.closed:
        client.send(WindowUpdateFrame(1, window_increment=16384), WindowUpdateFrame(0, window_increment=16384))
        client.read(lambda o: 1 in o.resets, timeout=0.4)
    after_then_get(client, started)


def case_stalled_uploads(port, tls, streams=100, size=1_000_000):
    """`streams` POSTs on one connection, each sending up to `size` bytes of body as fast as the windows
    allow and then stopping without END_STREAM: what the server took, refused and answered."""
    sock = connect(port, tls)
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    ids = [2 * index + 1 for index in range(streams)]
    for stream_id in ids:
        conn.send_headers(stream_id, [(":method", "POST"), (":scheme", "https" if tls else "http"), (":path", "/echo"),
                                      (":authority", "127.0.0.1")], end_stream=False)
    sent = dict.fromkeys(ids, 0)
    resets, statuses, goaway, closed = {}, {}, None, False
    started = time.monotonic()
    deadline = started + DEADLINE
    for _ in range(10_000):
        progressed = False
        for stream_id in ids:
            while stream_id not in resets and stream_id not in statuses and sent[stream_id] < size:
                count = min(size - sent[stream_id], conn.local_flow_control_window(stream_id), conn.max_outbound_frame_size)
                if count <= 0:
                    break
                conn.send_data(stream_id, b"u" * count)
                sent[stream_id] += count
                progressed = True
        # A PING round trip: once its acknowledgement is in, so is everything the server sent about the DATA before it.
        conn.ping(b"roundtrp")
        sock.sendall(conn.data_to_send())
        acknowledged = False
        while not acknowledged and not closed and time.monotonic() < deadline:
            data = sock.recv(65536)
            if not data:
                closed = True
                break
            for event in conn.receive_data(data):
                if isinstance(event, h2.events.PingAckReceived):
                    acknowledged = True
                elif isinstance(event, h2.events.StreamReset):
                    resets[event.stream_id] = int(event.error_code)
                elif isinstance(event, h2.events.ResponseReceived):
                    statuses[event.stream_id] = int(dict(event.headers)[b":status"])
                elif isinstance(event, h2.events.ConnectionTerminated):
                    goaway = int(event.error_code)
            sock.sendall(conn.data_to_send())
        # Nothing more could be sent, and the server's last word on it is in: the uploads stall here.
        if not progressed or closed or goaway is not None or time.monotonic() > deadline:
            break
    held = sum(count for stream_id, count in sent.items() if stream_id not in resets and stream_id not in statuses)
    print(json.dumps({
        "goaway": None if goaway is None else {"code": goaway}, "closed": closed,
        "resets": {str(k): v for k, v in resets.items()}, "statuses": {str(k): v for k, v in statuses.items()},
        "sentBytes": sum(sent.values()), "heldBytes": held, "elapsed": round(time.monotonic() - started, 3),
    }), flush=True)
    return sock


CASES = {name[5:].replace("_", "-"): fn for name, fn in globals().items() if name.startswith("case_")}

if __name__ == "__main__":
    port, case = int(sys.argv[1]), sys.argv[2]
    held = CASES[case](port, "--tls" in sys.argv[3:])
    if "--hold" in sys.argv:
        time.sleep(min(float(sys.argv[sys.argv.index("--hold") + 1]), 600))
