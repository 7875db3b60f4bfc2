"""Download the official Swiss GTFS feed (opentransportdata.swiss), resumable, with a progress bar.

Dataset: "Timetable YYYY (GTFS2020)", CKAN id ``timetable-YYYY-gtfs2020`` on data.opentransportdata.swiss.
The URL of the newest zip (``GTFS_FP2026_YYYYMMDD.zip``, refreshed weekly) is found with the CKAN API
``/api/3/action/package_show?id=timetable-YYYY-gtfs2020`` (newest resource ending in ``.zip``); the
dataset's ``/permalink`` (which redirects to the newest zip) is the fallback. The timetable year starts in
mid-December, so from 10 December on the next year's dataset is tried first.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import sys
import time
import zipfile
import zlib
from pathlib import Path

import requests
import urllib3
from tqdm import tqdm

from planner.config import feeds_dir
from planner.errors import PlannerError

CKAN = "https://data.opentransportdata.swiss"
TIMEOUT = 30


def dataset_ids(today: dt.date | None = None) -> list[str]:
    """CKAN dataset ids to try, newest timetable year first."""
    today = today or dt.date.today()
    years = [today.year + 1, today.year] if (today.month, today.day) >= (12, 10) else [today.year]
    return [f"timetable-{y}-gtfs2020" for y in years]


def find_feed_url(session=None, today: dt.date | None = None) -> str:
    """The URL of the newest official GTFS zip (see module docstring)."""
    s = session or requests.Session()
    errors = []
    for ds in dataset_ids(today):
        try:
            r = s.get(f"{CKAN}/api/3/action/package_show", params={"id": ds}, timeout=TIMEOUT)
            r.raise_for_status()
            res = [x for x in r.json()["result"]["resources"] if str(x.get("url", "")).lower().endswith(".zip")]
            if res:
                res.sort(key=lambda x: (x.get("created") or "", x.get("url")))
                return res[-1]["url"]
            errors.append(f"{ds}: no zip resource")
        except Exception as exc:  # noqa: BLE001 - network errors of any kind: try the next source
            errors.append(f"{ds}: {type(exc).__name__}")
    # The API did not answer usefully: the permalink redirects to the newest zip of the dataset.
    return f"{CKAN}/dataset/{dataset_ids(today)[-1]}/permalink"


def download(url: str | None = None, out_dir: str | Path | None = None, progress: bool | None = None) -> Path:
    """Download ``url`` (default: the newest official feed) into ``out_dir``; resume a partial download.

    The file appears under its final name only when complete: as long as the server announced and a zip
    whose members all read (``.part`` + check + rename). A damaged final file is refused, never used.
    """
    out = Path(out_dir) if out_dir else feeds_dir()
    out.mkdir(parents=True, exist_ok=True)
    s = requests.Session()
    try:
        url = url or find_feed_url(s)
        name = _filename(url, s)
        final = out / name
        if final.exists():
            _check_zip(final, f"downloaded feed {final} is damaged ({{}}): delete it and download again")
            return final
        part = out / (name + ".part")
        have = part.stat().st_size if part.is_file() else 0
        headers = {"Range": f"bytes={have}-"} if have else {}
        with s.get(url, stream=True, timeout=TIMEOUT, headers=headers, allow_redirects=True) as r:
            if r.status_code == 416:  # nothing left to fetch: the .part is complete, if it checks out
                _publish(part, final)
                return final
            r.raise_for_status()
            if have and r.status_code != 206:
                have = 0  # server ignored the range: start over
            total = _expected_size(r, have)
            if total is not None and total > MAX_BYTES:
                raise PlannerError(f"download {name}: the server announces {total >> 20} MiB "
                                   f"(at most {MAX_BYTES >> 20} MiB)")
            bar = None
            if progress or (progress is None and sys.stderr.isatty()):
                bar = tqdm(total=total, initial=have, unit="B", unit_scale=True, desc=name, file=sys.stderr)
            size = _receive(r, part, have, name, bar)
            if bar:
                bar.close()
        if total is not None and size != total:
            raise PlannerError(f"download {name} incomplete: {size} of {total} bytes (run again to resume)")
        _publish(part, final)
        return final
    except (requests.RequestException, urllib3.exceptions.HTTPError) as exc:  # urllib3: raised by read1
        raise PlannerError(f"download failed ({type(exc).__name__}); offline? pass --feed PATH to a local zip"
                           ) from None


MAX_BYTES = 4 << 30  # the national feed is about 200 MB
DEADLINE = 3600  # seconds for one transfer: 200 MB in an hour is 0.45 Mbit/s (a server that trickles is cut)


def _receive(r, part: Path, have: int, name: str, bar) -> int:
    """Append the body of ``r`` to ``part`` (after ``have`` bytes); the size reached. Each socket read has
    :data:`TIMEOUT`; the whole transfer has :data:`DEADLINE` (then the ``.part`` stays, to be resumed). More
    than :data:`MAX_BYTES` deletes the ``.part``: it is not a feed, and resuming would only grow it."""
    deadline = time.monotonic() + DEADLINE
    size = have
    with open(part, "ab" if have else "wb") as fh:
        # read1: what one read of the socket gives, so the deadline is looked at even when a server sends a
        # byte at a time (iter_content waits for a whole chunk)
        while chunk := r.raw.read1(1 << 20, decode_content=True):
            size += len(chunk)
            if size > MAX_BYTES:
                fh.close()
                part.unlink(missing_ok=True)
                raise PlannerError(f"download {name}: more than {MAX_BYTES >> 20} MiB (not a feed; removed "
                                   "the partial file)")
            fh.write(chunk)
            if bar:
                bar.update(len(chunk))
            if time.monotonic() > deadline:
                raise PlannerError(f"download {name}: not finished within {DEADLINE} s ({size >> 20} MiB so far; "
                                   "the server is too slow; run again to resume)")
    return size


def _expected_size(r, have: int) -> int | None:
    """The complete file's size the server announced (Content-Range total, else Content-Length + have)."""
    m = re.search(r"/(\d+)\s*$", r.headers.get("Content-Range", ""))
    if r.status_code == 206 and m:
        return int(m.group(1))
    length = r.headers.get("Content-Length")
    return int(length) + have if length and length.isdigit() else None


def _publish(part: Path, final: Path) -> None:
    """Rename the finished ``.part`` to its final name once it is a zip whose members all read; a damaged
    one is deleted (resuming it could not repair it)."""
    try:
        _check_zip(part, f"downloaded file {part.name} is not a readable GTFS zip ({{}}); removed it, "
                         "download again")
    except PlannerError:
        part.unlink(missing_ok=True)
        raise
    os.replace(part, final)


def _check_zip(path: Path, message: str) -> None:
    """Raise ``PlannerError(message.format(reason))`` unless ``path`` is a zip with a stops.txt whose
    members all pass their CRC check."""
    try:
        with zipfile.ZipFile(path) as zf:
            if not any(n.rsplit("/", 1)[-1] in ("stops.txt", "stop_times.txt") or n.endswith(".zip")
                       for n in zf.namelist()):
                raise PlannerError(message.format("no stops.txt in it"))
            bad = zf.testzip()
            if bad is not None:
                raise PlannerError(message.format(f"{bad}: bad CRC"))
    except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError, RuntimeError, zlib.error) as exc:
        raise PlannerError(message.format(" ".join(str(exc).split())[:120])) from None


def _filename(url: str, session) -> str:
    m = re.search(r"([^/?#]+\.zip)(?:$|[?#])", url)
    if m:
        return m.group(1)
    # permalink: ask where it redirects
    r = session.head(url, allow_redirects=True, timeout=TIMEOUT)
    m = re.search(r"([^/?#]+\.zip)(?:$|[?#])", r.url)
    return m.group(1) if m else f"GTFS_{dt.date.today():%Y%m%d}.zip"
