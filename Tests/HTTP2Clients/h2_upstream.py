"""An HTTP/2 upstream (h2c, prior knowledge) that misbehaves on purpose, for the client's tests.

Run by the HTTP client's tests with Debian's interpreter (`/usr/bin/python3`, which has python3-h2):

    h2_upstream.py MODE

Listens on 127.0.0.1, an ephemeral port, and prints JSON lines as things happen (flushed at once):
`{"event": "listening", "port": P}` first, then `connection` (with the count so far), `request`
(stream, path), `reset` (a RST_STREAM the client sent: stream, code), `goaway` (one the client
sent: code) and `closed`. Every connection and the whole run are bounded in time (DEADLINE).

MODE is what the upstream does with requests:

- `serve`: answers each GET 200 with `{"path": …}`; `/avatars/…` get 256 KiB of `a`.
- `burst N`: holds every answer until N streams are open at once (or 5 s), then answers them all.
- `goaway N`: on the first connection, once N requests are in, answers the first two and sends
  GOAWAY naming the second, then shuts its side and reads until the client closes (a close with
  unread bytes would be a TCP reset, losing what was sent); later connections are served as `serve`.
- `reset`: resets the first stream with INTERNAL_ERROR, serves the others.
- `refuse`: resets the first stream with REFUSED_STREAM, serves the others.
- `zero-window`: SETTINGS_INITIAL_WINDOW_SIZE 0, never a WINDOW_UPDATE; serves as `serve`.
- `stall`: answers HEADERS (content-length 1 MiB) and 16 KiB of DATA, then nothing more.
- `big-headers`: a response header list of 128 KiB (32 fields of 4 KiB; more than the client allows).
- `continuation-flood`: HEADERS without END_HEADERS, then 200 empty-ish CONTINUATION frames.
- `overflow`: WINDOW_UPDATEs that take the connection's send window above 2^31-1.
- `short-body`: content-length 100 with 10 bytes of DATA and END_STREAM.
- `trailers`: a body then a trailer block (`x-checksum`), which the client ignores.
"""
import json
import socket
import sys
import threading
import time

import h2.config
import h2.connection
import h2.events
import h2.settings
import hyperframe.frame

DEADLINE = 60.0
LOCK = threading.Lock()
STATE = {"connections": 0}


def say(**fields):
    with LOCK:
        sys.stdout.write(json.dumps(fields) + "\n")
        sys.stdout.flush()


def raw(frame):
    return frame.serialize()


class Upstream:
    def __init__(self, sock, mode, argument, number):
        self.sock = sock
        self.mode = mode
        self.argument = argument
        self.number = number
        config = h2.config.H2Configuration(client_side=False, header_encoding="utf-8", validate_inbound_headers=False)
        self.conn = h2.connection.H2Connection(config)
        self.held = []
        self.first_reset_done = False
        self.closing = False

    def send(self):
        data = self.conn.data_to_send()
        if data:
            self.sock.sendall(data)

    def respond(self, stream_id, path):
        if path.startswith("/avatars/"):
            body = b"a" * (256 * 1024)
            content_type = "image/png"
        else:
            body = json.dumps({"path": path}).encode()
            content_type = "application/json"
        self.conn.send_headers(stream_id, [(":status", "200"), ("content-type", content_type), ("content-length", str(len(body))),
                                           ("etag", '"v1"'), ("x-ratelimit-remaining", "4999")])
        self.send_body(stream_id, body)

    def send_body(self, stream_id, body):
        # Within the client's windows; the rest when it opens them (WindowUpdated events).
        self.pending = getattr(self, "pending", {})
        self.pending[stream_id] = body
        self.flush_pending()

    def flush_pending(self):
        for stream_id in list(getattr(self, "pending", {}).keys()):
            body = self.pending[stream_id]
            while body:
                window = min(self.conn.local_flow_control_window(stream_id), self.conn.max_outbound_frame_size)
                if window <= 0:
                    break
                chunk, body = body[:window], body[window:]
                self.conn.send_data(stream_id, chunk, end_stream=not body)
            if body:
                self.pending[stream_id] = body
            else:
                del self.pending[stream_id]
        self.send()

    def request(self, stream_id, headers):
        path = headers.get(":path", "")
        say(event="request", connection=self.number, stream=stream_id, path=path)
        mode = self.mode
        if mode == "burst":
            self.held.append((stream_id, path))
            if len(self.held) >= int(self.argument):
                say(event="burst", connection=self.number, open=len(self.held))
                for held_id, held_path in self.held:
                    self.respond(held_id, held_path)
                self.held = []
            return
        if mode == "goaway" and self.number == 1:
            self.held.append((stream_id, path))
            if len(self.held) >= int(self.argument):
                first, second = self.held[0], self.held[1]
                self.respond(*first)
                self.respond(*second)
                self.sock.sendall(raw(hyperframe.frame.GoAwayFrame(0, last_stream_id=second[0], error_code=0)))
                say(event="goaway_sent", last=second[0])
                self.sock.shutdown(socket.SHUT_WR)
                self.closing = True
            return
        if mode in ("reset", "refuse") and not self.first_reset_done:
            self.first_reset_done = True
            code = 2 if mode == "reset" else 7
            self.conn.reset_stream(stream_id, error_code=code)
            self.send()
            return
        if mode == "stall":
            self.conn.send_headers(stream_id, [(":status", "200"), ("content-type", "image/png"), ("content-length", str(1 << 20))])
            self.conn.send_data(stream_id, b"s" * 16384)
            self.send()
            return
        if mode == "big-headers":
            big = [("x-big-%d" % index, "b" * 4096) for index in range(32)]
            self.conn.send_headers(stream_id, [(":status", "200")] + big, end_stream=True)
            self.send()
            return
        if mode == "continuation-flood":
            self.send()
            frames = [hyperframe.frame.HeadersFrame(stream_id, data=b"\x88")]  # :status 200, no END_HEADERS
            frames += [hyperframe.frame.ContinuationFrame(stream_id, data=b"\x88") for _ in range(200)]
            self.sock.sendall(b"".join(raw(f) for f in frames))
            return
        if mode == "overflow":
            self.send()
            frames = [hyperframe.frame.WindowUpdateFrame(0, window_increment=0x7FFFFFFF) for _ in range(2)]
            self.sock.sendall(b"".join(raw(f) for f in frames))
            return
        if mode == "short-body":
            self.conn.send_headers(stream_id, [(":status", "200"), ("content-length", "100")])
            self.conn.send_data(stream_id, b"0123456789", end_stream=True)
            self.send()
            return
        if mode == "trailers":
            self.conn.send_headers(stream_id, [(":status", "200"), ("content-length", "5")])
            self.conn.send_data(stream_id, b"hello")
            self.conn.send_headers(stream_id, [("x-checksum", "abc")], end_stream=True)
            self.send()
            return
        self.respond(stream_id, path)

    def run(self, until):
        self.conn.initiate_connection()
        if self.mode == "zero-window":
            self.conn.update_settings({h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: 0})
        self.send()
        self.sock.settimeout(0.5)
        while time.monotonic() < until:
            try:
                data = self.sock.recv(65536)
            except socket.timeout:
                continue
            except OSError:
                break
            if not data:
                break
            if self.closing:
                continue
            try:
                events = self.conn.receive_data(data)
            except Exception as error:  # a frame h2 refuses after our raw frames: the test is over
                say(event="h2_error", connection=self.number, error=str(error))
                events = []
            for event in events:
                if isinstance(event, h2.events.RequestReceived):
                    self.request(event.stream_id, dict(event.headers))
                elif isinstance(event, h2.events.StreamReset):
                    say(event="reset", connection=self.number, stream=event.stream_id, code=int(event.error_code))
                elif isinstance(event, h2.events.ConnectionTerminated):
                    say(event="goaway", connection=self.number, code=int(event.error_code))
                elif isinstance(event, h2.events.WindowUpdated):
                    self.flush_pending()
            self.send()
        self.sock.close()
        say(event="closed", connection=self.number)


def serve(sock, mode, argument, number, until):
    try:
        Upstream(sock, mode, argument, number).run(until)
    except OSError as error:
        say(event="closed", connection=number, error=str(error))


def main():
    mode = sys.argv[1]
    argument = sys.argv[2] if len(sys.argv) > 2 else None
    until = time.monotonic() + DEADLINE
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    listener.settimeout(0.5)
    say(event="listening", port=listener.getsockname()[1])
    while time.monotonic() < until:
        try:
            sock, _ = listener.accept()
        except socket.timeout:
            continue
        with LOCK:
            STATE["connections"] += 1
            number = STATE["connections"]
        say(event="connection", count=number)
        threading.Thread(target=serve, args=(sock, mode, argument, number, until), daemon=True).start()


if __name__ == "__main__":
    main()
