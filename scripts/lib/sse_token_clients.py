#!/usr/bin/env python3
"""sse_clients.py (the shared SSE load client) with a bearer token of its own on every
connection, and the connect rate: connections opened per second from the first connect
to the last connection made.

usage: sse_token_clients.py TOOLS_DIR TOKENS_FILE URL -n N [sse_clients.py options...]
TOKENS_FILE holds one token a line, at least N of them; connection i sends token i.
Prints sse_clients.py's JSON object with "connect_rate_per_s" added. Only loopback targets
(sse_clients.py refuses any other).
"""
import asyncio
import itertools
import json
import sys
import time


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    tools, tokens_file, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
    sys.path.insert(0, tools)
    import sse_clients

    with open(tokens_file) as f:
        tokens = [line.strip() for line in f if line.strip()]
    order = itertools.count()
    made = []

    class TokenConn(sse_clients.SSEConn):
        def __init__(self, client, request, t_start):
            index = next(order)
            if index >= len(tokens):
                sys.exit(f"{tokens_file} has {len(tokens)} tokens, fewer than the connections")
            request = request.replace(b"\r\n\r\n", f"\r\nAuthorization: Bearer {tokens[index]}\r\n\r\n".encode(), 1)
            super().__init__(client, request, t_start)

        def connection_made(self, transport):
            made.append(time.monotonic())
            super().connection_made(transport)

    sse_clients.SSEConn = TokenConn
    start = time.monotonic()
    sys.argv = ["sse_clients.py"] + rest + ["--json"]
    # sse_clients prints its JSON object; read it back to add the connect rate.
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        sse_clients.main()
    result = json.loads(out.getvalue().strip().splitlines()[-1])
    span = (max(made) - start) if made else 0
    result["connected"] = len(made)
    result["connect_rate_per_s"] = round(len(made) / span, 1) if span > 0 else None
    print(json.dumps(result))


if __name__ == "__main__":
    main()
