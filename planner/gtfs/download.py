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
from pathlib import Path

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
    import requests

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

    The file appears under its final name only when complete (``.part`` + rename).
    """
    import requests

    from planner.config import feeds_dir

    out = Path(out_dir) if out_dir else feeds_dir()
    out.mkdir(parents=True, exist_ok=True)
    s = requests.Session()
    try:
        url = url or find_feed_url(s)
        name = _filename(url, s)
        final = out / name
        if final.exists():
            return final
        part = out / (name + ".part")
        have = part.stat().st_size if part.exists() else 0
        headers = {"Range": f"bytes={have}-"} if have else {}
        with s.get(url, stream=True, timeout=TIMEOUT, headers=headers, allow_redirects=True) as r:
            if r.status_code == 416:  # already complete
                os.replace(part, final)
                return final
            r.raise_for_status()
            if have and r.status_code != 206:
                have = 0  # server ignored the range: start over
            total = int(r.headers.get("Content-Length", 0)) + have
            bar = None
            if progress or (progress is None and sys.stderr.isatty()):
                from tqdm import tqdm

                bar = tqdm(total=total or None, initial=have, unit="B", unit_scale=True, desc=name, file=sys.stderr)
            with open(part, "ab" if have else "wb") as fh:
                for chunk in r.iter_content(1 << 20):
                    fh.write(chunk)
                    if bar:
                        bar.update(len(chunk))
            if bar:
                bar.close()
        os.replace(part, final)
        return final
    except requests.RequestException as exc:
        raise PlannerError(f"download failed ({type(exc).__name__}); offline? pass --feed PATH to a local zip"
                           ) from None


def _filename(url: str, session) -> str:
    m = re.search(r"([^/?#]+\.zip)(?:$|[?#])", url)
    if m:
        return m.group(1)
    # permalink: ask where it redirects
    r = session.head(url, allow_redirects=True, timeout=TIMEOUT)
    m = re.search(r"([^/?#]+\.zip)(?:$|[?#])", r.url)
    return m.group(1) if m else f"GTFS_{dt.date.today():%Y%m%d}.zip"
