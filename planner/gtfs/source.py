"""Where a feed comes from: a zip, a folder (possibly holding the zip), or a URL (downloaded first)."""

from __future__ import annotations

import hashlib
import io
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from planner.errors import FeedError


class FeedSource:
    """Read access to the ``*.txt`` members of a GTFS feed, wherever they live."""

    def __init__(self, path: str | Path):
        self.label = str(path)
        p = Path(path)
        if not p.exists():
            raise FeedError(f"feed {path}: not found (give a GTFS zip or folder, or run 'planner feed download')")
        self._zip: zipfile.ZipFile | None = None
        self._dir: Path | None = None
        self._prefix = ""
        if p.is_dir():
            if (p / "stops.txt").exists() or (p / "stop_times.txt").exists():
                self._dir = p
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
                    try:
                        data = self._zip.read(inner[0])
                        self._zip = zipfile.ZipFile(io.BytesIO(data))
                    except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError, RuntimeError,
                            zlib.error) as exc:
                        raise FeedError(f"feed {p}: inner zip {inner[0]} is not readable ({_why(exc)})") from None

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
        """A content hash of the feed: zip CRCs and sizes from its directory (cheap and content-derived);
        for a folder, each file's name, size, mtime and its first and last MiB (a full hash of a national
        folder would cost seconds on every warm start)."""
        h = hashlib.sha256()
        if self._zip is not None:
            for info in sorted(self._zip.infolist(), key=lambda i: i.filename):
                h.update(f"{info.filename}:{info.CRC}:{info.file_size}\n".encode())
        else:
            assert self._dir is not None
            for f in sorted(self._dir.glob("*.txt")):
                st = f.stat()
                h.update(f"{f.name}:{st.st_size}:{st.st_mtime_ns}\n".encode())
                with open(f, "rb") as fh:
                    h.update(fh.read(1 << 20))
                    if st.st_size > 2 << 20:
                        fh.seek(-(1 << 20), 2)
                        h.update(fh.read(1 << 20))
        return h.hexdigest()[:24]


def _why(exc: BaseException) -> str:
    """An exception's text for a one-line message (zipfile quotes raw header bytes: keep it short)."""
    return " ".join(str(exc).split())[:160]
