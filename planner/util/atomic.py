"""Atomic file writes: write to a temporary file beside the target, then rename.

``tempfile.mkstemp`` creates its file 0600. That is right for the group state and tokens, wrong for maps, reports
and handouts that an organiser serves or shares, so files are given the mode a plain ``open()`` would give them
(0666 less the umask) unless the caller asks for ``private=True``.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

# Never written into, whatever path a user passes (``map --out /`` once wrote into /usr/lib).
SYSTEM_DIRS = ("/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/proc", "/run", "/sbin",
               "/sys", "/usr")


def system_path(path: str | Path) -> bool:
    """True for ``/`` and paths inside :data:`SYSTEM_DIRS` (symlinks resolved)."""
    r = str(Path(path).resolve())
    return r == "/" or any(r == d or r.startswith(d + "/") for d in SYSTEM_DIRS)


def current_umask() -> int:
    """The process umask, read without changing it where the platform allows (``/proc``), else set and restored."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except OSError:
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def public_mode() -> int:
    """The mode of a new file meant for people: 0666 less the umask (0644 under the usual umask 022)."""
    return 0o666 & ~current_umask()


def atomic_write_bytes(path: str | Path, data: bytes, *, private: bool = False) -> None:
    """Write ``data`` to ``path`` so a reader sees either the old file or the complete new one.

    ``private=True`` keeps the file 0600 (secrets, state); otherwise it gets :func:`public_mode`.
    Refuses system folders (:func:`system_path`) with a ``PermissionError``.
    """
    path = Path(path)
    if system_path(path.parent):
        raise PermissionError(13, "refusing to write into a system folder", str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        if not private:
            os.fchmod(fd, public_mode())
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError) and exc.filename is None:  # a failed write names no file: the target it was for
            raise OSError(exc.errno, exc.strerror or type(exc).__name__, str(path)) from exc
        raise


def atomic_write_text(path: str | Path, text: str, *, private: bool = False) -> None:
    """Text variant of :func:`atomic_write_bytes` (UTF-8)."""
    atomic_write_bytes(path, text.encode("utf-8"), private=private)
