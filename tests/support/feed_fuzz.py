"""Seeded fuzzing of feed ingest (tests/ingest/test_fuzz_feeds.py on the hand-written fixture feed,
tests/ingest/test_fuzz_feeds_real.py on a slice of the real extract): mutate a small feed, write it as a folder or
a zip, and check that it either loads into a valid timetable or fails in one line.

A case is numbered; its number seeds its mutations, and every third case (``case % 3 == 0``) mutates the real
slice, the others the fixture, so a case number reproduces it in its module:
``pytest tests/ingest/test_fuzz_feeds.py -k "case_123]"``.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import random
import zipfile
from collections.abc import Callable
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from planner.errors import PlannerError
from planner.gamefile.game import load_game
from planner.gtfs.ingest import build_timetable
from planner.gtfs.source import FeedSource
from planner.timetable.model import NO_CHANGE, Timetable
from tests.support import FIXTURES

FIX = FIXTURES / "robust_feed"
SEED = 20260520
CASES = 560
Files = dict[str, bytes]
Base = Callable[[], tuple[tuple[str, bytes], ...]]
FIXTURE_DATE = dt.date(2026, 5, 20)


def real_case(case: int) -> bool:
    """Whether case ``case`` mutates the real slice (else the fixture feed)."""
    return case % 3 == 0


# ---- base feeds -----------------------------------------------------------------------------------


@cache
def fixture_feed() -> tuple[tuple[str, bytes], ...]:
    """The hand-written fixture feed."""
    return tuple((p.name, p.read_bytes()) for p in sorted(FIX.glob("*.txt")))


def rows(data: bytes) -> list[tuple[bytes, list[str]]]:
    """(raw line with its line end, parsed fields) of every data row; the header is row 0."""
    raw = data.splitlines(keepends=True)
    return [(line, next(csv.reader([line.decode("utf-8-sig").rstrip("\r\n")]), [])) for line in raw]


# ---- mutations ------------------------------------------------------------------------------------

BAD_VALUES = ["", " ", "25:61:00", "99:99:99", "24:00:00", "47:59:59", "48:00:00", "-1", "-01:00:00", "8:0:0",
              "08:00", "abc", "1e9", "NaN", "inf", "-inf", "0", "00000000", "٣", "12345678901234567890",
              '"', 'a"b', "\x00", "😀", " 08:00:00 ", "08:00:00\t", "x" * 300, "Parent8500218", "8500218P",
              "ch:1:sloid:", "20260520", "2026-05-20", "99999999", "3", "5", "1.5", "+1", "0x10", "\\N"]
ENCODINGS = ["latin-1", "utf-16", "cp1252", "utf-32"]


def _split(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def m_drop_rows(rng: random.Random, files: Files) -> str:
    name = rng.choice(sorted(files))
    lines = _split(files[name])
    if len(lines) > 1:
        k = rng.randint(1, max(1, len(lines) // 3))
        for _ in range(k):
            if len(lines) > 1:
                del lines[rng.randrange(1, len(lines))]
    files[name] = b"".join(lines)
    return f"drop rows {name}"


def m_duplicate_rows(rng: random.Random, files: Files) -> str:
    name = rng.choice(sorted(files))
    lines = _split(files[name])
    if len(lines) > 1:
        for _ in range(rng.randint(1, 5)):
            i = rng.randrange(1, len(lines))
            line = lines[i] if lines[i].endswith(b"\n") else lines[i] + b"\n"
            lines.insert(rng.randrange(1, len(lines) + 1), line)
    files[name] = b"".join(x if x.endswith(b"\n") else x + b"\n" for x in lines)
    return f"duplicate rows {name}"


def m_shuffle_rows(rng: random.Random, files: Files) -> str:
    name = rng.choice(sorted(files))
    lines = [x if x.endswith(b"\n") else x + b"\n" for x in _split(files[name])]
    body = lines[1:]
    rng.shuffle(body)
    files[name] = b"".join(lines[:1] + body)
    return f"shuffle rows {name}"


def _table(data: bytes) -> list[list[str]] | None:
    try:
        return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    except (UnicodeDecodeError, csv.Error):
        return None


def _untable(rows: list[list[str]], rng: random.Random) -> bytes:
    buf = io.StringIO()
    csv.writer(buf, lineterminator=rng.choice(["\n", "\r\n"]),
               quoting=rng.choice([csv.QUOTE_MINIMAL, csv.QUOTE_ALL])).writerows(rows)
    return buf.getvalue().encode()


def m_columns(rng: random.Random, files: Files) -> str:
    name = rng.choice(sorted(files))
    rows = _table(files[name])
    if not rows or not rows[0]:
        return "columns: nothing"
    n = len(rows[0])
    op = rng.choice(["drop", "swap", "rename", "dup", "shuffle_header"])
    i, j = rng.randrange(n), rng.randrange(n)
    for r in rows:
        if op == "drop" and i < len(r):
            del r[i]
        elif op == "swap" and max(i, j) < len(r):
            r[i], r[j] = r[j], r[i]
        elif op == "dup" and i < len(r):
            r.append(r[i])
    if op == "rename":
        rows[0][i] = rng.choice(["", "x", rows[0][j], rows[0][i].upper(), f" {rows[0][i]} "])
    elif op == "shuffle_header":
        rng.shuffle(rows[0])
    files[name] = _untable(rows, rng)
    return f"columns {op} {name} {i} {j}"


def m_value(rng: random.Random, files: Files) -> str:
    name = rng.choice(["stop_times.txt"] * 3 * ("stop_times.txt" in files) + sorted(files))
    rows = _table(files[name])
    if not rows or len(rows) < 2:
        return "value: nothing"
    out = []
    for _ in range(rng.randint(1, 4)):
        r = rng.randrange(1, len(rows))
        if not rows[r]:
            continue
        c = rng.randrange(len(rows[r]))
        if rng.random() < 0.3:  # a value from another column or row (ids in the wrong place)
            other = rows[rng.randrange(1, len(rows))]
            v = other[rng.randrange(len(other))] if other else ""
        else:
            v = rng.choice(BAD_VALUES)
        rows[r][c] = v
        out.append(f"{r}:{c}={v[:12]!r}")
    files[name] = _untable(rows, rng)
    return f"value {name} {' '.join(out)}"


def m_bytes(rng: random.Random, files: Files) -> str:
    """Raw damage: stray quotes, NULs, invalid UTF-8, a BOM in the middle, lone CRs, cut lines."""
    name = rng.choice(sorted(files))
    data = bytearray(files[name])
    if not data:
        return "bytes: empty"
    op = rng.choice(["quote", "nul", "utf8", "bom", "cr", "cutline", "extra_field", "blank_lines", "tab"])
    pos = rng.randrange(len(data))
    if op == "quote":
        data[pos:pos] = b'"'
    elif op == "nul":
        data[pos:pos] = b"\x00"
    elif op == "utf8":
        data[pos:pos] = rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xe2\x82"])
    elif op == "bom":
        data[pos:pos] = b"\xef\xbb\xbf"
    elif op == "cr":
        data = bytearray(bytes(data).replace(b"\n", b"\r") if rng.random() < 0.3 else data)
        data[pos:pos] = b"\r"
    elif op == "cutline":
        end = data.find(b"\n", pos)
        if end > pos:
            del data[pos:end]
    elif op == "extra_field":
        end = data.find(b"\n", pos)
        if end >= 0:
            data[end:end] = b",extra"
    elif op == "blank_lines":
        data[pos:pos] = b"\n\n"
    elif op == "tab":
        data[pos:pos] = b"\t"
    files[name] = bytes(data)
    return f"bytes {op} {name}@{pos}"


def m_encoding(rng: random.Random, files: Files) -> str:
    name = rng.choice(sorted(files))
    enc = rng.choice(ENCODINGS)
    try:
        files[name] = files[name].decode("utf-8").encode(enc, errors="replace")
    except UnicodeDecodeError:
        return "encoding: not utf-8"
    return f"encoding {name} {enc}"


def m_truncate(rng: random.Random, files: Files) -> str:
    name = rng.choice(sorted(files))
    files[name] = files[name][: rng.randrange(len(files[name]) + 1)]
    return f"truncate {name}"


def m_delete(rng: random.Random, files: Files) -> str:
    name = rng.choice(sorted(files))
    del files[name]
    return f"delete {name}"


def m_empty(rng: random.Random, files: Files) -> str:
    name = rng.choice(sorted(files))
    files[name] = _split(files[name])[0] if rng.random() < 0.5 and files[name] else b""
    return f"empty {name}"


MUTATIONS = [(m_drop_rows, 3), (m_duplicate_rows, 3), (m_shuffle_rows, 2), (m_columns, 3), (m_value, 6),
             (m_bytes, 4), (m_encoding, 1), (m_truncate, 2), (m_delete, 1), (m_empty, 1)]


def mutate(case: int, make: Base) -> tuple[Files, str, str, list[str]]:
    """Mutated files, game, container kind and the mutation log of one case on the base feed ``make``."""
    rng = random.Random(SEED * 1_000_003 + case)
    files = dict(make())
    log = []
    fns, weights = zip(*MUTATIONS, strict=True)
    for _ in range(rng.choice([1, 1, 2, 3])):
        if not files:
            break
        log.append(rng.choices(fns, weights)[0](rng, files))
    game = rng.choice(["none", "none", "sbb-monopoly", "nordwestschweiz"])
    kind = rng.choice(["dir", "dir", "zip", "zip-prefix", "zip-damaged"])
    return files, game, kind, log


def write(tmp: Path, files: Files, kind: str, rng: random.Random) -> Path:
    """The feed as a folder or a zip (with a subfolder, or with damaged bytes)."""
    if kind == "dir":
        tmp.mkdir()
        for n, d in files.items():
            (tmp / n).write_bytes(d)
        return tmp
    path = tmp.with_suffix(".zip")
    prefix = "feed/" if kind == "zip-prefix" else ""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for n, d in files.items():
            zf.writestr(prefix + n, d)
    if kind == "zip-damaged":
        raw = bytearray(path.read_bytes())
        if rng.random() < 0.5:
            raw = raw[: rng.randrange(len(raw))]
        else:
            for _ in range(rng.randint(1, 8)):
                raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(raw))
    return path


# ---- invariants -----------------------------------------------------------------------------------


def check_invariants(tt: Timetable) -> None:
    """What every timetable handed to the planner must satisfy (beyond ``validate()``)."""
    tt.validate()
    n_st = len(tt.st_stop)
    assert len(tt.station_name) == len(tt.station_lat) == len(tt.station_lon) == len(tt.station_change) \
        == tt.n_stations
    assert len(tt.stop_platform) == len(tt.stop_station) == tt.n_stops
    assert len(tt.route_name) == len(tt.route_type) == len(tt.route_mode) == len(tt.route_category) \
        == len(tt.route_agency) == len(tt.route_id)
    assert len(tt.trip_route) == len(tt.trip_headsign) == len(tt.trip_short_name) == tt.n_trips
    assert int(tt.trip_offset[0]) == 0 and int(tt.trip_offset[-1]) == n_st
    assert (np.diff(tt.trip_offset) >= 2).all(), "every trip has at least two stop times"
    assert len(set(tt.trip_id)) == tt.n_trips and len(set(tt.stop_id)) == tt.n_stops
    assert len(set(tt.station_id)) == tt.n_stations
    if tt.n_trips:
        assert 0 <= tt.trip_route.min() and tt.trip_route.max() < len(tt.route_id)
    if n_st:
        assert 0 <= tt.st_arr.min() and tt.st_dep.max() < 48 * 3600
        assert (tt.st_arr <= tt.st_dep).all()
        same = tt.st_trip[1:] == tt.st_trip[:-1]
        assert (tt.st_dep[:-1][same] <= tt.st_arr[1:][same]).all(), "times never decrease along a trip"
    for a, b in ((tt.xfer_from, tt.n_stops), (tt.xfer_to, tt.n_stops), (tt.link_from, tt.n_stations),
                 (tt.link_to, tt.n_stations)):
        assert len(a) == 0 or (0 <= a.min() and a.max() < b)
    assert len(tt.xfer_from) == len(tt.xfer_to) == len(tt.xfer_seconds)
    assert ((tt.xfer_seconds >= 0) | (tt.xfer_seconds == NO_CHANGE)).all()
    assert len(tt.link_from) == len(tt.link_to) == len(tt.link_seconds) and (tt.link_seconds >= 0).all()
    if tt.n_stops:
        assert (tt.stop_station[tt.xfer_from] == tt.stop_station[tt.xfer_to]).all()


def load_cleanly(tmp: Path, make: Base, date: dt.date) -> Timetable:
    """The unmutated base loads and passes the invariants (so the fuzz cases start from something real)."""
    tt = build_timetable(FeedSource(write(tmp, dict(make()), "dir", random.Random(0))), load_game("none"), date,
                         progress=False)
    check_invariants(tt)
    assert tt.n_trips >= 5
    return tt


def fuzz_case(tmp: Path, case: int, base: str, make: Base, date: dt.date) -> None:
    """One mutated feed: a one-line PlannerError or a timetable whose invariants hold."""
    files, game, kind, log = mutate(case, make)
    path = write(tmp / "feed", files, kind, random.Random(case))
    what = f"case {case} ({base}, {kind}, {game}): {'; '.join(log)}"
    try:
        tt = build_timetable(FeedSource(path), load_game(game), date, progress=False)
    except PlannerError as exc:
        msg = str(exc)
        assert msg.strip(), what
        assert msg.splitlines() == [msg], f"{what}: multi-line message {msg!r}"
        assert len(msg) < 1000, f"{what}: message of {len(msg)} characters"
        return
    except Exception as exc:  # noqa: BLE001 - any other exception is the bug this test hunts
        pytest.fail(f"{what}: {type(exc).__name__}: {exc}")
    try:
        check_invariants(tt)
    except (AssertionError, ValueError) as exc:
        pytest.fail(f"{what}: invariant broken: {exc}")
