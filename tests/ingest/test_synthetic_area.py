"""The SYNTHETIC full game day of variant A (``tools/synth_area.py``) is the whole board, playable as the game says.

The timetable is invented (labelled SYNTHETIC); the stations, their positions and the lines with their km are the
real registry's and the SBB line data's. Here it goes through the real ingest and the organisers' check with game
``sbb-monopoly``: every station of the area that lies on the SBB lines is in the day, the 20 dice targets are
reachable, every toll line and tunnel is crossed by the trains that run over it physically, a roll from each
of the four big cities goes to the target an independent search under the 29-minute rule finds first, and whole
random days on it keep every rule (tests/support/random_days.py).
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import zipfile
from pathlib import Path

import numpy as np
import pytest

from planner.cli import main
from planner.gamefile.area import in_area
from planner.rail.loader import read_rail_points
from planner.routing import TransitNetwork
from planner.service import GameDay
from planner.timetable.stations import exact_station
from planner.util.timefmt import parse_clock
from tests.support import ROOT
from tests.support.random_days import DAYS_PER_TEST, played, real_days
from tests.support.rule_reference import RuleReference
from tools import synth_area
from tools.synth_gtfs import ATLAS, RAIL_CSV

pytestmark = pytest.mark.needs_shared  # reads ../shared (tests/project/test_suite_without_shared.py)

WINDOW = 29 * 60


def table(feed: Path, name: str) -> list[dict[str, str]]:
    """One GTFS table of the written feed folder as dicts."""
    with open(feed / name, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def run_json(capsys, *argv: str) -> dict:
    """Run the CLI in process with ``--json``; exit 0 expected."""
    rc = main([*argv, "--json"])
    out = capsys.readouterr().out
    assert rc == 0, out
    return json.loads(out)


@pytest.fixture(scope="module")
def day(area_feed, area_date) -> list[str]:
    """The CLI arguments that name the synthetic day."""
    return ["--game", "sbb-monopoly", "--feed", str(area_feed), "--date", area_date.isoformat()]


@pytest.fixture(scope="module")
def area_report(day) -> dict:
    """``planner check-area --json`` on the day."""
    import contextlib

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = main(["check-area", *day, "--json"])
    assert rc == 0
    return json.loads(buf.getvalue())


# ---- the feed itself ---------------------------------------------------------------------------------------------


def test_labelled_synthetic_everywhere_in_the_newest_stop_id_era(area_feed):
    assert area_feed.name == "SYNTHETIC-sbb-monopoly-2026-06-13"
    assert not area_feed.resolve().is_relative_to(ROOT)
    for a in table(area_feed, "agency.txt"):
        assert a["agency_id"].startswith("SYNTHETIC") and "SYNTHETIC" in a["agency_url"]
    (info,) = table(area_feed, "feed_info.txt")
    assert "SYNTHETIC" in info["feed_publisher_name"] and info["feed_version"].startswith("SYNTHETIC")
    assert "SYNTHETIC" in (area_feed / "SYNTHETIC_README.txt").read_text("utf-8")
    for s in table(area_feed, "stops.txt"):
        if s["location_type"] == "1":
            assert re.fullmatch(r"Parentch:1:sloid:\d+", s["stop_id"])
        else:
            num, plat = re.fullmatch(r"ch:1:sloid:(\d+):1:(\w+)", s["stop_id"]).groups()
            assert s["parent_station"] == f"Parentch:1:sloid:{num}" and s["didok"] == num
            assert s["original_stop_id"] == f"{8500000 + int(num)}:0:{plat}"


def test_the_same_seed_gives_the_same_bytes_as_a_zip(tmp_path, area_feed):
    z = synth_area.write_feed(tmp_path, seed=0, as_zip=True)
    assert z.name == "SYNTHETIC-sbb-monopoly-2026-06-13.zip"
    with zipfile.ZipFile(z) as zf:
        assert {n: zf.read(n) for n in zf.namelist()} == {p.name: p.read_bytes() for p in area_feed.iterdir()}


def _registry_without(tmp_path: Path, name: str) -> Path:
    """A copy of the ATLAS registry without the rows of one official name."""
    out = tmp_path / "atlas.csv.zip"
    with zipfile.ZipFile(ATLAS) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        member = src.namelist()[0]
        text = src.read(member).decode("utf-8-sig").splitlines(keepends=True)
        at = next(csv.reader([text[0]], delimiter=";")).index("designationOfficial")
        dst.writestr(member, "".join(ln for ln in text if ln.split(";")[at].strip('"') != name))
    return out


def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys):
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    cases = [
        (["--game", "no-such-game", "--out", str(tmp_path / "o")], "no-such-game"),
        (["--game", "nordwestschweiz", "--out", str(tmp_path / "o")], "no synthetic network for game 'nordwestschweiz'"),
        (["--out", str(a_file / "below")], "cannot write the feed into"),
        (["--out", str(ROOT / "feeds" / "area")], "never written into the repository"),
        (["--out", str(tmp_path / "o"), "--registry", str(_registry_without(tmp_path, "Olten"))], "Olten"),
    ]
    for argv, needle in cases:
        assert synth_area.main(argv) == 2, argv
        err = capsys.readouterr().err
        lines = [ln for ln in err.splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith("synth_area: error: ") and needle in lines[0], (argv, err)
        assert "Traceback" not in err
    assert not (tmp_path / "o").exists() and not (ROOT / "feeds" / "area").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "atlas.csv.zip"]  # nothing half-written


# ---- the whole area, as the organisers check it ------------------------------------------------------------------


def test_synth_area_never_deletes_a_folder_or_zip_it_did_not_write(tmp_path, capsys):
    from tests.support import nws_synthetic

    def refused(argv: list[str], *needles: str) -> None:
        assert synth_area.main(argv) == 2, argv
        err = capsys.readouterr().err
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("synth_area: error: "), err
        assert all(n in lines[0] for n in needles), (needles, lines[0])

    folder = tmp_path / "SYNTHETIC-sbb-monopoly-2026-06-13"
    folder.mkdir()
    (folder / "notes.txt").write_text("meine Notizen")
    refused(["--out", str(tmp_path)], "exists", "--force")
    refused(["--out", str(tmp_path), "--force"], "no generator wrote")
    assert (folder / "notes.txt").read_text() == "meine Notizen"
    state = tmp_path / "SYNTHETIC-sbb-monopoly-2026-06-13.zip"  # a state file given the zip's name
    state.write_bytes(b"SQLite format 3\0")
    refused(["--out", str(tmp_path), "--zip", "--force"], "no generator wrote")
    assert state.read_bytes() == b"SQLite format 3\0"
    os.mkfifo(tmp_path / "fifo")
    for lines in ("/dev/zero", str(tmp_path / "fifo")):
        refused(["--out", str(tmp_path / "new"), "--lines", lines], "not a regular file")
    refused(["--out", str(tmp_path / ("a" * 5000))], "cannot write the feed into")
    # a feed a generator wrote there is replaced on --force (the variant-B generator: the same writer, faster)
    for as_zip in (False, True):
        first = nws_synthetic.write_feed(tmp_path, as_zip=as_zip)
        assert nws_synthetic.write_feed(tmp_path, as_zip=as_zip, force=True) == first
    assert zipfile.ZipFile(first).testzip() is None


def test_every_rail_station_of_the_area_on_the_sbb_lines_is_in_the_day(area_tt, sbb_game):
    points = read_rail_points(RAIL_CSV)
    on_lines = set(points.loc[points["line"] < 5000, "uic"])
    rows = []
    with zipfile.ZipFile(ATLAS) as zf, zf.open(zf.namelist()[0]) as raw:
        for r in csv.DictReader(io.TextIOWrapper(raw, encoding="utf-8-sig"), delimiter=";"):
            if (r["uicCountryCode"] == "85" and r["stopPoint"] == "true" and "TRAIN" in r["meansOfTransport"]
                    and r["number"] in on_lines):
                rows.append(r)
    inside = in_area(sbb_game, np.array([float(r["wgs84North"]) for r in rows]),
                     np.array([float(r["wgs84East"]) for r in rows]), [r["number"] for r in rows])
    expected = {r["number"] for r, ok in zip(rows, inside, strict=True) if ok}
    assert len(expected) > 250
    # plus Sihlbrugg: a dice target, no stop point in the 2025 registry, served by the synthetic day
    assert set(area_tt.station_id) == expected | {"8502207"}


def test_the_area_is_valid_and_every_target_toll_line_and_tunnel_is_served(area_report):
    r = area_report
    assert r["valid"] and r["problems"] == [] and r["unreachable"] == []
    assert len(r["targets"]) == 20 and all(t["served"] and t["in_area"] for t in r["targets"])
    assert len(r["toll_lines"]) == 4 and len(r["tunnels"]) == 2
    assert all(c["served"] and c["method"] == "path" for c in r["toll_lines"] + r["tunnels"])


def test_toll_lines_and_tunnels_are_crossed_by_the_trains_that_pass_them(area_report):
    routes = {c["name"]: set(c["routes"]) for c in area_report["toll_lines"] + area_report["tunnels"]}
    assert routes == {
        # the base tunnel: the IC and IR Basel-Olten, the S3 through Tecknau; not the S9 over the summit line
        "Hauenstein": {"IC6", "IC61", "IR26", "IR37", "S3"},
        # the Heitersberg line: Bern/Biel/Basel-Zürich via Olten and Lenzburg, the S11; not via Brugg-Baden
        "Heitersberg": {"IC1", "IC5", "IR37", "S11"},
        "Olten–Aarau": {"IC1", "IC5", "IR37", "S23"},  # the IC1 and IC5 pass Aarau without stopping
        "Brugg–Baden": {"IC3", "IR36", "S12", "S23"},
        "Delémont–Laufen": {"IC51", "RE7"},
        "Luzern–Rotkreuz": {"IR75", "S1"},
    }


def test_the_blt_trams_are_in_the_feed_but_excluded_from_the_game(area_feed, area_tt):
    blt = [r for r in table(area_feed, "routes.txt") if r["agency_id"] == "SYNTHETIC-37"]
    assert {r["route_short_name"] for r in blt} == {"10", "11"} and {r["route_type"] for r in blt} == {"106"}
    (agency,) = [a for a in table(area_feed, "agency.txt") if a["agency_id"] == "SYNTHETIC-37"]
    assert agency["agency_name"] == "Baselland Transport"  # the name the game file excludes them by
    assert not {area_tt.route_name[int(r)] for r in area_tt.trip_route} & {"10", "11"}
    assert "Basel, Bahnhof SBB" not in area_tt.station_name


# ---- rolls from the big cities against an independent search ----------------------------------------------------


@pytest.fixture(scope="module")
def reference(area_tt) -> RuleReference:
    return RuleReference(TransitNetwork(area_tt))


@pytest.mark.parametrize(("city", "roll", "time"), [
    ("Basel SBB", 1, "12:30"), ("Bern", 2, "13:07"), ("Luzern", 3, "14:41"), ("Zürich HB", 5, "12:52"),
    ("Zürich HB", 4, "16:03"),
])
def test_a_roll_goes_to_the_target_the_independent_search_reaches_first(reference, area_tt, sbb_game, day, capsys,
                                                                      city, roll, time):
    ans = run_json(capsys, "target", *day, "--at", city, "--time", time, "--roll", str(roll))
    best = reference.earliest(exact_station(area_tt, city), parse_clock(time), WINDOW, 26 * 3600)
    expected = {}
    for name in sbb_game.dice.target_for(roll).stations:
        a = best.get(exact_station(area_tt, name))
        expected[name] = None if a is None else f"{a // 3600:02d}:{a % 3600 // 60:02d}"
    assert {c["name"]: c["arrival"] for c in ans["candidates"]} == expected
    first = min(a for a in expected.values() if a)
    assert ans["kind"] == "target" and ans["arrival"] == first and expected[ans["target"]] == first


def test_every_dice_target_is_reached_before_the_end_from_zurich(reference, area_tt, sbb_game):
    best = reference.earliest(exact_station(area_tt, "Zürich HB"), parse_clock("12:30"), WINDOW, 26 * 3600)
    late = {n for t in sbb_game.dice.targets for n in t.stations
            if best.get(exact_station(area_tt, n), 1 << 40) > sbb_game.clock.end}
    assert late == set()


# ---- the game lab on the whole board -----------------------------------------------------------------------------


def test_lab_days_on_the_whole_board_are_real_games_by_the_rules(area_feed, area_date, sbb_game, day, tmp_path,
                                                                  capsys):
    from planner.lab.day import DayConfig
    from planner.lab.report import build
    from planner.lab.run import RunSpec, keep, run_days
    from planner.service import GameDay

    spec = RunSpec(str(area_feed), "sbb-monopoly", area_date.isoformat(), None, DayConfig(6, "mix", 11, trace=True))
    board = keep(spec, GameDay(str(area_feed), sbb_game, area_date).warm())
    results = run_days(spec, 2, executor="serial")
    rep = build(results, board, spec.config)
    assert rep["meta"]["money_conserved"] and rep["meta"]["errors"] == 0
    for r in results:
        assert {"buy", "fee", "income"} <= {x.get("kind") for x in r.trace if x["type"] == "ledger"}
        assert {x["kind"] for x in r.rolls} == {"target", "free"}
    assert len({r["region"] for res in results for r in res.rolls}) > 1  # rolled in several parts of the area
    checked = 0
    for r in results:  # every group's day passes the change window's own check
        for line in (x for x in r.trace if x["type"] == "legs" and x["legs"]):
            path = tmp_path / f"{r.index}-{line['group']}.csv"
            with path.open("w", newline="", encoding="utf-8") as f:
                w = csv.DictWriter(f, ["from", "to", "departure", "arrival", "from_platform", "to_platform"])
                w.writeheader()
                w.writerows(line["legs"])
            res = run_json(capsys, "zugzwang", *day, "--check", str(path))
            assert res["ok"] and res["violations"] == [], (line["group"], res["violations"])
            checked += 1
    assert checked == 2 * 6


CHUNKS_AREA = 2  # 50 days of variant A on the SYNTHETIC whole-area day


@pytest.fixture(scope="module")
def area_day(area_feed, sbb_game, area_date):
    return GameDay(str(area_feed), sbb_game, area_date).warm()


@pytest.mark.long  # (handed out early: 50 days)
@pytest.mark.parametrize("chunk", range(CHUNKS_AREA),
                         ids=[f"seed_area_{8000 + c * DAYS_PER_TEST}" for c in range(CHUNKS_AREA)])
def test_random_days_on_the_whole_board_keep_every_rule(area_day, chunk):
    """Variant A on every station of its area, all 20 dice targets, the four toll lines and both tunnels with
    trains through them (SYNTHETIC day)."""
    real_days(played(area_day, 8000 + chunk * DAYS_PER_TEST))
