"""Atomic file writes: write to a temporary file beside the target, then rename."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

# Never written into, whatever path a user passes (``map --out /`` once wrote into /usr/lib).
SYSTEM_DIRS = ("/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/proc", "/run", "/sbin",
               "/sys", "/usr")


_UMASK = os.umask(0o022)  # read once at import (os.umask can only be read by setting it) ...
os.umask(_UMASK)  # ... and put back at once


def system_path(path: str | Path) -> bool:
    """True for ``/`` and paths inside :data:`SYSTEM_DIRS` (symlinks resolved)."""
    r = str(Path(path).resolve())
    return r == "/" or any(r == d or r.startswith(d + "/") for d in SYSTEM_DIRS)


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so a reader sees either the old file or the complete new one.

    Refuses system folders (:func:`system_path`) with a ``PermissionError``.
    """
    path = Path(path)
    if system_path(path.parent):
        raise PermissionError(13, "refusing to write into a system folder", str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        os.fchmod(fd, 0o666 & ~_UMASK)  # as open() would create it (mkstemp makes it private: 0600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: str | Path, text: str) -> None:
    """Text variant of :func:`atomic_write_bytes` (UTF-8)."""
    atomic_write_bytes(path, text.encode("utf-8"))
