"""Loopback HTTP servers of a feed zip for the download tests (no internet): with Range support like the real
download server, and variants that misbehave."""

from __future__ import annotations

import contextlib
import functools
import http.server
import threading
from pathlib import Path


class RangeHandler(http.server.SimpleHTTPRequestHandler):
    """Serves files with HTTP Range support (like the real download server) and counts bytes sent."""

    sent: list[int] = []

    def log_message(self, *args):  # quiet
        pass

    def do_GET(self):  # noqa: N802 - http.server API
        path = Path(self.translate_path(self.path))
        if not path.is_file():
            self.send_error(404)
            return
        data = path.read_bytes()
        rng = self.headers.get("Range")
        if rng:
            start = int(rng.split("=")[1].split("-")[0])
            if start >= len(data):
                self.send_response(416)
                self.end_headers()
                return
            body = data[start:]
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        else:
            body = data
            self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        RangeHandler.sent.append(len(body))  # before the body: the client may finish reading first
        self.wfile.write(body)


@contextlib.contextmanager
def serving(tmp_path, handler_cls, body: bytes):
    """A loopback server of ``body`` as GTFS_FP2019_20190118.zip; yields its URL."""
    root = tmp_path / "www"
    root.mkdir(exist_ok=True)
    (root / "GTFS_FP2019_20190118.zip").write_bytes(body)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler_cls, directory=str(root)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/GTFS_FP2019_20190118.zip"
    finally:
        httpd.shutdown()
