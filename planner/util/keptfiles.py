"""Reading the files the planner keeps for itself in its cache (timetable entries, the lab's rates): bounded, never
through a link, never from a pipe or device, and set aside when damaged.

Such a file is the planner's own, but anything may have taken its place (a disk error, an edit, a link to
``/dev/zero``, a FIFO that blocks a reader for ever). A read takes at most ``limit`` bytes of a regular file opened
without following a link and without blocking; anything else is :class:`DamagedFile`, which the caller answers by
setting the file aside (:func:`set_aside`) and doing without it.
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

from planner.util.i18n import _


class DamagedFile(Exception):
    """A kept file that must not be used (the reason is the message)."""


def read_kept(path: Path, limit: int) -> bytes | None:
    """The bytes of the kept file ``path`` (None when there is none); :class:`DamagedFile` when it is a link, not a
    regular file, or larger than ``limit`` bytes."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:  # ELOOP: a symlink (O_NOFOLLOW); others: unreadable
        if os.path.islink(path):
            raise DamagedFile(_("{file}: a link").format(file=path.name)) from None
        raise DamagedFile(_("{file}: cannot be read ({why})").format(file=path.name, why=exc.strerror)) from None
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
        os.close(fd)
        raise DamagedFile(_("{file}: not a regular file").format(file=path.name) if not stat.S_ISREG(st.st_mode)
                          else _("{file}: {size} bytes (at most {limit})").format(file=path.name, size=st.st_size,
                                                                                   limit=limit))
    with os.fdopen(fd, "rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise DamagedFile(_("{file}: grew past {limit} bytes while read").format(file=path.name, limit=limit))
    return data


def set_aside(path: Path) -> Path | None:
    """Move the damaged ``path`` out of the readers' way, beside it as ``.<name>.damaged-<random>`` (kept for a
    person to look at; a link or FIFO stays what it is, it is never read). None when it could not be moved (gone
    already, or the folder cannot be written)."""
    aside = path.with_name(f".{path.name}.damaged-{secrets.token_hex(4)}")
    try:
        os.rename(path, aside)
    except OSError:
        return None
    return aside
