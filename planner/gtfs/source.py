"""Where a feed comes from: a zip, a folder (possibly holding the zip), or a URL (downloaded first)."""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import tempfile
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from planner.config import cache_root
from planner.errors import FeedError
from planner.util.atomic import atomic_write_text
from planner.util.i18n import _
from planner.util.userfiles import file_kind

MAX_INNER = 2 << 30  # bytes of a zip inside the feed zip (the national feed is about 200 MB)


class FeedSource:
    """Read access to the ``*.txt`` members of a GTFS feed, wherever they live."""

    def __init__(self, path: str | Path):
        self.label = str(path)
        p = Path(path)
        kind = file_kind(p)
        if kind in ("missing", "below-file"):
            raise FeedError(_("feed {path}: not found (give a GTFS zip or folder, or run {command})").format(
                path=path, command="'planner feed download'"))
        if kind == "special":  # a FIFO blocks for ever, /dev/zero never ends
            raise FeedError(_("feed {path}: not a regular file or folder (give a GTFS zip or folder)").format(
                path=path))
        self._zip: zipfile.ZipFile | None = None
        self._zip_path: Path | None = None  # the zip file whose bytes identify the feed
        self._dir: Path | None = None
        self._prefix = ""
        if p.is_dir():
            if (p / "stops.txt").exists() or (p / "stop_times.txt").exists():
                self._dir = p
                _check_members(p)
            else:
                zips = sorted(p.glob("*.zip"))
                if len(zips) == 1:
                    self._open_zip(zips[0])
                else:
                    raise FeedError(f"feed {path}: folder has no stops.txt/stop_times.txt"
                                    + (f" and {len(zips)} zips (name one)" if zips else ""))
        else:
            self._open_zip(p)
        self.path = p

    def _open_zip(self, p: Path) -> None:
        try:
            # No testzip() here: it reads the whole feed on every query. A corrupt member is reported
            # when it is read (FeedSource.open turns BadZipFile/CRC errors into a FeedError).
            self._zip = zipfile.ZipFile(p)
            self._zip_path = p
        except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError) as exc:  # NotImplemented: odd version
            raise FeedError(f"feed {p}: not a readable zip ({_why(exc)})") from None
        names = self._zip.namelist()
        # A feed zipped with its folder: members like "gtfs/stops.txt".
        if "stops.txt" not in names:
            cands = [n for n in names if n.endswith("/stops.txt") or n.endswith("/stop_times.txt")]
            if cands:
                self._prefix = cands[0].rsplit("/", 1)[0] + "/"
            else:
                inner = [n for n in names if n.endswith(".zip")]
                if len(inner) == 1:
                    self._open_inner(p, inner[0])

    def _open_inner(self, p: Path, member: str) -> None:
        """A zip inside the zip: extracted once (at most :data:`MAX_INNER` bytes) beside the cache, never
        read whole into memory."""
        assert self._zip is not None
        info = self._zip.getinfo(member)
        if info.file_size > MAX_INNER:
            raise FeedError(f"feed {p}: inner zip {member} is {info.file_size >> 20} MiB "
                            f"(at most {MAX_INNER >> 20} MiB)")
        key = hashlib.sha256(f"{self.fingerprint()}\0{member}".encode()).hexdigest()[:24]
        target = cache_root() / "inner-zips" / f"{key}.zip"
        try:
            if not (target.is_file() and target.stat().st_size == info.file_size):
                _extract(self._zip, info, target)
            self._zip = zipfile.ZipFile(target)
        except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError, RuntimeError, zlib.error) as exc:
            raise FeedError(f"feed {p}: inner zip {member} is not readable ({_why(exc)})") from None

    def has(self, name: str) -> bool:
        """True when the feed has the member ``name`` (e.g. ``"calendar.txt"``)."""
        if self._dir is not None:
            return (self._dir / name).is_file()
        assert self._zip is not None
        try:
            self._zip.getinfo(self._prefix + name)
            return True
        except KeyError:
            return False

    def size(self, name: str) -> int:
        """Uncompressed size of a member in bytes (for progress bars)."""
        if self._dir is not None:
            return (self._dir / name).stat().st_size
        assert self._zip is not None
        return self._zip.getinfo(self._prefix + name).file_size

    @contextmanager
    def open(self, name: str) -> Iterator[IO[bytes]]:
        """Open a member as a binary stream; raise :class:`FeedError` when it is missing."""
        if not self.has(name):
            raise FeedError(f"feed {self.label}: {name} missing")
        if self._dir is None:
            assert self._zip is not None
            try:  # a damaged directory entry: bad header, unknown compression method
                member = self._zip.open(self._prefix + name)
            except (zipfile.BadZipFile, EOFError, zipfile.LargeZipFile, NotImplementedError, zlib.error, OSError,
                    RuntimeError) as exc:  # RuntimeError: "encrypted" flag
                raise FeedError(f"feed {self.label}: {name} is corrupt ({_why(exc)})") from None
        try:
            if self._dir is not None:
                with open(self._dir / name, "rb") as fh:
                    yield fh
            else:
                with member as fh:
                    yield fh
        except (zipfile.BadZipFile, EOFError, zipfile.LargeZipFile, zlib.error) as exc:  # damaged data, bad CRC
            raise FeedError(f"feed {self.label}: {name} is corrupt ({_why(exc)})") from None

    def fingerprint(self) -> str:
        """A hash of the feed's bytes (the zip file, or every ``*.txt`` of a folder).

        Whole bytes, not the zip directory's CRCs: a damaged zip whose directory still lists the good
        CRCs must not be answered from the good feed's cache. Each file's hash is remembered under its
        identity (path, inode, size, mtime, ctime), so it is computed once per file version.
        """
        h = hashlib.sha256()
        if self._zip_path is not None:
            h.update(f"zip:{content_hash(self._zip_path)}\n".encode())
        else:
            assert self._dir is not None
            for f in sorted(self._dir.glob("*.txt")):
                if f.is_file():
                    h.update(f"{f.name}:{content_hash(f)}\n".encode())
        return h.hexdigest()[:24]


def _check_members(folder: Path) -> None:
    """Refuse a feed folder whose ``*.txt`` members are links out of it (``stops.txt -> /etc/shadow`` would
    be read, and its first line shown in an error) or are not regular files (a FIFO blocks for ever)."""
    root = folder.resolve()
    for f in sorted(folder.glob("*.txt")):
        if f.is_symlink() and not f.resolve().is_relative_to(root):
            raise FeedError(f"feed {folder}: {f.name} is a link out of the feed folder (not read)")
        if file_kind(f) != "file":
            raise FeedError(f"feed {folder}: {f.name} is not a regular file (not read)")


def content_hash(path: Path) -> str:
    """sha256 of a file's bytes, remembered in the cache folder under the file's identity."""
    st = path.stat()
    ident = f"{path.resolve()}\0{st.st_dev}\0{st.st_ino}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ctime_ns}"
    memo = cache_root() / "content-hashes" / hashlib.sha256(ident.encode()).hexdigest()[:32]
    with contextlib.suppress(OSError, UnicodeDecodeError):
        # at most 65 bytes, never through a link or from a FIFO: a planted /dev/zero is not read for ever
        fd = os.open(memo, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as fh:
            known = fh.read(65).decode("ascii") if stat.S_ISREG(os.fstat(fd).st_mode) else ""
        if len(known) == 64:
            return known
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 22):
            h.update(chunk)
    digest = h.hexdigest()
    with contextlib.suppress(OSError):  # an unwritable cache only costs the hash next time
        atomic_write_text(memo, digest)
    return digest


def _extract(zf: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path) -> None:
    """Copy one member to ``target`` atomically, refusing more bytes than its header announced."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out, zf.open(info) as fh:
            written = 0
            while chunk := fh.read(1 << 20):
                written += len(chunk)
                if written > info.file_size:
                    raise zipfile.BadZipFile("more data than its header announces")
                out.write(chunk)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _why(exc: BaseException) -> str:
    """An exception's text for a one-line message (zipfile quotes raw header bytes: keep it short)."""
    return " ".join(str(exc).split())[:160]
