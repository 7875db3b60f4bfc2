"""One group through a whole game day (09:00-17:55, Zug extract, sbb-monopoly) via the service layer.

Moves, position reports (standing and seated), rolls including a 6 and a roll during free time, undo, the
29-minute deadline, a bonus chance, and the end; after every step the history is consistent and every
answer is legal (nothing departs before the time it is planned from; changes obey §4.2).
"""

from __future__ import annotations

import pytest

from planner.errors import InputError
from planner.game.zugzwang import check_legs
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
from planner.util.timefmt import fmt_clock
from planner.util.timefmt import parse_clock as T
from tests.support import DEMO_DATE, ZUG
from tests.support.answers import plain

pytestmark = pytest.mark.needs_shared  # reads ../shared (tests/project/test_suite_without_shared.py)

G = "Team Rot"


@pytest.fixture(scope="module")
def day(sbb_game):
    return GameDay(str(ZUG), sbb_game, DEMO_DATE)


def _play(day: GameDay, folder) -> Play:
    state = State(folder / "state.sqlite")
    return Play(day, implicit_record(state, day, "sbb-monopoly"), state)


def _count_snapshots(play: Play):
    """Count the snapshots the use cases read (a use case reads its group once, one version)."""

    class Counter:
        snapshots = 0

    counter = Counter()
    real = play.state.groups.snapshot

    def snapshot(game_id, group):
        counter.snapshots += 1
        return real(game_id, group)

    play.state.groups.snapshot = snapshot
    return counter


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


def test_a_whole_game_day(day, tmp_path):
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


def test_seated_report_in_a_train_to_the_target_reaches_it(day, tmp_path):
    # heading for Emmenbrücke, the group says it sits in the S1 13:36 from Zug: it is there on arrival (14:19)
    play = _play(day, tmp_path)
    roll(play, RollRequest("Lila", 3, T("13:20"), PlaceRequest("Zug")))
    set_position(play, "Lila", PlaceRequest("Zug", None, "S1 13:36 Sursee"), T("13:36"))
    assert status(play, "Lila", T("14:10")).state.obligation.kind == "heading"
    st = status(play, "Lila", T("14:20"))
    assert st.state.obligation.kind == "roll" and st.state.obligation.since == T("14:19")
    pos = st.state.position
    assert not pos.seated and day.timetable.station_name[pos.station] == "Emmenbrücke" and pos.since == T("14:19")
    play.state.close()


def test_train_named_by_its_departure_where_the_group_got_on(day, tmp_path):
    """Players name the train they boarded by its time at their station ("S1 12:36" at Zug), not at its
    first stop (Baar 12:31): without --at, the group's own stations are where the name is matched."""
    tt = day.timetable
    play = _play(day, tmp_path)
    set_position(play, G, PlaceRequest("Zug", T("12:20")), T("12:20"))
    ans = roll(play, RollRequest(G, 3, T("12:30"))).to_json()
    first = ans["legs"][0]
    assert first["from"] == "Zug" and first["route"] == "S1"
    st = set_position(play, G, PlaceRequest(None, None, f"S1 {first['departure']}"), T("12:50"))
    pos = st.state.position
    assert pos.seated and tt.trip_id[pos.trip] == first["trip_id"]
    # the echo names the stop the group's day has it at or approaching
    assert st.train.endswith(f"next stop {tt.station_name[pos.station]} {fmt_clock(pos.since)}")
    # its time at its first stop still names it (as the echo does)
    start = tt.trip_stop_times(pos.trip).start
    named = f"S1 {fmt_clock(int(tt.st_dep[start]))}"
    assert named != f"S1 {first['departure']}"
    again = set_position(play, G, PlaceRequest(None, None, named), T("12:52")).state.position
    assert tt.trip_id[again.trip] == first["trip_id"]


def test_next_and_group_origin_read_the_group_once(day, tmp_path):
    from planner.service import group_origin

    play = _play(day, tmp_path)
    store = _count_snapshots(play)
    st = set_position(play, G, PlaceRequest("Zug"), T("12:40"))
    assert store.snapshots == 1  # the answer is the day as written, not a second read
    assert st == status(play, G, T("12:40"))  # ... and the same as one
    a = roll(play, RollRequest(G, 2, T("12:40"))).to_json()
    store.snapshots = 0
    nxt = plain(next_json(day, next_step(play, G, T("12:45"))))
    assert nxt["obligation"]["kind"] == "heading" and nxt["itinerary"]["arrival"] == a["arrival"]
    assert store.snapshots == 1
    store.snapshots = 0
    origin, heading_to = group_origin(play, G, T("12:45"))
    assert day.timetable.station_name[heading_to] == a["target"] and origin.time >= T("12:40")
    assert store.snapshots == 1
