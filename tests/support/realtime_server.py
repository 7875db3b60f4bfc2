"""A real HTTP server on loopback that serves a GTFS-RT feed (an ETag, conditional requests), for the real-time
tests: no network is needed."""

from __future__ import annotations

import http.server
import threading
from contextlib import contextmanager


class FeedHandler(http.server.BaseHTTPRequestHandler):
    body = b""
    etag = '"v1"'
    seen: list = []

    def do_GET(self):  # noqa: N802 - the http.server interface
        type(self).seen.append({"auth": self.headers.get("Authorization"), "inm": self.headers.get("If-None-Match")})
        if self.path != "/feed":
            self.send_error(404)
            return
        if self.headers.get("If-None-Match") == self.etag:
            self.send_response(304)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("ETag", self.etag)
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *a):
        pass


@contextmanager
def feed_server(body: bytes):
    """Serve ``body`` at ``/feed`` under ETag ``"v1"`` (a test may change both while it runs); yield the base URL.
    Each server starts from that state, whatever an earlier test of the process set."""
    FeedHandler.body, FeedHandler.etag, FeedHandler.seen = body, '"v1"', []
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FeedHandler)
    th = threading.Thread(target=srv.serve_forever, daemon=True)
    th.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}"
    finally:
        srv.shutdown()
        srv.server_close()
