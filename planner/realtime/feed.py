"""Reading a GTFS-RT feed: the bytes from a file or a URL (conditional requests, an API key), decoded into
columns (:mod:`planner.realtime.wire`). Errors are :class:`RealtimeError` (one line: the CLI exits 2) or,
for a URL that does not answer, :class:`RealtimeUnavailable` (the caller falls back to the timetable)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from planner.errors import InputError
from planner.realtime import wire
from planner.util.deadline import Deadline
from planner.util.i18n import _

MAX_BYTES = 256 * 1024 * 1024  # the whole of Switzerland is tens of MB; more is not a feed
TIMEOUT = 20  # seconds one read of the socket may wait
DEADLINE = 60  # seconds one whole request may take (the national feed is tens of MB: seconds on a slow line)


class RealtimeError(InputError):
    """The real-time feed is not usable (garbage, truncated, wrong date, not a file): one line, exit 2."""


class RealtimeUnavailable(RealtimeError):
    """The real-time source did not answer (network, HTTP error): answers fall back to the timetable."""


class FeedData:
    """One decoded FeedMessage: the header and its trip updates and stop-time updates as columns (``tu``,
    ``su``: :mod:`planner.realtime.wire`), their strings as offsets into ``buf`` (decoded on demand)."""

    def __init__(self, source: str, buf: np.ndarray, timestamp: int, n_entities: int, tu: np.ndarray,
                 su: np.ndarray):
        self.source, self.buf, self.size = source, buf, len(buf)
        self.timestamp, self.n_entities, self.tu, self.su = timestamp, n_entities, tu, su

    @property
    def n_trip_updates(self) -> int:
        """Number of trip updates in the feed."""
        return len(self.tu)

    @cached_property
    def trip_id(self) -> np.ndarray:
        """Each trip update's ``trip_id`` (bytes)."""
        return wire.strings(self.buf, self.tu[:, wire.TU_ID_OFF], self.tu[:, wire.TU_ID_LEN])

    @cached_property
    def original_trip_id(self) -> np.ndarray:
        """Each trip update's ``original_trip_id`` (the Swiss profile's field 8; bytes, empty when absent)."""
        return wire.strings(self.buf, self.tu[:, wire.TU_ORIG_OFF], self.tu[:, wire.TU_ORIG_LEN])

    @cached_property
    def start_date(self) -> np.ndarray:
        """Each trip update's ``start_date`` (``b"YYYYMMDD"`` or ``b""``)."""
        return wire.strings(self.buf, self.tu[:, wire.TU_DATE_OFF], self.tu[:, wire.TU_DATE_LEN], 8)

    @cached_property
    def stop_id(self) -> np.ndarray:
        """Each stop-time update's ``stop_id`` (bytes)."""
        return wire.strings(self.buf, self.su[:, wire.SU_STOP_OFF], self.su[:, wire.SU_STOP_LEN])


def decode_feed(data: bytes, source: str) -> FeedData:
    """Decode the bytes of a FeedMessage; a file that is not one (empty, garbage, truncated, no header) is a
    :class:`RealtimeError` naming ``source`` and why."""
    if not data:
        raise RealtimeError(_("real-time feed {source}: empty file (not a GTFS-RT FeedMessage)").format(source=source))
    buf = np.frombuffer(data, np.uint8)
    none_tu, none_su = np.zeros((0, wire.N_TU), np.int64), np.zeros((0, wire.N_SU), np.int64)
    err, has_header, has_version, ts, n_tu, n_su, n_ent = wire.decode(buf, none_tu, none_su, False)
    if err:
        raise _not_a_feed(source, err)
    if not (has_header and has_version):
        raise RealtimeError(_("real-time feed {source}: not a GTFS-RT FeedMessage: no header with a version").format(
            source=source))
    tu = np.empty((n_tu, wire.N_TU), np.int64)
    su = np.empty((n_su, wire.N_SU), np.int64)
    err = wire.decode(buf, tu, su, True)[0]  # the counting walk does not enter descriptors and stop updates
    if err:
        raise _not_a_feed(source, err)
    return FeedData(source, buf, int(ts), int(n_ent), tu, su)


def _not_a_feed(source: str, err: int) -> RealtimeError:
    if err == wire.ERR_TRUNCATED:
        return RealtimeError(_("real-time feed {source}: not a GTFS-RT FeedMessage: truncated (a field runs past "
                               "the end)").format(source=source))
    return RealtimeError(_("real-time feed {source}: not a GTFS-RT FeedMessage: not protobuf (bad wire "
                           "type)").format(source=source))


def is_url(source: str) -> bool:
    """True for an ``http(s)://`` source."""
    return str(source).startswith(("http://", "https://"))


def read_file(path: str) -> bytes:
    """The bytes of a feed file (a regular file of at most :data:`MAX_BYTES`)."""
    p = Path(path)
    if not p.exists():
        raise RealtimeError(_("real-time feed {source}: not found").format(source=path))
    if not p.is_file():
        raise RealtimeError(_("real-time feed {source}: not a regular file").format(source=path))
    if p.stat().st_size > MAX_BYTES:
        raise RealtimeError(_("real-time feed {source}: larger than {n} MiB").format(source=path, n=MAX_BYTES // 2**20))
    return p.read_bytes()


@dataclass(frozen=True)
class Fetched:
    """What one request for a URL gave: the body (None when not modified) and the validators to send next."""

    body: bytes | None
    etag: str | None
    last_modified: str | None
    status: int


def fetch_url(url: str, *, key: str | None = None, etag: str | None = None, last_modified: str | None = None,
              timeout: float = TIMEOUT, deadline: float | None = None) -> Fetched:
    """GET ``url`` with the API key (``Authorization: Bearer``) and the validators of the last answer
    (``If-None-Match``/``If-Modified-Since``: an unchanged feed costs one short answer, 304). Each read waits at most
    ``timeout`` s and the whole exchange at most ``deadline`` s (default :data:`DEADLINE`): a server that trickles is
    cut then. A network error, an HTTP error or the deadline is :class:`RealtimeUnavailable`."""
    # imported here: requests and urllib3 are 45-65 ms of every command's start (python -X importtime), and
    # only a URL feed needs them
    import requests
    import urllib3

    headers = {"Accept": "application/x-protobuf, application/octet-stream", "User-Agent": "sbb-planner"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    if etag:
        headers["If-None-Match"] = etag
    if last_modified:
        headers["If-Modified-Since"] = last_modified
    total = DEADLINE if deadline is None else deadline
    late = RealtimeUnavailable(_("real-time feed {url}: no complete answer within {seconds} s (the server is too "
                                 "slow)").format(url=url, seconds=f"{total:g}"))
    with Deadline(total) as dl, dl.session() as s:
        try:
            r = s.get(url, headers=headers, timeout=min(timeout, total), stream=True)
        except requests.RequestException as exc:
            raise (late if dl.expired else RealtimeUnavailable(
                f"real-time feed {url}: unreachable ({type(exc).__name__})")) from None
        with r:
            if r.status_code == 304:
                return Fetched(None, etag, last_modified, 304)
            if r.status_code != 200:
                raise RealtimeUnavailable(f"real-time feed {url}: HTTP {r.status_code}")
            try:
                body = _body(r, url, dl)
            except (requests.RequestException, urllib3.exceptions.HTTPError, OSError) as exc:
                raise (late if dl.expired else RealtimeUnavailable(
                    f"real-time feed {url}: cut off ({type(exc).__name__})")) from None
            if body is None:
                raise late
            return Fetched(body, r.headers.get("ETag"), r.headers.get("Last-Modified"), 200)


def _body(r, url: str, dl: Deadline) -> bytes | None:
    """The body of ``r`` (None once the deadline passed): read as the socket gives it (read1), so the deadline is
    looked at between bytes that trickle in, also where no socket of the session is watched (a proxy)."""
    chunks, size = [], 0
    while chunk := r.raw.read1(1 << 20, decode_content=True):
        size += len(chunk)
        if size > MAX_BYTES:
            raise RealtimeError(_("real-time feed {source}: larger than {n} MiB").format(
                source=url, n=MAX_BYTES // 2**20))
        chunks.append(chunk)
        if not dl.left():
            return None
    if dl.expired:  # the end of the body was the socket being cut
        return None
    return b"".join(chunks)


def api_key(env_name: str | None) -> str | None:
    """The API key from the environment variable ``env_name`` (never from the command line: it would show in
    the process list); None when no name is given. A name given but unset is an error."""
    if not env_name:
        return None
    key = os.environ.get(env_name, "").strip()
    if not key:
        raise RealtimeError(_("--realtime-key-env {name}: the environment variable is not set").format(name=env_name))
    return key
