"""Through the service layer, every itinerary that `roll`, `next` and `route --group` give a group on
a day around Zug (sbb-monopoly, written here: tests/support/inline_day.py's area day, seven lines and dice targets
of the numbers 1 to 4) passes `zugzwang --check`, and its first train respects the 29-minute window counted from
when the group got off (the `since` of its recorded position)."""

from __future__ import annotations

import csv
import json
import random

import pytest

from planner.cli import main
from planner.game.zugzwang import check_legs
from planner.gamefile.rules import ChangeWindow
from planner.routing import TransitNetwork
from planner.util.timefmt import parse_clock
from tests.support.inline_day import area_day, day_argv

RULE = ChangeWindow(29)
W = 29 * 60


@pytest.fixture(scope="module")
def area(tmp_path_factory, session_cache):
    with pytest.MonkeyPatch.context() as mp:  # (module fixtures come before the tests' own cache)
        mp.setenv("PLANNER_CACHE", str(session_cache))
        return area_day(tmp_path_factory.mktemp("area-day"))


@pytest.fixture(scope="module")
def net(area) -> TransitNetwork:
    return TransitNetwork(area.timetable)


def _js(capsys, *argv: str) -> dict | None:
    """The JSON answer, or None when the command refused (exit 2: e.g. a target not reachable today)."""
    rc = main([*argv, "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc in (0, 2), out
    return out if rc == 0 else None


def _check_cli(capsys, day: list[str], path, legs: list[dict]) -> None:
    """`zugzwang --check` of the legs (with their platforms) reports nothing."""
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["from", "to", "departure", "arrival", "from_platform", "to_platform"])
        for leg in legs:
            w.writerow([leg["from"], leg["to"], leg["departure"], leg["arrival"], leg["from_platform"] or "",
                        leg["to_platform"] or ""])
    rc = main(["zugzwang", *day, "--check", str(path), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["violations"] == [], (legs, out)


def _check_start(net: TransitNetwork, legs: list[dict], since: str, asked: str) -> None:
    """The first train is one a group standing at its station since ``since`` may board when asking at ``asked``."""
    index = {name: s for s, name in enumerate(net.tt.station_name)}
    log = [{"from_station": index[leg["from"]], "to_station": index[leg["to"]],
            "departure": parse_clock(leg["departure"]), "arrival": parse_clock(leg["arrival"]), "line": i + 1}
           for i, leg in enumerate(legs)]
    assert not check_legs(net, log, RULE, start=(parse_clock(since), parse_clock(asked))), (since, asked, legs)


def test_roll_next_and_route_for_a_group_are_legal(capsys, tmp_path, area, net):
    day = day_argv(area)
    rnd = random.Random(9)
    names = sorted({net.tt.station_name[s] for s in range(net.tt.n_stations)})
    f = tmp_path / "legs.csv"
    checked = {"roll": 0, "next": 0, "route": 0}
    for i in range(30):
        group = f"g{i}"
        since = 12 * 60 + 30 + rnd.randrange(0, 240)
        asked = since + rnd.choice([0, 5, 20, 28])
        hm = [f"{m // 60:02d}:{m % 60:02d}" for m in (since, asked, asked + 1, asked + 2)]
        assert _js(capsys, "group", "position", *day, "--group", group, "--at", rnd.choice(names),
                   "--time", hm[0]) is not None
        roll = _js(capsys, "roll", *day, "--group", group, "--dice", str(rnd.randrange(1, 6)), "--time", hm[1])
        if roll is None or not roll.get("legs"):
            continue
        _check_cli(capsys, day, f, roll["legs"])
        _check_start(net, roll["legs"], hm[0], hm[1])
        checked["roll"] += 1
        nxt = _js(capsys, "next", *day, "--group", group, "--time", hm[2])
        if nxt is not None and nxt["itinerary"] and nxt["itinerary"]["legs"]:
            _check_cli(capsys, day, f, nxt["itinerary"]["legs"])
            _check_start(net, nxt["itinerary"]["legs"], hm[0], hm[2])
            checked["next"] += 1
        route = _js(capsys, "route", *day, "--group", group, "--time", hm[3])
        if route is not None and route["legs"]:
            for itin in [route, *route.get("alternatives", [])]:
                _check_cli(capsys, day, f, itin["legs"])
                _check_start(net, itin["legs"], hm[0], hm[3])
            checked["route"] += 1
    assert min(checked.values()) >= 15, checked
