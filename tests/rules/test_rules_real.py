"""Game rules on the real Zug extract (Saturday 2021-09-11, sbb-monopoly), answers checked by hand
against the feed's stop_times (see comments); and one group through a whole game day (09:00-17:55) via the service
layer: moves, position reports (standing and seated), rolls including a 6 and a roll during free time, undo, the
29-minute deadline, a bonus chance, and the end; after every step the history is consistent and every answer is
legal (nothing departs before the time it is planned from; changes obey §4.2). (The same rules on a day written
here: tests/rules/test_group_day.py.)"""

from __future__ import annotations

import pytest

from planner.errors import InputError
from planner.game.bonus import bonus_chances, leg_bonus_events
from planner.game.dice import decide
from planner.game.zugzwang import check_legs, zugzwang
from planner.gamefile.rules import ChangeWindow
from planner.routing import TransitNetwork, best_journey, station_origin, trip_origin
from planner.service import (
    GameDay,
    PlaceRequest,
    Play,
    RollRequest,
    implicit_record,
    next_json,
    next_step,
    roll,
    set_position,
    status,
    undo,
)
from planner.store.state import State
from planner.timetable.stations import find_station
from planner.util.timefmt import fmt_clock, parse_clock
from planner.util.timefmt import parse_clock as T
from tests.support.answers import plain

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


# ---- one group's whole day through the service layer -----------------------------------------------------------

G = "Team Rot"


def _play(day: GameDay, folder) -> Play:
    state = State(folder / "state.sqlite")
    return Play(day, implicit_record(state, day, "sbb-monopoly"), state)


def _legal(day: GameDay, answer: dict) -> None:
    """Nothing departs before the plan's start; the changes obey the 29-minute rule (§4.2)."""
    legs = answer["legs"]
    if not legs:
        return
    assert T(legs[0]["departure"]) >= T(answer["plan_from"])
    rows = [{"from_station": day.station(leg["from"]), "to_station": day.station(leg["to"]),
             "departure": T(leg["departure"]), "arrival": T(leg["arrival"]), "line": i}
            for i, leg in enumerate(legs)]
    assert check_legs(day.network, rows, day.window) == []


def _consistent(play: Play, at: int) -> dict:
    st = status(play, G, at)
    times = [r.time for r in st.rolls]
    assert [r.seq for r in st.rolls] == list(range(1, len(st.rolls) + 1))
    assert times == sorted(times)
    targets = [r.target for r in st.rolls if r.kind == "target"]
    assert list(st.state.targeted) == list(dict.fromkeys(targets))
    return {"kind": st.state.obligation.kind, "state": st.state}


def test_a_whole_game_day(zug_day, tmp_path):
    day = zug_day
    play = _play(day, tmp_path)
    tt = day.timetable

    # 09:00: the group stands at Zug; no dice before 12:30, but the 29-minute rule binds
    st = set_position(play, G, PlaceRequest("zug"), T("09:00"))
    ob = st.state.obligation
    assert (ob.kind, ob.until, ob.board_by) == ("before_dice", T("12:30"), T("09:29"))
    with pytest.raises(InputError, match="dice start at 12:30"):
        roll(play, RollRequest(G, 2, T("12:00")))

    # 12:25: "we are in the IR70 12:09" from Luzern: seated, the stop it approaches, nothing before 12:25
    st = set_position(play, "team rot", PlaceRequest("Luzern", None, "IR70 12:09"), T("12:25"))
    assert st.train.startswith("in IR70 12:09 Luzern → Zürich HB, next stop ")
    pos = st.state.position
    assert pos.seated and tt.trip_id[pos.trip] == "219.TA.91-70-j21-1.86.R" and pos.since >= T("12:24")
    assert st.state.obligation.board_by is None  # seated: nothing binds until the group gets off

    # 12:40: got off at Zug; roll 2 -> Wohlen AG (the fastest target of 2 in this extract)
    set_position(play, G, PlaceRequest("Zug"), T("12:40"))
    a = roll(play, RollRequest(G, 2, T("12:40"), roll_id="rot-1")).to_json()
    assert (a["target"], a["arrival"], a["seq"]) == ("Wohlen AG", "13:46", 1)
    _legal(day, a)
    # heading for Wohlen AG: a roll on the way is refused, naming the target
    with pytest.raises(InputError, match="heading for Wohlen AG"):
        roll(play, RollRequest(G, 4, T("13:10")))
    nxt = plain(next_json(day, next_step(play, G, T("13:00"))))
    assert nxt["obligation"]["kind"] == "heading" and nxt["position"]["seated"]
    assert nxt["itinerary"]["arrival"] == "13:46" and nxt["next_roll_at"] == "13:46"
    # the bonus chance lies on the itinerary it must take: its S1 departs a stop at 13:00
    assert nxt["bonus"] and all(b["time"] == "13:00" for b in nxt["bonus"])
    assert _consistent(play, T("13:00"))["kind"] == "heading"

    # 13:50 at Wohlen AG (arrived 13:46): a 6, free movement until 14:50
    s = _consistent(play, T("13:50"))
    assert s["kind"] == "roll" and s["state"].position.since == T("13:46")
    assert s["state"].obligation.board_by == T("14:15")
    f = roll(play, RollRequest(G, 6, T("13:50"))).to_json()
    assert (f["kind"], f["free_until"]) == ("free", "14:50")

    # 14:00 moving freely; 14:40 a roll during free time at Rotkreuz: the earliest legal arrival from the roll
    # (the change window binds during free movement too), the target counting from 14:50
    set_position(play, G, PlaceRequest("Wohlen AG"), T("14:05"))
    b = roll(play, RollRequest(G, 2, T("14:40"), PlaceRequest("Rotkreuz"))).to_json()
    assert b["plan_from"] == "14:40" and b["from"] == "Rotkreuz" and b["target"] == "Zürich Oerlikon"
    assert any("rolled during free movement (until 14:50)" in w for w in b["warnings"])
    _legal(day, b)
    # a mistyped roll: undo it (Zürich Oerlikon is no longer targeted), roll again
    assert undo(play, G).removed == 3
    assert "Zürich Oerlikon" not in status(play, G, T("14:40")).state.targeted
    with pytest.raises(InputError, match="never run backwards"):
        roll(play, RollRequest(G, 3, T("14:00"), PlaceRequest("Rotkreuz")))
    c = roll(play, RollRequest(G, 3, T("14:40"), PlaceRequest("Rotkreuz"))).to_json()
    assert c["target"] == "Emmenbrücke" and c["seq"] == 3 and T(c["departure"]) >= T("14:40")
    _legal(day, c)

    # after reaching Emmenbrücke, roll 2 again: Wohlen AG was targeted, so Zürich Oerlikon
    arrive = T(c["arrival"])
    assert _consistent(play, arrive)["kind"] == "roll"
    d = roll(play, RollRequest(G, 2, arrive + 120)).to_json()
    assert d["target"] == "Zürich Oerlikon" and d["from"] == "Emmenbrücke"
    _legal(day, d)

    # the last roll of the day: its itinerary may end after 17:55, which the answer then says
    late = T(d["arrival"]) + 60
    e = roll(play, RollRequest(G, 4, late)).to_json()
    assert e["target"] == "Affoltern am Albis"
    assert T(e["arrival"]) > T("17:55")
    assert any("not before the end of the game (17:55)" in w for w in e["warnings"])
    # the end ends every obligation; no rolls after it
    assert _consistent(play, T("17:55"))["kind"] == "ended"
    with pytest.raises(InputError, match="after the end of the game"):
        roll(play, RollRequest(G, 1, T("17:58")))
    final = status(play, "TEAM ROT", T("17:55"))
    assert [r.target for r in final.rolls] == ["Wohlen AG", None, "Emmenbrücke", "Zürich Oerlikon",
                                                  "Affoltern am Albis"]
    play.state.close()
