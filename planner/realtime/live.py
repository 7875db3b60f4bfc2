"""``planner serve --realtime URL``: one fetch of the feed for every group and both server processes.

A thread polls the URL (every :data:`INTERVAL` s at most: the platform's request limit; conditional requests,
so an unchanged feed costs one short 304), checks that the body is a FeedMessage, and publishes it atomically
as a file beside a small status file (``{fetched_at, status, error, etag}``). Every process of the server
reads that file (:func:`planner.service.read.realtime.refresh_overlay`): one request to the platform, however many
phones ask. A failed fetch keeps the last good file and says why in the status (the phones show a banner).
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

from planner.realtime.feed import RealtimeError, decode_feed, fetch_url
from planner.util.atomic import atomic_write_bytes, atomic_write_text

INTERVAL = 30.0  # seconds between requests: the feed is refreshed about every 30 s, the platform limits requests


def status_path(feed_path: Path) -> Path:
    """The status file beside a published feed."""
    return feed_path.with_suffix(feed_path.suffix + ".json")


def read_status(feed_path: Path) -> dict:
    """The poller's last status (``{}`` when none yet or unreadable)."""
    try:
        return json.loads(status_path(feed_path).read_text())
    except (OSError, ValueError):
        return {}


class LiveFeed:
    """Polls ``url`` into ``path`` (see the module docstring) until :meth:`stop`."""

    def __init__(self, url: str, path: Path, *, key: str | None = None, interval: float = INTERVAL):
        self.url, self.path, self.key, self.interval = url, Path(path), key, max(1.0, float(interval))
        self.etag: str | None = None
        self.last_modified: str | None = None
        self.requests = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="realtime-feed", daemon=True)

    def start(self) -> dict:
        """Fetch once now (so that the first answers have data), then poll in the background; returns the
        first fetch's status."""
        status = self.poll_once()
        self._thread.start()
        return status

    def stop(self) -> None:
        """Stop polling (the last published file stays)."""
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            self.poll_once()

    def poll_once(self) -> dict:
        """One conditional request; publishes a new valid feed; returns the status written."""
        self.requests += 1
        status: dict = {"fetched_at": int(time.time()), "url": self.url, "url_requests": self.requests}
        try:
            got = fetch_url(self.url, key=self.key, etag=self.etag, last_modified=self.last_modified)
            if got.body is not None:
                decode_feed(got.body, self.url)  # garbage is not published: the last good feed stays
                self.path.parent.mkdir(parents=True, exist_ok=True)
                atomic_write_bytes(self.path, got.body)
            self.etag, self.last_modified = got.etag, got.last_modified
            status |= {"status": got.status, "error": None}
        except RealtimeError as exc:
            status |= {"status": None, "error": str(exc)}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(status_path(self.path), json.dumps(status))
        return status
