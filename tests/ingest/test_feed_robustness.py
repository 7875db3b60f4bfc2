"""Odd and broken feeds: bad input gives a one-line FeedError, good-but-odd input loads correctly.

Every case starts from the hand-written feed in ``tests/fixtures/robust_feed`` (see its README) and changes
one thing. "Loads correctly" is checked against the station-level model of the unchanged feed.
"""

from __future__ import annotations

import datetime as dt
import io
import random
import zipfile
from pathlib import Path

import numpy as np
import pytest

from planner.errors import FeedError, PlannerError
from planner.gamefile.game import load_game
from planner.gtfs.ingest import build_timetable
from planner.gtfs.source import FeedSource
from planner.timetable.model import Timetable

FIX = Path(__file__).parents[1] / "fixtures" / "robust_feed"
DAY = dt.date(2026, 5, 20)  # a Wednesday
Files = dict[str, bytes]


# ---- helpers --------------------------------------------------------------------------------------


def base_files() -> Files:
    """The fixture feed, member name -> bytes."""
    return {p.name: p.read_bytes() for p in sorted(FIX.glob("*.txt"))}


def write_dir(path: Path, files: Files) -> Path:
    """Write ``files`` as a feed folder."""
    path.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (path / name).write_bytes(data)
    return path


def write_zip(path: Path, files: Files, prefix: str = "") -> Path:
    """Write ``files`` as a feed zip (members under ``prefix`` when given)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(prefix + name, data)
    return path


def load(path: Path, game: str = "none") -> Timetable:
    """Build the game day of ``path`` (2026-05-20)."""
    return build_timetable(FeedSource(path), load_game(game), DAY, progress=False)


def model(tt: Timetable) -> dict:
    """Station-level content of a timetable: what must not depend on file formatting or id era."""
    trips = {}
    for t in range(tt.n_trips):
        rows = tt.trip_stop_times(t)
        trips[tt.trip_id[t]] = (
            tt.route_name[int(tt.trip_route[t])], tt.trip_headsign[t],
            tuple((tt.station_id[int(tt.stop_station[int(tt.st_stop[i])])], int(tt.st_arr[i]), int(tt.st_dep[i]),
                   bool(tt.st_pickup[i]), bool(tt.st_dropoff[i])) for i in rows),
        )
    return {"stations": dict(zip(tt.station_id, tt.station_name, strict=True)), "trips": trips,
            "connections": tt.n_connections}


def lines_of(data: bytes) -> list[str]:
    """Text lines of a member (no line ends)."""
    return data.decode("utf-8-sig").splitlines()


def join(lines: list[str], end: str = "\n") -> bytes:
    """Lines back to member bytes."""
    return (end.join(lines) + end).encode()


def one_line_error(exc: pytest.ExceptionInfo) -> str:
    """The message of a FeedError, checked to be a single short line."""
    msg = str(exc.value)
    assert msg.splitlines() == [msg] and len(msg) < 600, msg
    return msg


@pytest.fixture(scope="module")
def expected() -> dict:
    """Model of the unchanged fixture feed, game ``none``."""
    return model(load(FIX))


# ---- the fixture itself ---------------------------------------------------------------------------


def test_fixture_loads_as_written(expected):
    """The hand-written feed gives exactly the trips and stations described in its README."""
    assert expected["stations"] == {
        "8500218": "Olten", "8501120": "Lausanne", "8502113": "Aarau", "8502119": "Lenzburg",
        "8503000": "Zürich HB", "8507000": "Bern", "8572000": "Olten, Sälipark", "8572001": "Olten, Bahnhof"}
    # TA+SA does not run on a Wednesday, TA+WDX is removed by calendar_dates, TA+X added by it
    assert sorted(expected["trips"]) == ["1.TA.11-1-j26-1.1.H", "2.TA.11-1-j26-1.1.R", "3.TA.11-23-j26-1.1.H",
                                         "4.TA.11-15-j26-1.1.H", "5.TA.801-1-j26-1.1.H", "6.TA.11-23-j26-1.2.H",
                                         "8.TA.11-23-j26-1.3.H"]
    assert expected["trips"]["1.TA.11-1-j26-1.1.H"] == ("IC1", "Zürich HB", (
        ("8507000", 8 * 3600 + 120, 8 * 3600 + 120, True, False),
        ("8500218", 8 * 3600 + 28 * 60, 8 * 3600 + 31 * 60, True, True),
        ("8502113", 8 * 3600 + 42 * 60, 8 * 3600 + 43 * 60, True, True),
        ("8503000", 9 * 3600 + 28 * 60, 9 * 3600 + 28 * 60, False, True)))
    assert expected["connections"] == 14


def test_fixture_sbb_monopoly_prunes_modes_and_area():
    """Variant A: the bus goes (mode), Lausanne goes (area) and the IR from Lausanne starts at Bern."""
    m = model(load(FIX, "sbb-monopoly"))
    assert set(m["stations"]) == {"8500218", "8502113", "8502119", "8503000", "8507000"}
    assert "5.TA.801-1-j26-1.1.H" not in m["trips"]
    assert [s[0] for s in m["trips"]["4.TA.11-15-j26-1.1.H"][2]] == ["8507000", "8500218"]


# ---- formatting that must not matter ----------------------------------------------------------------


def test_bom_in_every_file(tmp_path, expected):
    """A UTF-8 byte order mark before each header is ignored."""
    files = {n: b"\xef\xbb\xbf" + d for n, d in base_files().items()}
    assert model(load(write_dir(tmp_path / "f", files))) == expected


def test_crlf_line_ends(tmp_path, expected):
    """Windows line ends (as in the real Swiss feed) load the same."""
    files = {n: d.replace(b"\n", b"\r\n") for n, d in base_files().items()}
    assert model(load(write_zip(tmp_path / "f.zip", files))) == expected


def test_quoted_fields_with_commas_and_quotes(tmp_path, expected):
    """Every field quoted; a name holding a comma and doubled quotes keeps them."""
    files = base_files()
    for name, data in files.items():
        rows = [r.split(",") if "Olten, " not in r else None for r in lines_of(data)]
        if any(r is None for r in rows):
            continue  # stops.txt and trips.txt already hold quoted commas; quote the rest fully
        files[name] = join([",".join(f'"{v}"' for v in r) for r in rows if r is not None])
    files["stops.txt"] = files["stops.txt"].replace(b'"Olten, Bahnhof"', b'"Olten, ""Bahnhof"", Nord"')
    tt = load(write_dir(tmp_path / "f", files))
    m = model(tt)
    assert m["stations"].pop("8572001") == 'Olten, "Bahnhof", Nord'
    exp = dict(expected, stations={k: v for k, v in expected["stations"].items() if k != "8572001"})
    assert m == exp


def test_extra_columns_anywhere(tmp_path, expected):
    """Unknown columns before, between and after the known ones are ignored."""
    files = base_files()
    for name, data in files.items():
        out = []
        for i, line in enumerate(lines_of(data)):
            if i == 0:
                out.append(f"x_first,{line},x_last,x_more")
            else:
                out.append(f"junk {i},{line},,\"q,uoted\"")
        files[name] = join(out)
    assert model(load(write_dir(tmp_path / "f", files))) == expected


def _drop_columns(data: bytes, names: set[str]) -> bytes:
    import csv

    rows = list(csv.reader(io.StringIO(data.decode())))
    keep = [i for i, c in enumerate(rows[0]) if c not in names]
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows([[r[i] for i in keep] for r in rows])
    return buf.getvalue().encode()


def test_missing_optional_columns(tmp_path, expected):
    """No pickup_type/drop_off_type (everyone may board and alight), no platform_code/location_type."""
    files = base_files()
    files["stop_times.txt"] = _drop_columns(files["stop_times.txt"], {"pickup_type", "drop_off_type"})
    files["stops.txt"] = _drop_columns(files["stops.txt"], {"platform_code", "location_type"})
    tt = load(write_dir(tmp_path / "f", files))
    m = model(tt)
    assert m["stations"] == expected["stations"]
    assert m["trips"].keys() == expected["trips"].keys()
    for tid, (route, head, stops) in expected["trips"].items():
        assert m["trips"][tid] == (route, head, tuple(s[:3] + (True, True) for s in stops))
    assert tt.stop_platform[tt.stop_index["8500218:0:12"]] == "12"  # from the id when platform_code is absent


def test_header_only_transfers_and_empty_calendar_dates(tmp_path):
    """transfers.txt with only a header and a 0-byte calendar_dates.txt count as "no rows"."""
    files = base_files()
    files["transfers.txt"] = b"from_stop_id,to_stop_id,transfer_type,min_transfer_time\n"
    files["calendar_dates.txt"] = b""
    tt = load(write_dir(tmp_path / "f", files))
    assert len(tt.xfer_from) == 0 and (tt.station_change == -1).all()
    # without calendar_dates: TA+X (only added there) does not run, TA+WDX (only removed there) does
    assert "8.TA.11-23-j26-1.3.H" not in tt.trip_index
    assert "9.TA.11-23-j26-1.4.H" in tt.trip_index


def test_header_only_calendar_dates(tmp_path, expected):
    """calendar_dates.txt with just a header: the calendar rules alone decide."""
    files = base_files()
    files["calendar_dates.txt"] = b"service_id,date,exception_type\r\n"
    m = model(load(write_dir(tmp_path / "f", files)))
    assert set(m["trips"]) == set(expected["trips"]) - {"8.TA.11-23-j26-1.3.H"} | {"9.TA.11-23-j26-1.4.H"}


def test_stop_times_out_of_order(tmp_path, expected):
    """Rows shuffled (trips interleaved, sequences reversed): order is restored from stop_sequence."""
    files = base_files()
    lines = lines_of(files["stop_times.txt"])
    body = lines[1:]
    random.Random(7).shuffle(body)
    files["stop_times.txt"] = join([lines[0], *body])
    assert model(load(write_dir(tmp_path / "f", files))) == expected


def test_sparse_stop_sequence(tmp_path, expected):
    """stop_sequence need not be consecutive (10, 20, 30 ...)."""
    files = base_files()
    out = []
    for i, line in enumerate(lines_of(files["stop_times.txt"])):
        f = line.split(",")
        if i:
            f[4] = str(int(f[4]) * 10 + 5)
        out.append(",".join(f))
    files["stop_times.txt"] = join(out)
    assert model(load(write_dir(tmp_path / "f", files))) == expected


def test_trip_without_stop_times_is_dropped(tmp_path, expected):
    """A running trip that has no stop_times rows is not in the timetable; nothing else changes."""
    files = base_files()
    files["trips.txt"] += b"11-1-j26-1,TA+WD,99.TA.11-1-j26-1.9.H,Nowhere,999,0\n"
    tt = load(write_dir(tmp_path / "f", files))
    assert "99.TA.11-1-j26-1.9.H" not in tt.trip_index
    assert model(tt) == expected


def test_trip_with_one_stop_is_dropped(tmp_path, expected):
    """A trip with a single stop time has no connection and is dropped."""
    files = base_files()
    files["trips.txt"] += b"11-1-j26-1,TA+WD,98.TA.11-1-j26-1.9.H,Olten,998,0\n"
    files["stop_times.txt"] += b"98.TA.11-1-j26-1.9.H,09:00:00,09:00:00,8500218:0:7,1,0,0\n"
    assert model(load(write_dir(tmp_path / "f", files))) == expected


def test_stops_without_coordinates(tmp_path, expected):
    """Lenzburg without coordinates: outside every game area, but kept by game none."""
    files = base_files()
    out = []
    for line in lines_of(files["stops.txt"]):
        f = line.split(",")
        if f[1] == "Lenzburg":
            f[2] = f[3] = ""
        out.append(",".join(f))
    files["stops.txt"] = join(out)
    path = write_dir(tmp_path / "f", files)
    tt = load(path)
    assert model(tt) == expected
    assert np.isnan(tt.station_lat[tt.station_index["8502119"]])
    a = model(load(path, "sbb-monopoly"))
    assert "8502119" not in a["stations"]
    # the S23 now ends at Aarau (cut where it leaves the area)
    assert [s[0] for s in a["trips"]["3.TA.11-23-j26-1.1.H"][2]] == ["8500218", "8502113"]


def test_times_past_midnight_survive(tmp_path):
    """24:05:00 (in the fixture) and 47:00:00 are valid service-day times."""
    files = base_files()
    files["trips.txt"] += b"11-23-j26-1,TA+WD,97.TA.11-23-j26-1.9.H,Aarau,18097,0\n"
    files["stop_times.txt"] += (b"97.TA.11-23-j26-1.9.H,46:50:00,46:50:00,8500218:0:12,1,0,0\n"
                                b"97.TA.11-23-j26-1.9.H,47:00:00,47:00:00,8502113:0:2,2,0,0\n")
    tt = load(write_dir(tmp_path / "f", files))
    late = tt.trip_stop_times(tt.trip_index["6.TA.11-23-j26-1.2.H"])
    assert int(tt.st_arr[late[1]]) == 24 * 3600 + 5 * 60
    later = tt.trip_stop_times(tt.trip_index["97.TA.11-23-j26-1.9.H"])
    assert [int(tt.st_arr[i]) for i in later] == [46 * 3600 + 50 * 60, 47 * 3600]


def test_short_hour_times(tmp_path, expected):
    """``8:02:00`` (one-digit hour) reads like ``08:02:00``."""
    files = base_files()
    files["stop_times.txt"] = files["stop_times.txt"].replace(b",08:", b",8:")
    assert model(load(write_dir(tmp_path / "f", files))) == expected


# ---- bad input: one line, naming the place ---------------------------------------------------------


def test_duplicate_stop_id(tmp_path):
    """Two rows with one stop_id: the error names stops.txt and the id."""
    files = base_files()
    files["stops.txt"] += b"8500218:0:7,Olten again,47.35,7.90,,Parent8500218,7\n"
    with pytest.raises(FeedError) as exc:
        load(write_dir(tmp_path / "f", files))
    msg = one_line_error(exc)
    assert "stops.txt" in msg and "'8500218:0:7'" in msg


def test_time_out_of_range_names_file_line_column(tmp_path):
    """``25:61:00`` is rejected with file, line and column."""
    files = base_files()
    lines = lines_of(files["stop_times.txt"])
    assert lines[2].startswith("1.TA.11-1-j26-1.1.H,08:28:00")  # file line 3
    lines[2] = lines[2].replace("08:28:00,08:31:00", "25:61:00,08:31:00")
    files["stop_times.txt"] = join(lines, "\r\n")
    with pytest.raises(FeedError) as exc:
        load(write_dir(tmp_path / "f", files))
    msg = one_line_error(exc)
    assert "stop_times.txt line 3 column arrival_time" in msg and "'25:61:00'" in msg


def test_time_not_a_time(tmp_path):
    """A departure_time that is no time at all: file, line, column, value."""
    files = base_files()
    lines = lines_of(files["stop_times.txt"])
    lines[9] = lines[9].replace("08:05:00,08:05:00", "08:05:00,soon")  # line 10: S23 leaves Olten
    files["stop_times.txt"] = join(lines)
    with pytest.raises(FeedError) as exc:
        load(write_dir(tmp_path / "f", files))
    assert "stop_times.txt line 10 column departure_time: 'soon' is not a time" in one_line_error(exc)


def test_stop_sequence_not_a_number(tmp_path):
    """A bad stop_sequence names file, line and column."""
    files = base_files()
    lines = lines_of(files["stop_times.txt"])
    lines[1] = lines[1].replace(",1,0,1", ",first,0,1")
    files["stop_times.txt"] = join(lines)
    with pytest.raises(FeedError) as exc:
        load(write_dir(tmp_path / "f", files))
    assert "stop_times.txt line 2 column stop_sequence: 'first' is not a whole number" in one_line_error(exc)


def test_unknown_stop_in_stop_times(tmp_path):
    """A stop_times row naming a stop missing from stops.txt."""
    files = base_files()
    files["stop_times.txt"] = files["stop_times.txt"].replace(b"8503000:0:7,4", b"8503000:0:99,4")
    with pytest.raises(FeedError) as exc:
        load(write_dir(tmp_path / "f", files))
    assert "stop_times.txt line 5 column stop_id: '8503000:0:99' is not in stops.txt" in one_line_error(exc)


def test_transfer_time_infinite(tmp_path):
    """``inf`` as min_transfer_time is not a number (it used to escape as OverflowError)."""
    files = base_files()
    files["transfers.txt"] = files["transfers.txt"].replace(b"8500218:0:8,2,180", b"8500218:0:8,2,inf")
    with pytest.raises(FeedError) as exc:
        load(write_dir(tmp_path / "f", files))
    assert "transfers.txt line 2 column min_transfer_time: 'inf' is not a number" in one_line_error(exc)


def test_transfer_time_more_than_a_day(tmp_path):
    """A min_transfer_time beyond int32 (and beyond any sense) is rejected, not overflowed."""
    files = base_files()
    files["transfers.txt"] = files["transfers.txt"].replace(b"8500218:0:8,2,180", b"8500218:0:8,2,1e12")
    with pytest.raises(FeedError) as exc:
        load(write_dir(tmp_path / "f", files))
    assert "transfers.txt line 2 column min_transfer_time: '1e12' is more than a day" in one_line_error(exc)


def test_route_type_too_large(tmp_path):
    """A 20-digit route_type names routes.txt, line and column (it used to escape as OverflowError)."""
    files = base_files()
    files["routes.txt"] = files["routes.txt"].replace(b",102\n", b",12345678901234567890\n")
    with pytest.raises(FeedError) as exc:
        load(write_dir(tmp_path / "f", files))
    assert "routes.txt line 2 column route_type: '12345678901234567890' is out of range" in one_line_error(exc)


def test_calendar_end_date_not_a_date(tmp_path):
    """Without feed_info.txt the period comes from calendar.txt; a bad date there names file and column."""
    files = base_files()
    del files["feed_info.txt"]
    files["calendar.txt"] = files["calendar.txt"].replace(b"20251214,20261212\nTA+SA", b"20251214,20261340\nTA+SA")
    with pytest.raises(FeedError) as exc:
        load(write_dir(tmp_path / "f", files))
    assert "calendar.txt column end_date: '20261340' is not a date" in one_line_error(exc)


def test_utf16_file(tmp_path):
    """A member saved as UTF-16 is named as such."""
    files = base_files()
    files["trips.txt"] = files["trips.txt"].decode().encode("utf-16")
    with pytest.raises(FeedError) as exc:
        load(write_dir(tmp_path / "f", files))
    assert "trips.txt is UTF-16 encoded (GTFS files must be UTF-8)" in one_line_error(exc)


def test_lone_cr_in_header(tmp_path):
    """A damaged header (a lone CR inside a name) gives a one-line message with the CR escaped."""
    files = base_files()
    files["calendar_dates.txt"] = files["calendar_dates.txt"].replace(b"exception_type", b"exc\reption_type")
    with pytest.raises(FeedError) as exc:
        load(write_dir(tmp_path / "f", files))
    assert "calendar_dates.txt has no column 'exception_type' (header: service_id,date,exc\\reption_type)" \
        in one_line_error(exc)


def test_zip_inside_a_folder(tmp_path, expected):
    """A folder holding just the downloaded zip is accepted."""
    write_zip(tmp_path / "dl" / "GTFS_FP2026_20260520.zip", base_files())
    assert model(load(tmp_path / "dl")) == expected


def test_zip_with_a_subfolder(tmp_path, expected):
    """A feed zipped with its folder (members ``gtfs/stops.txt`` ...)."""
    path = write_zip(tmp_path / "f.zip", base_files(), prefix="gtfs/")
    assert model(load(path)) == expected


def test_zip_inside_a_zip(tmp_path, expected):
    """A zip whose only member is the feed zip."""
    inner = write_zip(tmp_path / "inner.zip", base_files()).read_bytes()
    outer = tmp_path / "outer.zip"
    with zipfile.ZipFile(outer, "w") as zf:
        zf.writestr("GTFS_FP2026.zip", inner)
    assert model(load(outer)) == expected


def test_truncated_zip(tmp_path):
    """A download cut in half: a clean 'not a readable zip' error."""
    data = write_zip(tmp_path / "f.zip", base_files()).read_bytes()
    (tmp_path / "cut.zip").write_bytes(data[: len(data) // 2])
    with pytest.raises(FeedError) as exc:
        load(tmp_path / "cut.zip")
    assert "not a readable zip" in one_line_error(exc)


def test_corrupt_member_in_zip(tmp_path):
    """Damaged compressed data inside an intact zip directory: a clean error naming the member."""
    files = base_files()
    big = b"".join(files["stop_times.txt"] for _ in range(1))
    path = tmp_path / "f.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(name, big if name == "stop_times.txt" else data)
    raw = bytearray(path.read_bytes())
    info = zipfile.ZipFile(path).getinfo("stop_times.txt")
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    for i in range(start + 20, start + info.compress_size - 20, 7):
        raw[i] ^= 0x5A
    path.write_bytes(bytes(raw))
    with pytest.raises(FeedError) as exc:
        load(path)
    assert "stop_times.txt" in one_line_error(exc)


def test_zip_without_stop_times(tmp_path):
    """The error names the missing member."""
    files = base_files()
    del files["stop_times.txt"]
    with pytest.raises(FeedError) as exc:
        load(write_zip(tmp_path / "f.zip", files))
    assert "stop_times.txt missing" in one_line_error(exc)


def test_not_a_zip_at_all(tmp_path):
    """An HTML error page saved as .zip."""
    (tmp_path / "f.zip").write_bytes(b"<html><body>502 Bad Gateway</body></html>\n")
    with pytest.raises(FeedError) as exc:
        load(tmp_path / "f.zip")
    assert "not a readable zip" in one_line_error(exc)


def test_latin1_names(tmp_path):
    """A stops.txt saved as Latin-1 (invalid UTF-8) is a clean error, not a traceback."""
    files = base_files()
    files["stops.txt"] = files["stops.txt"].decode().encode("latin-1")
    with pytest.raises(PlannerError) as exc:
        load(write_dir(tmp_path / "f", files))
    assert "stops.txt" in one_line_error(exc)


# ---- the three stop id eras -----------------------------------------------------------------------


def _uic(stop_id: str) -> str:
    return stop_id.removeprefix("Parent").split(":")[0]


def to_era(files: Files, era: str) -> Files:
    """The fixture's stops in another id era (``2019``: ``8500218P``; ``2022``: as is; ``2026``: SLOIDs)."""
    import csv

    if era == "2022":
        return dict(files)

    def sloid(sid: str) -> str:
        if sid == "8503000:0:7":
            return "ch:1:sloid:3000:502:42"  # the example of RULES.md §4
        n = int(_uic(sid)) - 8500000
        if sid.startswith("Parent"):
            return f"Parentch:1:sloid:{n}"
        parts = sid.split(":")
        return f"ch:1:sloid:{n}:1:{parts[2]}" if len(parts) == 3 else f"ch:1:sloid:{n}"

    def new_id(sid: str) -> str:
        if not sid:
            return sid
        if era == "2019":
            return f"{_uic(sid)}P" if sid.startswith("Parent") else sid
        return sloid(sid)

    rows = list(csv.DictReader(io.StringIO(files["stops.txt"].decode())))
    buf = io.StringIO()
    if era == "2019":
        # FP2019-2021: no station rows, parents only referenced; no platform_code column
        w = csv.writer(buf, lineterminator="\r\n", quoting=csv.QUOTE_ALL)
        w.writerow(["stop_id", "stop_name", "stop_lat", "stop_lon", "location_type", "parent_station"])
        for r in rows:
            if r["location_type"] != "1":
                w.writerow([r["stop_id"], r["stop_name"], r["stop_lat"], r["stop_lon"], "",
                            new_id(r["parent_station"])])
    else:
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["stop_id", "stop_name", "stop_lat", "stop_lon", "location_type", "parent_station",
                    "platform_code", "original_stop_id", "didok"])
        for r in rows:
            w.writerow([new_id(r["stop_id"]), r["stop_name"], r["stop_lat"], r["stop_lon"], r["location_type"],
                        new_id(r["parent_station"]), r["platform_code"], r["stop_id"], _uic(r["stop_id"])])
    out = dict(files, **{"stops.txt": buf.getvalue().encode()})
    for name, cols in (("stop_times.txt", {3}), ("transfers.txt", {0, 1})):
        lines = lines_of(files[name])
        new = [lines[0]]
        for line in lines[1:]:
            f = line.split(",")
            new.append(",".join(new_id(v) if i in cols else v for i, v in enumerate(f)))
        out[name] = join(new)
    return out


def test_sloid_era_loads_to_uic_station_ids(tmp_path):
    """2026 SLOIDs: platform ``ch:1:sloid:3000:502:42`` with parent ``Parentch:1:sloid:3000`` is station 8503000."""
    files = to_era(base_files(), "2026")
    assert b"ch:1:sloid:3000:502:42,Z\xc3\xbcrich HB,47.37820,8.54010,,Parentch:1:sloid:3000,7," in files["stops.txt"]
    assert files["stops.txt"].startswith(b"stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,"
                                         b"platform_code,original_stop_id,didok\n")
    tt = load(write_dir(tmp_path / "f", files))
    z = tt.stop_index["ch:1:sloid:3000:502:42"]
    assert tt.station_id[int(tt.stop_station[z])] == "8503000"
    assert tt.station_name[int(tt.stop_station[z])] == "Zürich HB"
    assert tt.stop_platform[z] == "7"


def test_sloid_era_without_didok_column(tmp_path, expected):
    """SLOIDs alone (no didok column) still give the UIC station ids."""
    files = to_era(base_files(), "2026")
    files["stops.txt"] = _drop_columns(files["stops.txt"], {"didok", "original_stop_id"})
    assert model(load(write_dir(tmp_path / "f", files))) == expected


@pytest.mark.parametrize("game", ["none", "sbb-monopoly"])
def test_three_eras_same_station_model(tmp_path, game):
    """The same feed with 2019, 2022 and 2026 stop ids: same stations, names, trips and connections."""
    models = {}
    for era in ("2019", "2022", "2026"):
        tt = load(write_dir(tmp_path / era, to_era(base_files(), era)), game)
        models[era] = model(tt)
        # transfer times inside Olten survive the id change
        o = tt.stop_station.tolist()
        assert len(tt.xfer_from) == 4 and all(o[int(a)] == o[int(b)] for a, b in zip(tt.xfer_from, tt.xfer_to,
                                                                                       strict=True))
    assert models["2019"] == models["2022"] == models["2026"]
    assert models["2022"]["stations"]["8503000"] == "Zürich HB"
