"""On-disk cache of pruned game-day timetables, so only the first query of a day reads the feed.

An entry is a directory ``<cache root>/timetables/<key>/`` holding one parquet file per array group
(stations, stops, routes, trips, stop_times, transfers, links) and ``meta.json`` (key, schema version,
scalars, column dtypes, and the sha256 and row count of every file). The key hashes the feed content
(``FeedSource.fingerprint``), what of the game file shapes the day (``Game.timetable_digest``: area, modes,
walking links), the date and :data:`SCHEMA_VERSION`.

Publishing is atomic: an entry is written complete into a temporary directory inside the cache root and
then renamed into place, so a reader sees a whole entry or none. When two processes publish the same
key, the second rename fails and that process drops its copy. A per-key lock file additionally makes
concurrent processes wait for one build instead of all reading the feed (which for the national feed
costs minutes and gigabytes).

Loading verifies schema, key, hashes, row counts and dtypes, then ``Timetable.validate``; any mismatch
or read error makes the entry "bad": it is renamed aside (atomically, so no one else reads it), deleted,
and rebuilt. The cache never raises on its own account; failing to *write* an entry only logs a warning.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import errno
import functools
import hashlib
import io
import json
import logging
import os
import re
import secrets
import shutil
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from planner.config import cache_root
from planner.gamefile.game import Game
from planner.gtfs.cache_files import build_lock, fsync_dir, sweep, write_file
from planner.gtfs.source import FeedSource
from planner.timetable.model import Timetable
from planner.util.keptfiles import DamagedFile, read_kept

# Bump whenever the Timetable model, the ingest's output, or this file format changes: old entries then
# get other keys and are simply never read again.
SCHEMA_VERSION = 2
FORMAT = "sbb-planner timetable cache"
ENTRIES = "timetables"  # sub-folder of the cache root holding the entries

# Array groups -> Timetable fields, one parquet file each. ``trip_offset`` (n_trips + 1 values) is
# stored as its last n_trips values in ``trips`` plus its first value in meta.json.
GROUPS: dict[str, tuple[str, ...]] = {
    "stations": ("station_id", "station_name", "station_lat", "station_lon", "station_change"),
    "stops": ("stop_id", "stop_station", "stop_platform"),
    "routes": ("route_id", "route_name", "route_type", "route_mode", "route_category", "route_agency"),
    "trips": ("trip_id", "trip_route", "trip_headsign", "trip_short_name", "trip_offset"),
    "stop_times": ("st_stop", "st_arr", "st_dep", "st_pickup", "st_dropoff"),
    "transfers": ("xfer_from", "xfer_to", "xfer_seconds"),
    "links": ("link_from", "link_to", "link_seconds"),
}
SCALARS = ("date", "feed_version", "meta")  # kept in meta.json

log = logging.getLogger(__name__)


class _BadEntry(Exception):
    """An entry that must not be used (reason in the message)."""


def _check_fields() -> None:
    # A field added to Timetable without a place here would silently vanish from cached timetables.
    known = set(SCALARS).union(*GROUPS.values())
    fields = {f.name for f in dataclasses.fields(Timetable)}
    if fields != known:
        raise RuntimeError(f"planner.gtfs.cache does not match Timetable: missing {sorted(fields - known)}, "
                           f"unknown {sorted(known - fields)} (update GROUPS and bump SCHEMA_VERSION)")


# ---- where and under which key ---------------------------------------------------------------------

def entries_dir() -> Path:
    """Folder of the timetable entries inside :func:`cache_root`."""
    return cache_root() / ENTRIES


def cache_key(src: FeedSource, game: Game, date: dt.date | str) -> str:
    """Key of the game day: readable prefix (date, game) plus a hash of feed content, what of the game file shapes
    the timetable, and schema.

    The same feed under another path has the same key; another feed version has another key.
    """
    day = _iso(date)
    h = hashlib.sha256(f"timetable\0schema={SCHEMA_VERSION}\0code={_code_digest()}\0feed={src.fingerprint()}\0"
                       f"game={game.timetable_digest}\0date={day}".encode()).hexdigest()
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", game.name).strip("._")[:40] or "game"
    return f"{day}_{name}_{h[:24]}"


@functools.lru_cache(maxsize=1)
def _code_digest() -> str:
    """Hash of the code that shapes a cached timetable (ingest + model): a changed ingest never serves
    an entry built by the old code, even when nobody bumped SCHEMA_VERSION."""
    root = Path(__file__).resolve().parents[1]
    h = hashlib.sha256()
    for f in sorted([*root.joinpath("gtfs").glob("*.py"), root / "timetable" / "model.py",
                     root / "gamefile" / "area.py"]):
        if f.name not in ("download.py", "cache.py", "export.py"):
            h.update(f.name.encode())
            h.update(f.read_bytes())
    return h.hexdigest()[:16]


_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,127}")


def _check_key(key: str) -> str:
    # A key is a folder name: no separators, no "..", no hidden names (those are temp/set-aside dirs).
    if not _KEY.fullmatch(key):
        raise ValueError(f"cache key {key!r}: expected letters, digits, '_', '.', '-' (not leading)")
    return key


def _iso(date: dt.date | str) -> str:
    return date.isoformat() if isinstance(date, dt.date) else dt.date.fromisoformat(str(date)).isoformat()


# ---- write -------------------------------------------------------------------------------------------

def save(tt: Timetable, key: str) -> Path:
    """Store ``tt`` under ``key`` (atomic publish) and return the entry's folder.

    If an entry for ``key`` already exists (another process won the race), it is kept and this copy is
    dropped: both were built from the same inputs. Raises ``OSError`` when the cache cannot be written.
    """
    _publish(tt, _check_key(key))
    return entries_dir() / key


def _publish(tt: Timetable, key: str) -> bool:
    """Write and publish an entry; False when an entry for the key already existed (ours dropped)."""
    _check_fields()
    root = entries_dir()
    root.mkdir(parents=True, exist_ok=True)
    sweep(root)
    final = root / key
    tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{key}-", dir=root))
    try:
        files: dict[str, dict[str, Any]] = {}
        columns: dict[str, str] = {}
        for group, names in GROUPS.items():
            arrays, fields = [], []
            for name in names:
                value = getattr(tt, name)
                if name == "trip_offset":
                    value = np.asarray(value)[1:]
                if isinstance(value, np.ndarray):
                    columns[name] = value.dtype.str
                    arrays.append(pa.array(value))
                else:
                    columns[name] = "str"
                    arrays.append(pa.array(list(value), pa.string()))
                fields.append(name)
            table = pa.Table.from_arrays(arrays, names=fields)
            buf = io.BytesIO()
            # Uncompressed plain pages decode fastest; the arrays are small (tens of MB nationally).
            pq.write_table(table, buf, compression="none", use_dictionary=False)
            data = buf.getvalue()
            fname = f"{group}.parquet"
            write_file(tmp / fname, data)
            files[fname] = {"sha256": hashlib.sha256(data).hexdigest(), "rows": table.num_rows}
        meta = {
            "format": FORMAT, "schema": SCHEMA_VERSION, "key": key,
            "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "date": tt.date, "feed_version": tt.feed_version, "meta": tt.meta,
            "trip_offset_first": int(tt.trip_offset[0]) if len(tt.trip_offset) else None,
            "columns": columns, "files": files,
        }
        meta["sha256"] = _meta_digest(meta)
        write_file(tmp / "meta.json", json.dumps(meta, indent=1, ensure_ascii=False).encode())
        fsync_dir(tmp)
        try:
            os.rename(tmp, final)
        except OSError as exc:
            if exc.errno in (errno.EEXIST, errno.ENOTEMPTY) or isinstance(exc, FileExistsError):
                shutil.rmtree(tmp, ignore_errors=True)  # another process published first: keep theirs
                return False
            raise
        fsync_dir(root)
        return True
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


# ---- read --------------------------------------------------------------------------------------------

def load(key: str) -> Timetable | None:
    """The cached timetable for ``key``, or None when there is none or it was bad (then it is removed)."""
    entry = entries_dir() / _check_key(key)
    if not entry.is_dir():
        return None
    try:
        return _read(entry, key)
    except Exception as exc:  # anything wrong with an entry means "rebuild", never a traceback
        if not entry.exists():
            return None  # set aside by another process meanwhile
        reason = str(exc) if isinstance(exc, _BadEntry) else f"{type(exc).__name__}: {exc}"
        log.warning("cache entry %s is unusable (%s); rebuilding", entry, reason.splitlines()[0] if reason else "")
        _set_aside(entry, key)
        return None


def _set_aside(entry: Path, key: str) -> None:
    # Rename first (atomic: nobody opens it any more), then delete at leisure.
    bad = entry.parent / f".bad-{key}-{os.getpid()}-{secrets.token_hex(4)}"
    try:
        os.rename(entry, bad)
    except OSError:
        return  # already gone (another process set it aside) or not ours to move
    shutil.rmtree(bad, ignore_errors=True)


def _meta_digest(meta: dict[str, Any]) -> str:
    """sha256 of everything in meta.json but this digest: an edited date, feed version, scalar or
    column type is caught like an edited parquet file."""
    body = {k: v for k, v in meta.items() if k != "sha256"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


MAX_META = 16 << 20  # bytes of meta.json (a few KB)
MAX_PART = 2 << 30  # bytes of one parquet file (the national game day's stop_times: tens of MB)


def _entry_file(path: Path, limit: int) -> bytes:
    """The bytes of one file of an entry: a regular file of at most ``limit`` bytes, never followed through a
    link (a member linked to ``/dev/zero`` would fill the memory, a FIFO block for ever)."""
    try:
        data = read_kept(path, limit)
    except DamagedFile as exc:
        raise _BadEntry(str(exc)) from None
    if data is None:
        raise _BadEntry(f"{path.name}: missing")
    return data


def _read(entry: Path, key: str) -> Timetable:
    meta = json.loads(_entry_file(entry / "meta.json", MAX_META))
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise _BadEntry("meta.json is not a timetable cache description")
    if meta.get("sha256") != _meta_digest(meta):
        raise _BadEntry("meta.json does not match its checksum (edited?)")
    if re.match(r"\d{4}-\d\d-\d\d_", key) and meta.get("date") != key[:10]:  # keys of cache_key()
        raise _BadEntry(f"meta.json names date {meta.get('date')!r}, the key {key[:10]}")
    if meta.get("schema") != SCHEMA_VERSION:
        raise _BadEntry(f"schema {meta.get('schema')}, expected {SCHEMA_VERSION}")
    if meta.get("key") != key:
        raise _BadEntry(f"meta.json names key {meta.get('key')!r}")
    files, columns = meta["files"], meta["columns"]
    if set(files) != {f"{g}.parquet" for g in GROUPS}:
        raise _BadEntry(f"files {sorted(files)} do not match this planner's layout")
    values: dict[str, Any] = {name: meta[name] for name in SCALARS}
    for group, names in GROUPS.items():
        fname = f"{group}.parquet"
        data = _entry_file(entry / fname, MAX_PART)
        if hashlib.sha256(data).hexdigest() != files[fname]["sha256"]:
            raise _BadEntry(f"{fname}: sha256 mismatch")
        # ParquetFile, not pq.read_table: the latter imports pyarrow.dataset and pandas (~0.4 s cold)
        # one thread: a started pyarrow thread pool can abort the process at exit ("terminate called without an
        # active exception", apache/arrow#34314); a cached day is small enough to read in this thread
        table = pq.ParquetFile(pa.BufferReader(data)).read(use_threads=False)
        if table.num_rows != files[fname]["rows"] or table.column_names != list(names):
            raise _BadEntry(f"{fname}: unexpected rows or columns")
        for name in names:
            col = table.column(name)
            kind = columns[name]
            if kind == "str":
                values[name] = col.to_pylist()
            else:
                # np.array copies: arrays backed by the parquet buffer would be read-only
                values[name] = _to_numpy(col, np.dtype(kind), name)
    if meta["trip_offset_first"] is not None:
        first = np.array([meta["trip_offset_first"]], dtype=values["trip_offset"].dtype)
        values["trip_offset"] = np.concatenate([first, values["trip_offset"]])
    tt = Timetable(**values)
    try:
        tt.validate()
    except ValueError as exc:
        raise _BadEntry(f"inconsistent timetable: {exc}") from None
    return tt


def _to_numpy(col: pa.ChunkedArray, dtype: np.dtype, name: str) -> np.ndarray:
    """A writable numpy copy of a null-free fixed-width column, straight from its Arrow buffers.

    Not ``to_numpy()``: in pyarrow it imports pandas, which alone costs ~0.4 s in a fresh process.
    """
    arr = col.chunk(0) if col.num_chunks == 1 else col.combine_chunks()
    n, off = len(arr), arr.offset
    if arr.null_count:
        raise _BadEntry(f"column {name} has nulls")
    want_bool = dtype == np.dtype(bool)
    if pa.types.is_boolean(arr.type) != want_bool or (not want_bool and arr.type.bit_width != 8 * dtype.itemsize):
        raise _BadEntry(f"column {name} is {arr.type}, expected {dtype}")
    buf = arr.buffers()[1]
    if n == 0 or buf is None:
        return np.zeros(0, dtype)
    if want_bool:  # Arrow packs booleans as bits, least significant first
        bits = np.frombuffer(buf, np.uint8)
        return np.unpackbits(bits, count=off + n, bitorder="little")[off:].astype(bool)
    return np.frombuffer(buf, dtype=dtype, count=n, offset=off * dtype.itemsize).copy()


# ---- the one call the commands use -------------------------------------------------------------------

def load_or_build(feed_path: str | Path | FeedSource, game: Game, date: dt.date | str,
                  progress: bool | None = None) -> Timetable:
    """The game-day timetable from the cache, building it from the feed (and caching it) on a miss.

    ``tt.meta["cache"]`` tells what happened: ``{"key", "status": "hit" | "built", "path", "saved"}``.
    Errors of the feed itself (``FeedError``) propagate; cache trouble never does.
    """
    src = feed_path if isinstance(feed_path, FeedSource) else FeedSource(feed_path)
    day = date if isinstance(date, dt.date) else dt.date.fromisoformat(str(date))
    key = cache_key(src, game, day)
    tt = load(key)
    if tt is not None:
        return _annotate(tt, src, key, "hit", True)
    with build_lock(cache_root() / "locks", key, progress):
        tt = load(key)  # another process may have built it while we waited for the lock
        if tt is not None:
            return _annotate(tt, src, key, "hit", True)
        # lazy: a hit needs none of the CSV machinery, which adds about 0.45 s to every command's start-up
        # (pyarrow.csv and the ingest modules; measured with the cache already imported)
        from planner.gtfs.ingest import build_timetable

        built = build_timetable(src, game, day, progress=progress)
        try:
            won = _publish(built, key)
        except (OSError, TypeError, ValueError, pa.ArrowException) as exc:  # disk full, read-only, odd meta
            log.warning("cannot write the timetable cache in %s (%s); continuing without it", entries_dir(), exc)
            return _annotate(built, src, key, "built", False)
        if not won:  # lost a publish race (no lock on this platform): use the published entry
            theirs = load(key)
            if theirs is not None:
                return _annotate(theirs, src, key, "hit", True)
        return _annotate(built, src, key, "built", True)


def _annotate(tt: Timetable, src: FeedSource, key: str, status: str, saved: bool) -> Timetable:
    if "feed" in tt.meta:
        tt.meta["feed"] = src.label  # as a fresh build would say (the entry may come from a copy elsewhere)
    tt.meta["cache"] = {"key": key, "status": status, "path": str(entries_dir() / key), "saved": saved}
    return tt


__all__ = ["SCHEMA_VERSION", "cache_key", "entries_dir", "load", "load_or_build", "save"]
