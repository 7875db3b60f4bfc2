"""What the SYNTHETIC game-day feeds share: the real stop registry and line km they stand on, and how they are
written (newest stop-id era, labelled SYNTHETIC, never into the repository).

Two generators use it: :mod:`tools.synth_area` (variant A's whole area) and ``tests/support/nws_synthetic.py``
(variant B, Nordwestschweiz). What is real in both: stop names, UIC/SLOID numbers and station coordinates from the
ATLAS registry ``../shared/data/stations/atlas-service-points-2025-08-02.csv.zip``, and the distances the run times
come from (the SBB line data ``sbb-linie-mit-betriebspunkten.csv``). Everything else (lines, times, platforms) is
invented. Stop ids are the newest era's (RULES.md §4): platform ``ch:1:sloid:10:1:9`` with parent
``Parentch:1:sloid:10``, a ``didok`` column and ``original_stop_id``.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
import os
import random
import shutil
import unicodedata
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from planner.errors import InputError
from planner.util import userfiles

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PLANNER_SHARED", REPO.parent / "shared"))
ATLAS = SHARED / "data" / "stations" / "atlas-service-points-2025-08-02.csv.zip"
RAIL_CSV = SHARED / "data" / "stations" / "sbb-linie-mit-betriebspunkten.csv"

# route kind -> (GTFS extended route_type, route_desc, average speed km/h, minutes lost per stop, track factor)
KINDS = {
    "IC": (102, "InterCity", 100.0, 1.0, 1.2),
    "IR": (103, "InterRegio", 92.0, 1.0, 1.2),
    "RE": (106, "RegioExpress", 85.0, 1.0, 1.2),
    "S": (109, "S-Bahn", 72.0, 1.0, 1.2),
    "R": (106, "S-Bahn", 68.0, 1.0, 1.2),
    "TRAM": (900, "Tram", 32.0, 0.5, 1.15),
    "TRAMRAIL": (106, "Tram", 32.0, 0.5, 1.15),  # a tram line the feed calls rail (BLT 10 in Basel)
    "WB": (900, "Tram", 42.0, 0.5, 1.15),  # the Waldenburgerbahn: metre gauge, faster than a city tram
    "BUS": (700, "Bus", 34.0, 0.5, 1.35),
    "RBUS": (701, "Bus", 40.0, 0.5, 1.35),
}
RAIL_KINDS = ("IC", "IR", "RE", "S", "R")


class SynthError(ValueError):
    """A generator's input is unusable (a registry without a station, a folder it may not write): one line."""


@dataclass(frozen=True)
class Place:
    """A service point of the ATLAS registry: official name, UIC number, SLOID, WGS84 position, means."""

    name: str
    uic: str  # "8500010"
    sloid: str  # "ch:1:sloid:10"
    lat: float
    lon: float
    means: str  # "TRAIN", "BUS|TRAM", ...
    stop: bool = True  # a stop point (False: an operating point only, e.g. a station closed to passengers)

    @property
    def didok(self) -> str:
        """The short DiDok number (``10`` for 8500010), as in the line data's ``Didok-Nummer``."""
        return str(int(self.uic) - 8500000)


def fold(text: str) -> str:
    """Lower case without accents (the line data spells ``Mohlin`` for Möhlin)."""
    s = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in s if not unicodedata.combining(c)).strip()


def scan_registry(path: Path, keep: Callable[[str, list[str], dict[str, int]], bool]) -> list[Place]:
    """Every Swiss row of the registry that ``keep(name, row, columns)`` accepts, as places (``name`` is the
    official name, read before the row is parsed: most rows are skipped on it alone)."""
    if not Path(path).is_file():
        raise SynthError(f"ATLAS registry {path} not found (set PLANNER_SHARED)")
    _regular(path, "ATLAS registry")
    out: list[Place] = []
    try:
        with zipfile.ZipFile(path) as zf, zf.open(zf.namelist()[0]) as raw:
            lines = io.TextIOWrapper(raw, encoding="utf-8-sig")
            col = {c: i for i, c in enumerate(next(csv.reader([next(lines)], delimiter=";")))}
            at = col["designationOfficial"]  # the fields before it are numbers, dates and the SLOID
            for text in lines:
                name = text.split(";", at + 1)[at].strip('"')
                if not keep(name, [], col):
                    continue
                row = next(csv.reader([text], delimiter=";"))
                if row[col["uicCountryCode"]] != "85" or not row[col["wgs84North"]] or not keep(name, row, col):
                    continue
                out.append(Place(name, row[col["number"]], row[col["sloid"]], float(row[col["wgs84North"]]),
                                 float(row[col["wgs84East"]]), row[col["meansOfTransport"]],
                                 row[col["stopPoint"]] == "true"))
    except (OSError, zipfile.BadZipFile, KeyError, StopIteration, ValueError, IndexError) as exc:
        raise SynthError(f"ATLAS registry {path}: unreadable ({type(exc).__name__}: {exc})") from None
    return out


def read_registry(names: Iterable[str], path: Path = ATLAS) -> dict[str, Place]:
    """The registry's stop points with exactly these official names (each must be there once)."""
    wanted = set(names)
    found: dict[str, list[Place]] = {}
    for p in scan_registry(path, lambda name, row, col: name in wanted and (
            not row or row[col["stopPoint"]] == "true")):
        found.setdefault(p.name, []).append(p)
    bad = sorted(n for n in wanted if len(found.get(n, ())) != 1)
    if bad:
        raise SynthError(f"not exactly one stop point of these names in the registry: {', '.join(bad)}")
    return {n: p[0] for n, p in found.items()}


def read_line_km(path: Path = RAIL_CSV) -> dict[str, dict[int, float]]:
    """Station (UIC, and folded station name) -> {SBB line: km} from the line data."""
    by_uic: dict[str, dict[int, float]] = {}
    by_name: dict[str, dict[int, float]] = {}
    text = _regular(path, "line data", read=True)
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=";"))
    except csv.Error as exc:
        raise SynthError(f"line data {path}: not the SBB line CSV ({exc})") from None
    for row in rows[1:]:
        station, line, km, uic = row[1], int(row[2]), float(row[3]), row[7]
        if line >= 5000:  # construction galleries, dismantled lines, projects (9501 Liestal-Olten): no trains
            continue
        by_uic.setdefault(uic, {})[line] = km
        by_name.setdefault("name:" + fold(station), {}).setdefault(line, km)
    return {**by_uic, **by_name}


def straight_km(a: Place, b: Place) -> float:
    """Great-circle distance between two places (km)."""
    p1, p2 = math.radians(a.lat), math.radians(b.lat)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(b.lon - a.lon) / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))


def distance_km(a: Place, b: Place, rail: bool, factor: float, line_km: dict[str, dict[int, float]]) -> float:
    """Rail: the km difference on an SBB line both stops lie on (the shortest plausible one), else the
    straight distance times ``factor`` (a track's or a road's)."""
    straight = straight_km(a, b)
    if rail:
        ka = {**line_km.get("name:" + fold(a.name), {}), **line_km.get(a.uic, {})}
        kb = {**line_km.get("name:" + fold(b.name), {}), **line_km.get(b.uic, {})}
        diffs = [abs(ka[x] - kb[x]) for x in ka.keys() & kb.keys()]
        diffs = [d for d in diffs if straight * 0.9 <= d <= straight * 3 + 2]  # a km jump is no length
        if diffs:
            return min(diffs)
    return straight * factor


def clock(minutes: int) -> str:
    """Minutes after midnight as a GTFS time (may exceed 24:00)."""
    return f"{minutes // 60:02d}:{minutes % 60:02d}:00"


def ymd(d: dt.date) -> str:
    """A GTFS date."""
    return d.strftime("%Y%m%d")


def stop_id(place: Place, plat: str) -> str:
    """A platform's id in the newest era: ``ch:1:sloid:10:1:9``."""
    return f"{place.sloid}:1:{plat}"


def plat_key(plat: str) -> tuple[int, str]:
    """Platforms in their natural order: 1, 2, ..., 10, then letters."""
    return (int(plat), "") if plat.isdigit() else (10**6, plat)


def stop_rows(places: dict[str, Place], used: dict[str, set[str]], rng: random.Random) -> list[list[str]]:
    """``stops.txt``: a parent per station and its platforms a few metres around the registry point."""
    rows = [["stop_id", "stop_name", "stop_lat", "stop_lon", "location_type", "parent_station", "platform_code",
             "original_stop_id", "didok"]]
    for name in sorted(places):
        p = places[name]
        parent = f"Parent{p.sloid}"
        rows.append([parent, name, f"{p.lat:.8f}", f"{p.lon:.8f}", "1", "", "", f"Parent{p.uic}", p.didok])
        for plat in sorted(used[name], key=plat_key):
            lat = p.lat + rng.uniform(-1.2e-4, 1.2e-4)
            lon = p.lon + rng.uniform(-1.6e-4, 1.6e-4)
            rows.append([stop_id(p, plat), name, f"{lat:.8f}", f"{lon:.8f}", "", parent, plat,
                         f"{p.uic}:0:{plat}", p.didok])
    return rows


def calendar_rows(service_id: str, day: dt.date) -> list[list[str]]:
    """``calendar.txt`` of a feed that runs on one day only."""
    week = ["1" if k == day.weekday() else "0" for k in range(7)]
    return [["service_id", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
             "start_date", "end_date"], [service_id, *week, ymd(day), ymd(day)]]


def csv_bytes(rows: list[list[str]]) -> bytes:
    """A table as CSV bytes (``\\n`` line ends)."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    return buf.getvalue().encode("utf-8")


README = "SYNTHETIC_README.txt"  # what every generated feed holds: says what it is, and that a generator wrote it
MAX_LINE_DATA = 64 << 20  # the SBB line CSV is 0.4 MB; a bounded read never hangs on /dev/zero


def _regular(path: str | Path, kind: str, *, read: bool = False) -> str:
    """Check that ``path`` is a regular file (a FIFO or device is never opened: it could block for ever); with
    ``read``, its UTF-8 text, at most :data:`MAX_LINE_DATA` bytes."""
    try:
        if not read:
            userfiles.regular_file(path, kind)
            return ""
        return userfiles.read_text(path, kind, limit=MAX_LINE_DATA)
    except InputError as exc:
        raise SynthError(str(exc)) from None


def check_inputs(atlas: Path, rail_csv: Path) -> None:
    """The registry and the line data are regular files (checked before a generator reads them: a FIFO or
    ``/dev/zero`` given as one is refused at once, never read)."""
    _regular(atlas, "ATLAS registry")
    _regular(rail_csv, "line data")


def check_out_dir(out_dir: str | Path) -> Path:
    """``out_dir`` if a feed may be written there: outside the repository, and its nearest existing folder is a
    folder this process may write (checked before a generator's work, so that a bad ``--out`` fails at once)."""
    out_dir = Path(out_dir)
    shown = _shown(out_dir)
    try:
        if out_dir.resolve().is_relative_to(REPO):
            raise SynthError(f"{shown}: a synthetic feed is never written into the repository")
        probe = out_dir
        while not probe.exists() and probe != probe.parent:
            probe = probe.parent
        writable = probe.is_dir() and os.access(probe, os.W_OK | os.X_OK)
    except OSError as exc:  # a name too long for the system, a loop of links: one line, not a traceback
        raise SynthError(f"cannot write the feed into {shown}: {exc.strerror or type(exc).__name__}") from None
    if not writable:
        raise SynthError(f"cannot write the feed into {shown}: {_shown(probe)} is not a writable folder")
    return out_dir


def _shown(path: Path, limit: int = 120) -> str:
    """A path as an error line shows it: a very long one cut in the middle (the line stays readable)."""
    text = str(path)
    return text if len(text) <= limit else f"{text[:limit // 2]}...{text[-limit // 2:]}"


def refuse_existing(target: Path, force: bool) -> None:
    """Refuse to write over ``target`` unless ``force`` and it is a feed a generator wrote (a folder of regular
    ``.txt`` files with its ``SYNTHETIC_README.txt``, or a zip holding one): a user's file is never deleted.
    Checked before the feed is built, and again before it is written."""
    if not target.exists() and not target.is_symlink():
        return
    if not force:
        raise SynthError(f"{_shown(target)} exists: pass --force to replace the synthetic feed written there")
    if target.is_symlink() or not (target.is_dir() or target.is_file()):  # a link, a pipe: never followed
        mine = False
    elif target.is_dir():
        files = list(target.iterdir())
        mine = any(p.name == README for p in files) and all(
            p.suffix == ".txt" and p.is_file() and not p.is_symlink() for p in files)
    else:
        try:
            with zipfile.ZipFile(target) as zf:
                mine = README in zf.namelist()
        except (OSError, zipfile.BadZipFile):
            mine = False
    if not mine:
        raise SynthError(f"{_shown(target)} exists and holds files no generator wrote: not replaced, even with "
                         "--force (move it away)")


def write_members(out_dir: str | Path, name: str, members: dict[str, bytes], day: dt.date, *,
                  as_zip: bool = False, force: bool = False) -> Path:
    """Write a feed's files into ``out_dir`` (created; never the repository): a folder ``name`` of files, or with
    ``as_zip`` the zip ``name.zip`` (fixed member order and timestamps: equal inputs give equal bytes). Written
    under a temporary name and renamed, so a failed run leaves no half-written feed. An existing feed there is
    replaced only with ``force`` and only when a generator wrote it (:func:`_replaceable`)."""
    out_dir = check_out_dir(out_dir)
    target = out_dir / (f"{name}.zip" if as_zip else name)
    refuse_existing(target, force)
    tmp = out_dir / f".{target.name}.partial-{os.getpid()}"
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        if as_zip:
            with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
                for member in sorted(members):
                    info = zipfile.ZipInfo(member, date_time=(day.year, day.month, day.day, 0, 0, 0))
                    info.compress_type = zipfile.ZIP_DEFLATED
                    info.external_attr = 0o644 << 16
                    zf.writestr(info, members[member])
        else:
            tmp.mkdir()
            for member in sorted(members):
                (tmp / member).write_bytes(members[member])
            if target.is_dir():  # a folder cannot be replaced in one step: the old one goes first
                shutil.rmtree(target)
        os.replace(tmp, target)
        return target
    except OSError as exc:
        raise SynthError(f"cannot write the feed into {out_dir}: {exc.strerror or exc}") from None
    finally:
        if tmp.is_dir():
            shutil.rmtree(tmp, ignore_errors=True)
        elif tmp.exists():
            tmp.unlink()
