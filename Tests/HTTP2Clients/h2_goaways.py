"""Opens HTTP/2 connections from chosen loopback source addresses, each sending GOAWAY at once.

Run by the service's log tests with Debian's interpreter (`/usr/bin/python3`, which has python3-h2):

    h2_goaways.py PORT SOURCE:COUNT [SOURCE:COUNT ...]

For each SOURCE:COUNT in order, COUNT connections from SOURCE (e.g. 127.0.0.2, any address of
127/8 works on Linux) to 127.0.0.1:PORT, one after another: preface, SETTINGS, GOAWAY(NO_ERROR),
then read until the server closes. Every connection and the whole run are bounded in time. Prints
one JSON line: the connections made per source.
"""
import json
import socket
import sys
import time

import h2.config
import h2.connection

DEADLINE = 20.0


def goaway_from(source, port, until):
    sock = socket.create_connection(("127.0.0.1", port), timeout=2, source_address=(source, 0))
    try:
        connection = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
        connection.initiate_connection()
        connection.close_connection()
        sock.sendall(connection.data_to_send())
        sock.shutdown(socket.SHUT_WR)
        while time.monotonic() < until and sock.recv(65536):
            pass
    except socket.timeout:
        pass
    finally:
        sock.close()


def main():
    port = int(sys.argv[1])
    until = time.monotonic() + DEADLINE
    made = {}
    for spec in sys.argv[2:]:
        source, count = spec.rsplit(":", 1)
        for _ in range(int(count)):
            if time.monotonic() >= until:
                break
            goaway_from(source, port, until)
            made[source] = made.get(source, 0) + 1
    print(json.dumps({"connections": made}))


if __name__ == "__main__":
    main()
