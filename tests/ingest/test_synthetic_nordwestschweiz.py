"""The SYNTHETIC Nordwestschweiz game day (``tests/support/nws_synthetic.py``) is what it claims to be.

The feed is invented (labelled SYNTHETIC) but stands on the real ATLAS stop registry and the real SBB line
data; here it goes through the real ingest, the organisers' check, the crossing code on the physical network
and the CLI with game ``nordwestschweiz`` (variant B), so its whole day can be played in tests.
"""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from pathlib import Path

import numpy as np
import pytest

from planner.cli import main
from tests.support import DATA, ROOT
from tests.support.nws_synthetic import AGENCIES, FEED_NAME, PUBLISHER, write_feed
from tests.support.nws_synthetic_network import CHANGE_MINUTES, PLATFORM_CHANGES, WALKS

pytestmark = pytest.mark.needs_shared  # reads ../shared (tests/project/test_suite_without_shared.py)

ATLAS = DATA / "stations" / "atlas-service-points-2025-08-02.csv.zip"


@pytest.fixture(scope="module")
def day(nws_feed, nws_date) -> list[str]:
    """The CLI arguments that name the synthetic day."""
    return ["--game", "nordwestschweiz", "--feed", str(nws_feed), "--date", nws_date.isoformat()]


def run_json(capsys, *argv: str) -> dict:
    """Run the CLI in process with ``--json``; exit 0 expected."""
    rc = main([*argv, "--json"])
    out = capsys.readouterr().out
    assert rc == 0, out
    return json.loads(out)


def table(feed: Path, name: str) -> list[dict[str, str]]:
    """One GTFS table of the written feed folder as dicts."""
    with open(feed / name, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def minutes(hhmm: str) -> int:
    """``"24:05"`` -> 1445."""
    h, m = hhmm.split(":")
    return int(h) * 60 + int(m)


def change_minutes(station: str, a: str, b: str) -> int:
    """The change time the fixture declares between two platforms (else the station's, else the game's 2)."""
    for s, x, y, m in PLATFORM_CHANGES:
        if s == station and {a, b} == {x, y}:
            return m
    return CHANGE_MINUTES.get(station, 2)


def assert_itinerary(legs: list[dict]) -> None:
    """Legs chain in place and time; a change between two rides keeps the feed's change time."""
    assert legs
    for leg in legs:
        assert minutes(leg["departure"]) <= minutes(leg["arrival"])
    for prev, nxt in zip(legs, legs[1:], strict=False):
        assert prev["to"] == nxt["from"]
        wait = minutes(nxt["departure"]) - minutes(prev["arrival"])
        assert wait >= 0
        if "walk" not in (prev["route"], nxt["route"]) and prev["trip_id"] != nxt["trip_id"]:
            assert wait >= change_minutes(prev["to"], prev["to_platform"], nxt["from_platform"]), (prev, nxt)


# ---- the feed itself ---------------------------------------------------------------------------------


def test_labelled_synthetic_everywhere(nws_feed):
    assert nws_feed.name == FEED_NAME and FEED_NAME.startswith("SYNTHETIC")
    assert all("SYNTHETIC" in a["agency_name"] for a in table(nws_feed, "agency.txt"))
    assert {a["agency_name"] for a in table(nws_feed, "agency.txt")} == set(AGENCIES.values())
    (info,) = table(nws_feed, "feed_info.txt")
    assert info["feed_publisher_name"] == PUBLISHER and info["feed_version"].startswith("SYNTHETIC")
    assert "SYNTHETIC" in (nws_feed / "SYNTHETIC_README.txt").read_text("utf-8")
    assert not nws_feed.resolve().is_relative_to(ROOT)


def test_same_seed_same_bytes(tmp_path, nws_feed):
    one = write_feed(tmp_path / "a", seed=0, as_zip=True)
    two = write_feed(tmp_path / "b", seed=0, as_zip=True)
    assert one.name == f"{FEED_NAME}.zip" and one.read_bytes() == two.read_bytes()
    with zipfile.ZipFile(one) as zf:  # the zip holds exactly the session's folder
        assert {n: zf.read(n) for n in zf.namelist()} == {p.name: p.read_bytes() for p in nws_feed.iterdir()}
    # another seed moves platforms and renames trips, never a time or a stop
    other = write_feed(tmp_path / "c", seed=7)
    a, b = table(nws_feed, "stop_times.txt"), table(other, "stop_times.txt")
    keep = ("arrival_time", "departure_time", "stop_id", "stop_sequence")
    assert [[r[k] for k in keep] for r in a] == [[r[k] for k in keep] for r in b]
    assert [r["trip_id"] for r in a] != [r["trip_id"] for r in b]
    assert (other / "stops.txt").read_bytes() != (nws_feed / "stops.txt").read_bytes()
    with pytest.raises(ValueError, match="never written into the repository"):
        write_feed(ROOT / "feeds" / "nws")


def test_newest_stop_id_era_and_extended_route_types(nws_feed):
    with open(nws_feed / "stops.txt", encoding="utf-8") as f:
        assert f.readline().strip() == ("stop_id,stop_name,stop_lat,stop_lon,location_type,parent_station,"
                                        "platform_code,original_stop_id,didok")
    stops = table(nws_feed, "stops.txt")
    parents = {s["stop_id"] for s in stops if s["location_type"] == "1"}
    for s in stops:
        if s["location_type"] == "1":
            num = re.fullmatch(r"Parentch:1:sloid:(\d+)", s["stop_id"]).group(1)
            assert s["original_stop_id"] == f"Parent{8500000 + int(num)}"
        else:
            num, plat = re.fullmatch(r"ch:1:sloid:(\d+):1:(\w+)", s["stop_id"]).groups()
            assert s["parent_station"] == f"Parentch:1:sloid:{num}" in parents and s["platform_code"] == plat
            assert s["original_stop_id"] == f"{8500000 + int(num)}:0:{plat}"
        assert s["didok"] == num
    types = {int(r["route_type"]) for r in table(nws_feed, "routes.txt")}
    assert types == {102, 103, 106, 109, 700, 701, 900}


def test_loads_through_the_real_ingest(nws_tt):
    tt = nws_tt
    assert tt.meta["game"] == "nordwestschweiz" and tt.date == "2026-06-13"
    names = set(tt.station_name)
    assert {"Basel SBB", "Olten", "Hölstein, Station", "Bretzwil, Dorf", "Reigoldswil, Dorfplatz"} <= names
    # the IC3 to Zürich and the IC51 to Delémont leave the area: cut there by the ingest
    assert not names & {"Delémont", "Baden", "Zürich HB"}
    routes = {tt.route_name[int(r)] for r in tt.trip_route}
    assert {"IC3", "IC51", "S3", "R19", "Tram 10", "Bus 70", "Bus 111"} <= routes
    # every station id is the UIC number the SLOID stands for
    assert tt.station_id[tt.station_name.index("Basel SBB")] == "8500010"
    assert tt.station_id[tt.station_name.index("Liestal, Bahnhof")] == "8572212"
    # service all day, some of it past midnight (service-day times)
    assert 5 * 3600 <= int(tt.st_dep.min()) and int(tt.st_arr.max()) <= 24 * 3600 + 30 * 60
    assert (tt.st_arr > 24 * 3600).sum() > 10


def test_registry_coordinates_and_ids(nws_tt):
    # read independently of the generator: the ATLAS rows of a few stations and stops
    want = {"8500010": "Basel SBB", "8500023": "Liestal", "8578250": "Hölstein, Station",
            "8572351": "Waldenburg, Station", "8500753": "Bretzwil, Dorf", "8500218": "Olten"}
    with zipfile.ZipFile(ATLAS) as zf, zf.open(zf.namelist()[0]) as raw:
        lines = io.TextIOWrapper(raw, encoding="utf-8-sig")
        header = next(csv.reader([next(lines)], delimiter=";"))
        at = header.index("number")  # only the wanted rows are parsed (55,810 in all)
        hits = [x for x in lines if x.split(";", at + 1)[at] in want]
        atlas = {r["number"]: r for r in csv.DictReader(hits, fieldnames=header, delimiter=";")}
    assert set(atlas) == set(want)
    for uic, name in want.items():
        s = nws_tt.station_id.index(uic)
        assert nws_tt.station_name[s] == atlas[uic]["designationOfficial"] == name
        assert nws_tt.station_lat[s] == pytest.approx(float(atlas[uic]["wgs84North"]), abs=1e-7)
        assert nws_tt.station_lon[s] == pytest.approx(float(atlas[uic]["wgs84East"]), abs=1e-7)


# ---- the organisers' check and the crossings --------------------------------------------------------


def test_check_area_says_valid(capsys, day, nws_game):
    rep = run_json(capsys, "check-area", *day)
    assert rep["valid"] and rep["problems"] == []
    numbers = {t.number for t in nws_game.dice.targets}
    assert {t["number"] for t in rep["targets"]} == numbers and len(numbers) == 30
    assert all(t["found"] and t["in_area"] and t["served"] for t in rep["targets"])
    for c in (*rep["toll_lines"], *rep["tunnels"]):
        assert c["found"] and c["in_area"] and c["served"], c["name"]
        assert c["method"] == ("stops" if c["name"] == "Hölstein–Niederdorf" else "path")
    assert rep["unreachable"] == []  # every stop reaches every other within the game hours
    assert main(["check-area", *day]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith(": VALID")


# which routes cross what, by design: the S3 runs Basel-Pratteln-Liestal over line 500 (never the Adler
# tunnel) and Tecknau-Olten through the base tunnel; the S9 runs Sissach-Läufelfingen-Olten (never the base
# tunnel); the IC51 and IC3 pass Zwingen, Grellingen, Möhlin and Mumpf without stopping
CROSSED_BY = {
    "Adlertunnel": {"IC6", "IC61", "IR27", "IR37"},
    "Hauenstein-Basistunnel": {"IC6", "IC61", "IR27", "IR37", "S3"},
    "Zwingen–Grellingen": {"IC51", "S3"},
    "Basel SBB–Muttenz": {"IC3", "IC6", "IC61", "IR27", "IR36", "IR37", "S1", "S3"},
    "Möhlin–Mumpf": {"IC3", "IR36", "S1"},
    "Hölstein–Niederdorf": {"R19"},
}


def test_every_crossing_by_the_trains_it_should(nws_tt, nws_game):
    from planner.rail.loader import load_rail_network
    from planner.rail.trips import crossing_trips, trip_crossings

    tt, net = nws_tt, load_rail_network()
    index = crossing_trips(tt, net, nws_game)
    assert set(index) == set(CROSSED_BY)
    trips_of = {}
    for t in range(tt.n_trips):
        trips_of.setdefault(tt.route_name[int(tt.trip_route[t])], set()).add(t)
    for name, routes in CROSSED_BY.items():
        crossing = {h[0] for h in index[name]}
        assert {tt.route_name[int(tt.trip_route[t])] for t in crossing} == routes, name
        for r in routes:  # every trip of the route, both directions, crosses it once
            assert trips_of[r] <= crossing, (name, r)
        assert len(index[name]) == len(crossing)
    ic6 = next(iter(trips_of["IC6"]))
    adler = next(h for h in trip_crossings(tt, net, nws_game, ic6) if h.name == "Adlertunnel")
    assert adler.method == "path" and {"8515984", "8515272"} <= set(adler.points)  # Muttenz Ost, Liestal Nord
    wb = next(iter(trips_of["R19"]))
    assert [(h.name, h.method) for h in trip_crossings(tt, net, nws_game, wb)] == [("Hölstein–Niederdorf", "stops")]
    # the IC51 crosses Zwingen-Grellingen without stopping at either
    ic51 = next(iter(trips_of["IC51"]))
    rows = range(int(tt.trip_offset[ic51]), int(tt.trip_offset[ic51 + 1]))
    assert {tt.station_name[int(tt.stop_station[tt.st_stop[r]])] for r in rows} == {"Basel SBB", "Laufen"}


# ---- the day, as a group plays it ---------------------------------------------------------------------


def test_every_roll_has_a_reachable_target_from_basel(capsys, day, nws_game):
    modes = set()
    for entry in nws_game.dice.targets:
        ans = run_json(capsys, "target", *day, "--at", "Basel SBB", "--time", "11:30", "--roll", str(entry.number))
        name = entry.toll_line or entry.tunnel or entry.stations[0]
        assert (ans["kind"], ans["target"]) == ("target", name), ans
        assert ans["arrival"] and minutes(ans["arrival"]) <= minutes("15:30"), ans
        assert_itinerary(ans["legs"])
        assert minutes(ans["legs"][0]["departure"]) >= minutes("11:30")
        if entry.stations:
            assert ans["legs"][-1]["to"] == name and ans["legs"][-1]["arrival"] == ans["arrival"]
        else:  # toll lines and tunnels are reached by travelling through them
            assert any(c["name"] == name for leg in ans["legs"] for c in leg["crossings"]), ans
        # variant B: roll again 5 minutes before the target; every way at most 20 minutes longer is admissible
        assert minutes(ans["reroll_at"]) == minutes(ans["arrival"]) - 5
        assert ans["admissible"]
        for way in ans["admissible"]:  # (a toll line or tunnel is reached where the train has passed it)
            assert minutes(ans["arrival"]) <= minutes(way["reached"]) <= minutes(ans["arrival"]) + 20
            assert minutes(way["reached"]) <= minutes(way["arrival"])
            assert_itinerary(way["legs"])
        modes |= {leg["route"] if leg["route"] == "walk" else leg["route"].split()[0] if " " in leg["route"]
                  else "rail" for leg in ans["legs"]}
    assert modes == {"walk", "Tram", "Bus", "rail"}


def _departures(tt, route: str, station: str) -> list[int]:
    """Minutes of the departures of ``route`` at ``station`` (from the timetable, not the router)."""
    s = tt.station_name.index(station)
    rows = np.flatnonzero((tt.stop_station[tt.st_stop] == s) & tt.st_pickup)
    return sorted(int(tt.st_dep[r]) // 60 for r in rows
                  if tt.route_name[int(tt.trip_route[int(tt.st_trip[r])])] == route)


def test_walks_between_a_station_and_its_stops(nws_tt, nws_game):
    tt = nws_tt
    links = {(tt.station_name[a], tt.station_name[b]): int(s) for a, b, s in
             zip(tt.link_from, tt.link_to, tt.link_seconds, strict=True)}
    for a, b, m in WALKS:
        if m <= nws_game.max_walk_minutes:
            assert links[(a, b)] == links[(b, a)] == m * 60
        else:  # longer than the game allows: not a link
            assert (a, b) not in links and (b, a) not in links
    assert len(links) == 2 * sum(m <= nws_game.max_walk_minutes for _a, _b, m in WALKS)


@pytest.mark.parametrize("time", ["11:40", "11:41"])
def test_route_to_a_bus_only_place_walks_to_the_bus(capsys, day, nws_tt, time):
    walk = next(m for a, b, m in WALKS if (a, b) == ("Liestal", "Liestal, Bahnhof"))
    out = run_json(capsys, "route", *day, "--from", "Liestal", "--to", "Reigoldswil, Dorfplatz", "--time", time)
    first, bus = out["legs"]
    assert (first["route"], first["from"], first["to"]) == ("walk", "Liestal", "Liestal, Bahnhof")
    assert minutes(first["arrival"]) - minutes(first["departure"]) == walk
    assert bus["route"] == "Bus 70" and bus["to"] == "Reigoldswil, Dorfplatz"
    # the first bus the walk can reach; at 11:41 the 11:43 bus is missed by one minute
    ready = minutes(time) + walk
    assert minutes(bus["departure"]) == min(d for d in _departures(nws_tt, "Bus 70", "Liestal, Bahnhof") if d >= ready)
    if time == "11:41":
        assert ready - 1 in _departures(nws_tt, "Bus 70", "Liestal, Bahnhof")


def test_a_platform_change_keeps_its_minutes(capsys, day, nws_tt):
    # seated in the IR27 from Basel, to Däniken SO (S23 only): the change at Olten from platform 7 to 12
    # needs 5 minutes, and one S23 leaves 4 minutes after the IR27 arrives
    out = run_json(capsys, "route", *day, "--trip", "IR27 11:47", "--from", "Basel SBB", "--to", "Däniken SO")
    ir, s23 = out["legs"]
    assert (ir["route"], ir["to"], s23["route"]) == ("IR27", "Olten", "S23")
    need = change_minutes("Olten", ir["to_platform"], s23["from_platform"])
    assert need == 5 and minutes(s23["departure"]) - minutes(ir["arrival"]) >= need
    missed = [d for d in _departures(nws_tt, "S23", "Olten") if 0 <= d - minutes(ir["arrival"]) < need]
    assert missed, "the fixture should hold a connection missed by the change time"
    assert nws_tt.station_change[nws_tt.station_name.index("Basel SBB")] == CHANGE_MINUTES["Basel SBB"] * 60


def test_full_hour_bonus_chances(capsys, day):
    out = run_json(capsys, "bonus", *day, "--at", "Basel SBB", "--time", "11:30")
    assert out["hour"] == "12:00" and out["fee"] == 8000
    assert out["chances"] and all(c["time"] in ("12:00", "12:01") for c in out["chances"])


def test_the_game_ends_at_half_past_three(capsys, day):
    ans = run_json(capsys, "target", *day, "--at", "Basel SBB", "--time", "15:10", "--roll", "21")
    assert minutes(ans["arrival"]) > minutes("15:30")
    assert any("not before the end of the game (15:30)" in w for w in ans["warnings"])
    assert ans["reroll_at"] is None  # 5 minutes before an arrival after the end: nothing is offered past it
    rc = main(["target", *day, "--at", "Basel SBB", "--time", "15:31", "--roll", "21"])
    err = capsys.readouterr().err
    assert rc == 2 and err.startswith("planner: error:") and "15:30" in err and err.count("\n") == 1


def test_only_the_game_day_runs(capsys, nws_feed):
    rc = main(["route", "--game", "nordwestschweiz", "--feed", str(nws_feed), "--date", "2026-06-14",
               "--from", "Basel SBB", "--to", "Olten", "--time", "10:00"])
    err = capsys.readouterr().err
    assert rc == 2 and "outside the feed" in err and err.count("\n") == 1


def test_a_toll_line_target_takes_the_way_with_fewest_changes(capsys, day):
    # the S3 that crosses Zwingen–Grellingen leaves Basel SBB itself: no change via Pratteln (RULES.md §3 "Fastest")
    ans = run_json(capsys, "target", *day, "--at", "Basel SBB", "--time", "11:30", "--roll", "51")
    assert ans["target"] == "Zwingen–Grellingen" and ans["changes"] == 0
    assert [leg["from"] for leg in ans["legs"]] == ["Basel SBB"]
    assert all(a["arrival"] <= "12:36" for a in ans["admissible"])  # the +20 minutes of variant B
