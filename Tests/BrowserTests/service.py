"""Starts and stops a stream-service process for the browser tests (by PID, 127.0.0.1 only)."""
import os
import re
import signal
import subprocess
import time
import urllib.request

LISTENING = re.compile(r"listening on (https?)://127\.0\.0\.1:(\d+)")


class Service:
    """One `stream-service serve` on 127.0.0.1; `port=0` lets it pick a free port."""

    def __init__(self, binary, *flags, port=0, env=None, log_path=None):
        self.binary = binary
        self.flags = list(flags)
        self.port = port
        self.env = env
        self.log_path = log_path
        self.process = None

    def start(self, timeout=20):
        args = [self.binary, "serve", "--host", "127.0.0.1", "--port", str(self.port), *self.flags]
        env = dict(os.environ, **(self.env or {}))
        self.log = open(self.log_path or os.devnull, "a")
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, text=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"stream-service exited before listening (status {self.process.poll()})")
            self.log.write(line)
            match = LISTENING.search(line)
            if match:
                self.scheme, self.port = match.group(1), int(match.group(2))
                self._drain()
                return self
        raise RuntimeError("stream-service did not report its port within %ss" % timeout)

    def _drain(self):
        """Keeps reading the log so the process never blocks on a full pipe."""
        import threading

        def pump(stream, sink):
            try:
                for line in stream:
                    sink.write(line)
            except ValueError:  # stopped and its log closed: the rest is not needed
                pass
        threading.Thread(target=pump, args=(self.process.stdout, self.log), daemon=True).start()

    @property
    def origin(self):
        return f"http://127.0.0.1:{self.port}"

    def get(self, path, headers=None):
        request = urllib.request.Request(self.origin + path, headers=headers or {})
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, dict(response.headers), response.read()

    def stop(self, timeout=15):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
