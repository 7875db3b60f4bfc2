"""Game rules on the real Zug extract (Saturday 2021-09-11, sbb-monopoly), answers checked by hand
against the feed's stop_times (see comments)."""

from __future__ import annotations

import pytest

from planner.game.bonus import bonus_chances, leg_bonus_events
from planner.game.dice import decide
from planner.game.zugzwang import zugzwang
from planner.gamefile.rules import ChangeWindow
from planner.routing import TransitNetwork, best_journey, station_origin, trip_origin
from planner.timetable.stations import find_station
from planner.util.timefmt import fmt_clock, parse_clock

pytestmark = pytest.mark.needs_shared  # reads ../shared (tests/project/test_suite_without_shared.py)

RULE = ChangeWindow(29)


@pytest.fixture(scope="module")
def net(zug_tt):
    return TransitNetwork(zug_tt)


def at(net, name, hhmm):
    return station_origin(find_station(net.tt, name), parse_clock(hhmm))


def test_roll_two_goes_to_wohlen(net, sbb_game):
    # Fastest: Rotkreuz 13:23 S26 (pl.5) -> Wohlen AG 13:46 (pl.3), reached from Zug by the S1 13:06 (-> Rotkreuz
    # 13:19) or the S1 12:52 (-> Rotkreuz 13:07), which stops at Hünenberg Zythus at exactly 13:00: equally
    # fast and earns the full-hour bonus, so it is preferred. Zürich Oerlikon: S24 Zug 13:04 -> 13:51.
    # Herzogenbuchsee and Konolfingen are not in the extract.
    ans = decide(net, sbb_game, at(net, "Zug", "12:40"), 2, [])
    assert ans.kind == "target" and ans.target == "Wohlen AG"
    assert fmt_clock(ans.arrival) == "13:46"
    legs = [leg.to_dict(net.tt) for leg in ans.journey.legs]
    assert [(x["route"], x["from"], x["departure"], x["to"], x["arrival"]) for x in legs] == [
        ("S1", "Zug", "12:52", "Rotkreuz", "13:07"), ("S26", "Rotkreuz", "13:23", "Wohlen AG", "13:46")]
    bonus = leg_bonus_events(net.tt, sbb_game, ans.journey.legs[0])
    assert [(b["station"], b["event"], b["time"]) for b in bonus] == [
        ("Hünenberg Zythus", "arrival", "13:00"), ("Hünenberg Zythus", "departure", "13:00")]
    cands = {c["name"]: c for c in ans.candidates}
    assert cands["Zürich Oerlikon"]["arrival"] == "13:51"
    assert not cands["Herzogenbuchsee"]["available"] and ans.warnings


def test_plain_fastest_route_takes_the_later_departure(net):
    # Without the bonus preference, ties are broken by later departure: S1 13:06 rather than 12:52.
    j = best_journey(net, at(net, "Zug", "12:40"), find_station(net.tt, "Wohlen AG"))
    assert j.legs[0].to_dict(net.tt)["departure"] == "13:06" and fmt_clock(j.arrival(net.tt)) == "13:46"


def test_targeted_is_skipped(net, sbb_game):
    ans = decide(net, sbb_game, at(net, "Zug", "12:40"), 2, ["Wohlen AG"])
    assert ans.target == "Zürich Oerlikon" and fmt_clock(ans.arrival) == "13:51"
    assert ans.journey.legs[0].to_dict(net.tt)["route"] == "S24"


def test_all_targeted_counts_as_six(net, sbb_game):
    ans = decide(net, sbb_game, at(net, "Zug", "12:40"), 2,
                 ["Wohlen AG", "Zürich Oerlikon", "Herzogenbuchsee", "Konolfingen"])
    assert ans.kind == "free" and fmt_clock(ans.free_until) == "13:40"


def test_six_is_free(net, sbb_game):
    ans = decide(net, sbb_game, at(net, "Zug", "14:05"), 6, [])
    assert ans.kind == "free" and fmt_clock(ans.free_until) == "15:05"


def test_standing_at_target_is_reached_at_once(net, sbb_game):
    ans = decide(net, sbb_game, at(net, "Wohlen AG", "13:50"), 2, [])
    assert ans.target == "Wohlen AG" and fmt_clock(ans.arrival) == "13:50" and ans.journey.legs == ()


def test_from_inside_a_train(net, sbb_game):
    # Seated in the S26 692.TA... approaching Wohlen AG (arr 13:46): staying seated reaches it.
    tt = net.tt
    trip = tt.trip_index["692.TA.91-S26-A-j21-1.221.R"]
    row = next(r for r in tt.trip_stop_times(trip) if tt.station_name[tt.stop_station[tt.st_stop[r]]] == "Rotkreuz")
    ans = decide(net, sbb_game, trip_origin(net, trip, row), 2, [])
    assert ans.target == "Wohlen AG" and fmt_clock(ans.arrival) == "13:46"
    assert len(ans.journey.legs) == 1 and ans.journey.legs[0].trip == trip


def test_zugzwang_at_wohlen(net):
    # got off the S26 at Wohlen AG 13:46 -> deadline 14:15: S26 14:12 (pl.2, to Rotkreuz) and S26 14:15
    # (pl.3); the S26 they left departs 13:47 (listed, not catchable; excluded when the trip is given).
    tt = net.tt
    wohlen = find_station(tt, "Wohlen AG")
    out = zugzwang(net, wohlen, parse_clock("13:46"), RULE)
    assert out["deadline"] == "14:15" and not out["forced_next"]
    assert [(d["departure"], d["route"], d["platform"], d["catchable"]) for d in out["departures"]] == [
        ("13:47", "S26", "3", False), ("14:12", "S26", "2", True), ("14:15", "S26", "3", True)]
    out = zugzwang(net, wohlen, parse_clock("13:46"), RULE, exclude_trip=tt.trip_index["692.TA.91-S26-A-j21-1.221.R"])
    assert [d["departure"] for d in out["departures"]] == ["14:12", "14:15"]


def test_bonus_chances_at_one(net, sbb_game):
    # From Zug 12:40 the group can ride the S1 Zug 12:52 -> Hünenberg Zythus arr 13:00 (dep 13:00).
    out = bonus_chances(net, sbb_game, at(net, "Zug", "12:40"))
    assert out["hour"] == "13:00"
    got = {(c["route"], c["station"], c["event"], c["time"]) for c in out["chances"]}
    assert ("S1", "Hünenberg Zythus", "arrival", "13:00") in got
    assert all(c["time"] == "13:00" for c in out["chances"])
