"""A total time limit for one HTTP exchange. ``requests``' ``timeout`` limits each read of the socket, so a server
that sends a byte every few seconds holds a request for ever; :class:`Deadline` gives a requests session whose
sockets are shut down when the limit passes, which ends whatever read is waiting (headers or body, plain or TLS).
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from types import TracebackType


class Deadline:
    """``with Deadline(seconds) as dl: dl.session().get(...)``: every socket the session opens is shut down once
    ``seconds`` have passed since the block began; :attr:`expired` then says that this is why a read failed."""

    def __init__(self, seconds: float):
        self.seconds = float(seconds)
        self.expired = False
        self._socks: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(self.seconds, self._expire)
        self._timer.daemon = True
        self._end = 0.0

    def __enter__(self) -> Deadline:
        self._end = time.monotonic() + self.seconds
        self._timer.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._timer.cancel()

    def left(self) -> float:
        """Seconds until the deadline (0 once passed)."""
        return max(0.0, self._end - time.monotonic())

    def session(self):
        """A ``requests.Session`` whose connections are cut at the deadline (imported here: requests costs every
        command's start 45 ms, and only a URL needs it)."""
        import requests
        from requests.adapters import HTTPAdapter
        from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

        adapter = HTTPAdapter(max_retries=0)
        adapter.poolmanager.pool_classes_by_scheme = {"http": self._pool(HTTPConnectionPool),
                                                      "https": self._pool(HTTPSConnectionPool)}
        s = requests.Session()
        s.mount("http://", adapter)
        s.mount("https://", adapter)
        return s

    def _pool(self, base: type) -> type:
        watch = self._watch

        class Watched(base.ConnectionCls):  # type: ignore[name-defined, misc]
            def _new_conn(self):  # urllib3's one place where a connection's socket is made (1.x and 2.x)
                sock = super()._new_conn()
                watch(sock)
                return sock

        return type(f"Watched{base.__name__}", (base,), {"ConnectionCls": Watched})

    def _watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._socks.append(sock)
            if self.expired:
                _cut(sock)

    def _expire(self) -> None:
        with self._lock:
            self.expired = True
            for sock in self._socks:
                _cut(sock)


def _cut(sock: socket.socket) -> None:
    """Shut ``sock`` down: a read waiting on it returns at once (closing alone does not wake it)."""
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
