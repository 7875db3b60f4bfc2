"""Game rules on tiny hand-built timetables: the cases the real extract lacks."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from planner.game.bonus import bonus_chances, leg_bonus_events
from planner.game.dice import decide
from planner.game.zugzwang import zugzwang
from planner.gamefile.game import load_game, parse_game
from planner.gamefile.rules import ChangeWindow
from planner.routing import TransitNetwork, station_origin
from planner.util.timefmt import fmt_clock, parse_clock
from tests.support.timetable import TimetableBuilder

RULE = ChangeWindow(29)


def game_with_targets(variant: str, targets: list[dict]):
    doc = tomllib.loads((resources.files("planner") / "games" / f"{variant}.toml").read_text("utf-8"))
    doc["dice"]["targets"] = targets
    return parse_game(doc, source=f"test-{variant}")


@pytest.fixture()
def line():
    """A - B - C - D, one train an hour, plus a branch A - E arriving at the same time as C."""
    b = TimetableBuilder()
    for s in "ABCDE":
        b.station(s)
    for h in (12, 13, 14):
        b.trip([("A", None, f"{h}:10"), ("B", f"{h}:20", f"{h}:21"), ("C", f"{h}:30", f"{h}:31"),
                ("D", f"{h}:40", None)], route="S1", trip_id=f"s1-{h}")
        b.trip([("A", None, f"{h}:12"), ("E", f"{h}:30", None)], route="S2", trip_id=f"s2-{h}")
    return TransitNetwork(b.build())


def test_all_four_targeted_counts_as_six(line):
    g = game_with_targets("sbb-monopoly", [{"number": 3, "stations": ["B", "C", "D", "E"]}])
    o = station_origin(0, parse_clock("13:00"))
    assert decide(line, g, o, 3, []).target == "B"
    assert decide(line, g, o, 3, ["B"]).target in {"C", "E"}
    ans = decide(line, g, o, 3, ["B", "C", "D", "E"])
    assert ans.kind == "free" and fmt_clock(ans.free_until) == "14:00"


def test_equal_arrival_tie_broken_by_later_departure_then_name(line):
    # C and E are both reached at 13:30 with no change; E's train leaves later (13:12 vs 13:10).
    g = game_with_targets("sbb-monopoly", [{"number": 3, "stations": ["C", "E", "D", "B"]}])
    ans = decide(line, g, station_origin(0, parse_clock("13:00")), 3, ["B"])
    assert ans.target == "E" and fmt_clock(ans.arrival) == "13:30"
    assert {c["name"]: c["arrival"] for c in ans.candidates if not c["targeted"]} == {
        "C": "13:30", "E": "13:30", "D": "13:40"}


def test_target_missing_from_feed_is_a_warning(line):
    g = game_with_targets("sbb-monopoly", [{"number": 3, "stations": ["Nowhere", "D"]}])
    ans = decide(line, g, station_origin(0, parse_clock("13:00")), 3, [])
    assert ans.target == "D" and any("Nowhere" in w for w in ans.warnings)
    assert {c["name"]: c["available"] for c in ans.candidates} == {"Nowhere": False, "D": True}


def test_variant_b_tunnel_target_counts_when_travelled_through(line):
    g = load_game("nordwestschweiz")
    tt = line.tt
    s1_13 = tt.trip_index["s1-13"]
    # Pretend the stretch B..C of every S1 runs through the Adler tunnel up to C (what the physical model reports).
    def finder(name):
        if name != "Adlertunnel":
            return []
        out = []
        for t in range(tt.n_trips):
            rows = list(tt.trip_stop_times(t))
            if tt.route_name[tt.trip_route[t]] == "S1":
                out.append((t, rows[1], rows[2], 1.0))
        return out

    ans = decide(line, g, station_origin(0, parse_clock("13:00")), 55, [], finder)
    assert ans.kind == "target" and ans.target == "Adlertunnel"
    assert fmt_clock(ans.arrival) == "13:30"  # through the tunnel on arrival at C, on the 13:10 S1
    assert ans.journey.legs[0].trip == s1_13
    # admissible: also the 14:10 S1? No: 14:30 is 60 min later, beyond 20 minutes.
    assert len(ans.admissible) == 1


def test_variant_b_white_six_is_free(line):
    g = load_game("nordwestschweiz")
    ans = decide(line, g, station_origin(0, parse_clock("12:00")), 63, [])
    assert ans.kind == "free" and fmt_clock(ans.free_until) == "13:00"


def test_variant_b_admissible_within_20_minutes():
    b = TimetableBuilder()
    for s in "AXZ":
        b.station(s)
    b.trip([("A", None, "12:00"), ("Z", "12:30", None)], route="IR", trip_id="fast")
    b.trip([("A", None, "12:05"), ("X", "12:20", "12:21"), ("Z", "12:45", None)], route="S", trip_id="slow")
    # leaves earlier and arrives later than "fast": dominated, so not listed (Pareto set, RULES.md §2 B)
    b.trip([("A", None, "11:55"), ("Z", "12:40", None)], route="S", trip_id="dominated")
    b.trip([("A", None, "12:10"), ("Z", "12:55", None)], route="R", trip_id="late")
    net = TransitNetwork(b.build())
    g = game_with_targets("nordwestschweiz", [{"number": 11, "stations": ["Z"]}])
    ans = decide(net, g, station_origin(0, parse_clock("11:50")), 11, [])
    arrivals = sorted(fmt_clock(j.arrival(net.tt)) for j in ans.admissible)
    assert fmt_clock(ans.arrival) == "12:30" and arrivals == ["12:30", "12:45"]  # 12:55 is 25 min later


def test_no_train_within_29_minutes_forces_the_next():
    b = TimetableBuilder()
    b.station("A")
    b.station("B")
    b.trip([("A", None, "14:50"), ("B", "15:00", None)], trip_id="late")
    b.trip([("A", None, "14:20"), ("B", "14:30", None)], trip_id="ok")
    net = TransitNetwork(b.build())
    out = zugzwang(net, 0, parse_clock("14:15"), RULE)
    assert not out["forced_next"] and [d["departure"] for d in out["departures"]] == ["14:20"]
    out = zugzwang(net, 0, parse_clock("14:19"), RULE)  # 14:20 leaves in 1 min: not catchable (2 min change)
    assert out["forced_next"] and [d["departure"] for d in out["departures"]] == ["14:50"]
    assert out["deadline"] == "14:48"


def test_bonus_at_hh01_only_in_variant_b():
    b = TimetableBuilder()
    for s in "ABC":
        b.station(s)
    b.trip([("A", None, "12:50"), ("B", "13:01", "13:02"), ("C", "13:10", None)], trip_id="t")
    net = TransitNetwork(b.build())
    a, bb = load_game("sbb-monopoly"), load_game("nordwestschweiz")
    o = station_origin(0, parse_clock("12:40"))
    assert bonus_chances(net, a, o)["chances"] == []
    chances = bonus_chances(net, bb, o)["chances"]
    assert [(c["station"], c["event"], c["time"], c["board_at"]) for c in chances] == [("B", "arrival", "13:01", "A")]
    from planner.routing.journey import Leg

    leg = Leg(0, 0, 2)
    assert leg_bonus_events(net.tt, a, leg) == []
    assert [e["time"] for e in leg_bonus_events(net.tt, bb, leg)] == ["13:01"]


def test_bonus_only_while_seated_in_variant_a():
    b = TimetableBuilder()
    for s in "ABC":
        b.station(s)
    b.trip([("A", None, "12:50"), ("B", "13:00", "13:00"), ("C", "13:10", None)], trip_id="t")
    net = TransitNetwork(b.build())
    a = load_game("sbb-monopoly")
    # At B at 12:58 the group can board at B at 13:00 (departure event); at 13:05 it is too late.
    chances = bonus_chances(net, a, station_origin(1, parse_clock("12:58")))["chances"]
    assert [(c["event"], c["board_at"]) for c in chances] == [("departure", "B")]
    assert bonus_chances(net, a, station_origin(1, parse_clock("13:05")))["hour"] == "14:00"


def test_remaining_targets_missing_from_feed_count_as_free(line):
    g = game_with_targets("sbb-monopoly", [{"number": 3, "stations": ["B", "Nowhere", "Elsewhere"]}])
    ans = decide(line, g, station_origin(0, parse_clock("13:00")), 3, ["B"])
    assert ans.kind == "free" and any("counts as a free roll" in w for w in ans.warnings)


def test_a_target_no_train_reaches_any_more_counts_as_a_free_roll(line):
    # After the last train nothing moves (RULES.md §3 "Unreachable target"): said plainly, and it counts as
    # a 6: free movement for the game's free minutes, nothing targeted
    g = game_with_targets("sbb-monopoly", [{"number": 3, "stations": ["D", "C"]}])
    ans = decide(line, g, station_origin(0, parse_clock("15:00")), 3, [])
    assert ans.kind == "free" and ans.target is None and ans.free_until == parse_clock("16:00")
    assert any("can be reached" in w and "counts as a free roll" in w for w in ans.warnings)
    assert [c["arrival"] for c in ans.candidates] == [None, None]


def test_full_hour_income_bonus_needs_a_stop_in_the_bonus_minutes():
    # one rule for itineraries and for `ledger income --trip`: a train passing B at 13:00 without stopping
    # earns no bonus; one stopping there does
    from planner.game.bonus import trip_meets_bonus

    b = TimetableBuilder()
    for s in "ABC":
        b.station(s)
    through = b.trip([("A", None, "12:50"), ("B", "13:00", "13:00", False, False), ("C", "13:10", None)])
    stopping = b.trip([("A", None, "12:51"), ("B", "13:00", "13:00"), ("C", "13:11", None)])
    tt = b.build()
    a = load_game("sbb-monopoly")
    hour = parse_clock("13:00")
    assert not trip_meets_bonus(tt, a, through, hour)
    assert trip_meets_bonus(tt, a, stopping, hour)
    assert not trip_meets_bonus(tt, a, stopping, parse_clock("12:00"))


def test_bonus_time_between_is_the_bonus_minutes_in_game_hours():
    from planner.game.bonus import bonus_time_between, is_bonus_time
    from planner.gamefile.game import load_game

    game = load_game("sbb-monopoly")
    for lo, hi in [(12 * 3600 + 60, 12 * 3600 + 3540), (12 * 3600 + 3599, 13 * 3600), (11 * 3600 + 59, 12 * 3600),
                   (12 * 3600 + 30, 12 * 3600 + 50), (3 * 3600, 3 * 3600 + 100), (13 * 3600 + 61, 13 * 3600 + 62)]:
        brute = any(is_bonus_time(game, t) for t in range(lo, hi + 1))
        assert bonus_time_between(game, lo, hi) == brute, (lo, hi)
