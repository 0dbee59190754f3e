#!/usr/bin/python3
# StreamService, Copyright 2026 the StreamService project authors.
# Licensed under the Apache License, Version 2.0 (LICENSE). SPDX-License-Identifier: Apache-2.0
"""Writes scripts/fuzz/http2-client-seeds: what an upstream might send a client with open GET
streams, one file per case the issue names (responses, interim heads and trailers, GOAWAY
mid-burst, resets, CONTINUATION, a window, a length that lies, a push). The first byte is the
harness's stream count selector (count = byte % 8 + 1). Header blocks are python3-hpack's
(Debian python3-h2, hence /usr/bin/python3), not ours.   usage: scripts/fuzz/make-http2-client-seeds.py"""
import os, struct
import hpack

def frame(kind, flags, sid, payload):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", sid) + payload
def block(fields): return hpack.Encoder().encode(fields)
def settings(pairs=()): return frame(4, 0, 0, b"".join(struct.pack(">HI", k, v) for k, v in pairs))
ACK = frame(4, 1, 0, b"")
def headers(sid, fields, end=False): return frame(1, (1 if end else 0) | 4, sid, block(fields))
def data(sid, payload, end=False): return frame(0, 1 if end else 0, sid, payload)
def rst(sid, code): return frame(3, 0, sid, struct.pack(">I", code))
def goaway(last, code): return frame(7, 0, 0, struct.pack(">II", last, code))
def window(sid, increment): return frame(8, 0, sid, struct.pack(">I", increment))
def ping(ack=False): return frame(6, 1 if ack else 0, 0, b"12345678")
def continued(sid, fields):
    b = block(fields)
    return frame(1, 0, sid, b[:3]) + frame(9, 0, sid, b[3:6]) + frame(9, 4, sid, b[6:])

OK = [(":status", "200"), ("content-type", "image/png"), ("content-length", "5")]
SEEDS = {
    "one-response": bytes([0]) + settings([(3, 100)]) + ACK + headers(1, OK) + data(1, b"hello", True),
    "three-responses": bytes([2]) + settings([(3, 2), (4, 65535)]) + ACK + headers(1, OK) + headers(3, OK)
        + data(3, b"hello", True) + data(1, b"hel") + data(1, b"lo", True) + headers(5, [(":status", "304")], True),
    "interim-and-trailers": bytes([0]) + settings() + ACK + headers(1, [(":status", "103"), ("link", "</a>")])
        + headers(1, [(":status", "200")]) + data(1, b"x" * 100) + headers(1, [("grpc-status", "0")], True),
    "goaway-mid-burst": bytes([3]) + settings() + ACK + headers(1, OK) + data(1, b"hello", True) + goaway(1, 0) + headers(3, OK),
    "reset-by-upstream": bytes([1]) + settings() + ACK + rst(1, 7) + headers(3, OK) + rst(3, 2),
    "continuation": bytes([0]) + settings() + ACK + continued(1, OK) + data(1, b"hello", True),
    "ping-and-windows": bytes([0]) + settings([(4, 0)]) + ping() + window(0, 1000) + window(1, 10) + ACK + ping(True) + headers(1, OK, True),
    "length-mismatch": bytes([0]) + settings() + ACK + headers(1, OK) + data(1, b"hello world", True),
    "push-and-even-stream": bytes([0]) + settings() + frame(5, 4, 1, struct.pack(">I", 2) + block([(":method", "GET")])) + headers(2, OK),
}

folder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "http2-client-seeds")
os.makedirs(folder, exist_ok=True)
for name, content in SEEDS.items():
    with open(os.path.join(folder, name), "wb") as out:
        out.write(content)
