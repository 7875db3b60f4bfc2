"""File-system primitives of the timetable cache: durable writes, the sweep of crashed writers' folders, and
the per-key build lock (so concurrent processes build a game day once)."""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: no flock; the cache falls back on its rename race, correct, only wasteful
    fcntl = None

STALE_TEMP_SECONDS = 3600  # a temp dir this old belongs to a crashed writer


def write_file(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` and flush it to the disk."""
    with open(path, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def fsync_dir(path: Path) -> None:
    """Flush a folder's entries (a rename in it) to the disk."""
    # Makes the rename durable; not possible on every platform (Windows), harmless to skip there.
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def sweep(root: Path) -> None:
    """Remove temp and set-aside folders left by crashed processes (only old ones: others may be live)."""
    now = time.time()
    for p in root.glob(".*-*"):
        if not p.name.startswith((".tmp-", ".bad-")):
            continue
        try:
            if now - p.stat().st_mtime > STALE_TEMP_SECONDS:
                shutil.rmtree(p, ignore_errors=True)
        except OSError:
            pass


@contextlib.contextmanager
def build_lock(lockdir: Path, key: str, progress: bool | None) -> Iterator[None]:
    """Exclusive per-key lock (``flock``) so concurrent processes build once; no-op where unavailable.

    The kernel drops the lock when its holder dies, so a crashed builder never blocks the others.
    """
    if fcntl is None:
        yield
        return
    try:
        lockdir.mkdir(parents=True, exist_ok=True)
        fh = open(lockdir / f"{key}.lock", "a+b")
    except OSError:
        yield  # read-only cache: build without it (the save will warn)
        return
    try:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if progress or (progress is None and sys.stderr.isatty()):
                print("waiting for another planner process building this game day ...", file=sys.stderr)
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        yield
    finally:
        fh.close()  # closing releases the lock
