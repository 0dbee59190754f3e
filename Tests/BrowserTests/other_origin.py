"""A page on another origin (another port of 127.0.0.1) that uses the service cross-origin."""
import http.server
import threading

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Another origin</title><link rel="icon" href="data:,"></head>
<body><p>A page on another origin, reading the service at <code id="api"></code>.</p>
<script>
  const api = new URL(location).searchParams.get('api');
  document.getElementById('api').textContent = api;
  window.results = { events: 0 };
  const feed = new EventSource(api + '/events');
  feed.addEventListener('open', () => {
    window.results.open = true;
    // If-None-Match is not a safelisted header, so this fetch needs a preflight first.
    fetch(api + '/users?limit=2', { headers: { 'If-None-Match': '"stale"' } })
      .then((r) => r.json().then((users) => { window.results.fetch = { status: r.status, users: users.length, etag: r.headers.get('ETag') }; }))
      .catch((e) => { window.results.fetch = { error: String(e) }; });
  });
  for (const kind of ['subscribe', 'data', 'end']) feed.addEventListener(kind, () => { window.results.events += 1; });
  feed.addEventListener('error', () => { window.results.feedState = feed.readyState; });
  // The refused case never opens, so its fetch starts here.
  setTimeout(() => {
    if (window.results.open) return;
    fetch(api + '/users?limit=2').then((r) => { window.results.fetch = { status: r.status }; })
      .catch((e) => { window.results.fetch = { error: String(e) }; });
  }, 300);
</script></body></html>
""".encode()


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *args):
        pass


class OtherOrigin:
    """Serves PAGE at http://127.0.0.1:<port>/ from a thread until `stop()`."""

    def __init__(self):
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def origin(self):
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
