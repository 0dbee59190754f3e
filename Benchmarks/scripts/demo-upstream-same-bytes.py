#!/usr/bin/env python3
"""Checks that two builds of the demo upstream answer byte for byte alike: the same 1,744 requests in
the same order (pages, profiles, repos, avatars, redirects, errors, HEAD, POST, conditional requests,
five Accept-Encoding values; a repeat pass for stored answers) under four configurations (plain,
--demo-failure-rate, --demo-rate-limit, both), one connection per request (Connection: close, read to
the end, so cut bodies count too), Host: demo.test:1234 for both.

Only what differs between two runs of one build is normalised: Date, X-Request-ID, X-RateLimit-Reset
(and /rate_limit's reset), the ephemeral avatar port, and what follows from the port: ETags are
checked to be their body's SHA-256 prefix, then named by first appearance; gzip bodies are checked to
be zlib level 6 of the plain body, then compared plain, without their Content-Length.

usage: Benchmarks/scripts/demo-upstream-same-bytes.py OLD_BINARY NEW_BINARY   (exit 1 on a difference)
env:   PORT=19400 (uses PORT … PORT+7)"""
import hashlib, os, re, socket, subprocess, sys, zlib

PORT = int(os.environ.get("PORT", "19400"))
problems = []

def start(binary, port, extra):
    process = subprocess.Popen([binary, "demo-upstream", "--host", "127.0.0.1", "--port", str(port)] + extra,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = process.stdout.readline()  # the "listening" line, once both origins are bound
    avatar = re.search(r"avatarPort=(\d+)", line) or re.search(r'"avatarPort":"?(\d+)', line)
    if not avatar:
        process.kill()
        sys.exit(f"demo-upstream-same-bytes: no avatar port in {line!r}")
    return process, int(avatar.group(1))

def exchange(port, method, target, headers):
    connection = socket.create_connection(("127.0.0.1", port), timeout=10)
    head = f"{method} {target} HTTP/1.1\r\nHost: demo.test:1234\r\nConnection: close\r\n"
    head += "".join(f"{name}: {value}\r\n" for name, value in headers)
    connection.sendall((head + "\r\n").encode())
    answer = b""
    while chunk := connection.recv(65536):
        answer += chunk
    connection.close()
    return answer

def requests():
    for accept in ([], [("Accept-Encoding", "gzip")], [("Accept-Encoding", "gzip;q=0")], [("Accept-Encoding", "*")],
                   [("Accept-Encoding", "br, x-gzip")]):
        for target in ["/users", "/users?per_page=30", "/users?since=990&per_page=30", "/users?since=5&per_page=100",
                       "/users?per_page=300", "/users?since=-3&per_page=2", "/users?since=abc", "/users?per_page=0",
                       "/users?since=1000", "/users?per_page=30&since=30", "/users?per%5Fpage=3", "/users/ada1",
                       "/users/barbara25", "/users/nobody", "/users/ada2", "/users/ada1/repos",
                       "/users/barbara25/repos?per_page=100", "/users/barbara25/repos?per_page=100&page=2",
                       "/users/barbara25/repos?page=3&per_page=50", "/users/barbara25/repos?page=9",
                       "/users/ada1/repos?page=0", "/users/nobody/repos", "/grace2.png", "/nobody.png", "/u/1",
                       "/u/2?v=4", "/u/999", "/u/x", "/rate_limit", "/", "/users/a/b/c", "/users//ada1", "//users"]:
            yield ("GET", target, accept, "api")
        for target in ["/u/1?v=4", "/u/7", "/u/0", "/users?per_page=2", "/grace2.png"]:
            yield ("GET", target, accept, "avatars")
    yield ("HEAD", "/users?per_page=3", [], "api")
    yield ("HEAD", "/users?per_page=3", [("Accept-Encoding", "gzip")], "api")
    yield ("POST", "/users", [("Content-Length", "0")], "api")
    yield ("DELETE", "/u/1", [], "avatars")

def conditional_requests(fetch):
    """If-None-Match with the ETags this server gave, in several spellings."""
    out = []
    for target, origin in [("/users?per_page=30", "api"), ("/users/ada1", "api"), ("/users/ada1/repos", "api"), ("/u/3", "avatars")]:
        tag = re.search(rb"\r\nETag: ([^\r]*)", fetch("GET", target, [], origin))
        etag = tag.group(1).decode() if tag else '"none"'
        for condition in [etag, etag.replace("W/", ""), "W/" + etag, '"other", ' + etag, "*", '"other"']:
            for accept in ([], [("Accept-Encoding", "gzip")]):
                out.append(("GET", target, [("If-None-Match", condition)] + accept, origin))
    return out

def normalised(answers, avatar):
    seen = {}
    out = []
    for answer in answers:
        head, _, body = answer.partition(b"\r\n\r\n")
        status_line = head.split(b"\r\n")[0]
        weak = re.search(rb'\r\nETag: W/"([0-9a-f]+)"', head)
        if weak and b" 200 " in status_line and body and b"Content-Encoding" not in head and b"Transfer-Encoding" not in head:
            if hashlib.sha256(body).hexdigest()[:32].encode() != weak.group(1):
                problems.append(f"ETag is not the body's SHA-256 prefix: {head[:120]!r}")
        if b"Content-Encoding: gzip" in head:
            head = re.sub(rb"\r\nContent-Length: \d+", b"\r\nContent-Length: (gzip)", head)
            if body and b"Transfer-Encoding" not in head:
                plain = zlib.decompress(body, 47)
                deflater = zlib.compressobj(6, zlib.DEFLATED, 31, 8)
                if deflater.compress(plain) + deflater.flush() != body:
                    problems.append(f"gzip body is not zlib level 6 of the plain body: {head[:120]!r}")
                body = b"(gzip of) " + plain
        answer = head + b"\r\n\r\n" + body
        answer = re.sub(rb"\r\nDate: [^\r]*", b"\r\nDate: -", answer)
        answer = re.sub(rb"\r\nX-Request-ID: [^\r]*", b"\r\nX-Request-ID: -", answer, flags=re.I)
        answer = re.sub(rb"\r\nX-RateLimit-Reset: \d+", b"\r\nX-RateLimit-Reset: -", answer)
        answer = re.sub(rb'"reset":\d+', b'"reset":-', answer).replace(b":%d/" % avatar, b":AVATARS/")
        out.append(re.sub(rb"[0-9a-f]{32}", lambda tag: b"ETAG%d" % seen.setdefault(tag.group(0), len(seen)), answer))
    return out

def run(binary, port, extra):
    process, avatar = start(binary, port, extra)
    try:
        fetch = lambda method, target, headers, origin: exchange(port if origin == "api" else avatar, method, target, headers)
        first = list(requests())
        answers = [fetch(*request) for request in first]
        conditional = conditional_requests(fetch)
        answers += [fetch(*request) for request in conditional]
        answers += [fetch(*request) for request in first]  # again: stored answers
        return first + conditional + first, normalised(answers, avatar)
    finally:
        process.terminate()
        process.wait()

def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    old, new = sys.argv[1:]
    configurations = [[], ["--demo-failure-rate", "0.3"], ["--demo-rate-limit", "40"],
                      ["--demo-users", "37", "--demo-failure-rate", "0.1", "--demo-rate-limit", "100"]]
    compared = differ = 0
    for index, extra in enumerate(configurations):
        requests_sent, old_answers = run(old, PORT + 2 * index, extra)
        _, new_answers = run(new, PORT + 2 * index + 1, extra)
        for request, a, b in zip(requests_sent, old_answers, new_answers):
            compared += 1
            if a != b:
                differ += 1
                if differ <= 5:
                    print("DIFFERS", extra, request, "\n  old:", a[:600], "\n  new:", b[:600])
    for problem in problems[:5]:
        print(problem)
    print(f"{compared} answers compared, {differ} differ, {len(problems)} malformed")
    sys.exit(1 if differ or problems else 0)

main()
