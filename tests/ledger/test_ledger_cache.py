"""The ledger's kept replay (planner/store/ledger.py) answers exactly what a fresh replay of the log answers, and
a state's clone is as independent as a deep copy (planner/ledger/model.py). The game day of the last two tests is a
timetable written here: S1 Zug 10:10 - Baar 10:14, and S1 Zug 12:45 - Rotkreuz - Emmenbrücke (a 3's target)."""

from __future__ import annotations

import copy
import dataclasses

from planner.gamefile.game import load_game
from planner.ledger.apply import apply
from planner.ledger.corrections import Entry, replay_outcomes
from planner.ledger.model import Event, LedgerState
from planner.ledger.money_rules import ledger_rules
from planner.store.games import GameGroup, GameRecord
from planner.store.records import group_key
from planner.store.state import State
from planner.util.timefmt import parse_clock as T
from tests.support.inline_day import inline_day, stop_times_txt, stops_txt

GAME = GameRecord("g@2021-09-11", "g", None, "sbb-monopoly", "2021-09-11", True, ())


def _buy(group: str, name: str, time: str, price: int = 2000) -> Event:
    return Event("buy", group, T(time), target="station", name=name, price=price, letter=name[0])


def _record(state: State, rules, event: Event) -> None:
    state.ledger.record(rules, GAME, GameGroup(group_key(event.group), 0, event.group), event)


def _day(tmp_path, game):
    return inline_day(
        tmp_path / "day", stops=stops_txt("Zug", "Baar", "Rotkreuz", "Emmenbrücke"), game=game,
        trips="route_id,service_id,trip_id\nS1,SA,s1\nS1,SA,s2\n",
        stop_times=stop_times_txt(
            ("s1", [("Zug", "10:10", "10:10"), ("Baar", "10:14", "10:14")]),
            ("s2", [("Zug", "12:45", "12:45"), ("Rotkreuz", "13:00", "13:00"), ("Emmenbrücke", "13:15", "13:15")])))


def _fresh(state: State, rules) -> LedgerState:
    """The state replayed from the rows, without the kept replay."""
    rows = state.ledger.events(rules, GAME.id)
    return replay_outcomes(rules, [Entry(r.seq, r.event) for r in rows])[0]


def test_kept_replay_equals_a_fresh_replay_after_every_write_and_void(tmp_path):
    rules = ledger_rules(load_game("sbb-monopoly"))
    path = tmp_path / "s.sqlite"
    with State(path) as a, State(path) as b:  # two connections: b writes behind a's back
        _record(a, rules, _buy("Rot", "Zug", "09:10"))
        assert a.ledger.state(rules, GAME.id).holding("station", "Zug").owner == "Rot"
        _record(b, rules, _buy("Blau", "Baar", "09:20"))
        _record(b, rules, Event("fee", "Blau", T("09:30"), target="station", name="Zug"))
        st = a.ledger.state(rules, GAME.id)  # a's kept replay is stale: it must see b's events
        assert st.holding("station", "Baar").owner == "Blau" and st.cash["Rot"] > st.cash["Blau"]
        _fresh_a = State(path)
        assert dataclasses.asdict(st) == dataclasses.asdict(_fresh(_fresh_a, rules))
        _fresh_a.close()
        seq = [r.seq for r in a.ledger.events(rules, GAME.id) if r.event.kind == "buy"][-1]
        a.ledger.void(rules, GAME.id, seq, "typo", T("10:00"), lambda ev, ch: "void")
        after = b.ledger.state(rules, GAME.id)
        assert after.holding("station", "Baar") is None  # the void reached b's kept replay too
        assert [r.amount for r in a.ledger.events(rules, GAME.id)] == [r.amount for r in b.ledger.events(rules,
                                                                                                         GAME.id)]


def test_a_read_state_is_a_copy(tmp_path):
    rules = ledger_rules(load_game("sbb-monopoly"))
    with State(tmp_path / "s.sqlite") as s:
        _record(s, rules, _buy("Rot", "Zug", "09:10"))
        got = s.ledger.state(rules, GAME.id)
        got.cash["Rot"] = -1
        got.holding("station", "Zug").owner = "nobody"
        again = s.ledger.state(rules, GAME.id)
        assert again.cash["Rot"] != -1 and again.holding("station", "Zug").owner == "Rot"


def test_clone_is_a_deep_copy():
    rules = ledger_rules(load_game("sbb-monopoly"))
    st = replay_outcomes(rules, [Entry(1, Event("join", "Rot", rules.start)), Entry(2, _buy("Rot", "Zug", "09:10")),
                                 Entry(3, Event("join", "Blau", rules.start))])[0]
    st.visits["Rot"] = ["Baar"]
    st.free_station["Rot"] = 1
    st.incomes.add(("Rot", T("10:00")))
    names = {f.name for f in dataclasses.fields(LedgerState)}
    c = st.clone()
    assert dataclasses.asdict(c) == dataclasses.asdict(copy.deepcopy(st))
    for name in names:  # every mutable part is a new object
        v = getattr(st, name)
        if isinstance(v, dict | set | list):
            assert getattr(c, name) is not v, name
    assert all(c.holdings[k] is not h for k, h in st.holdings.items())
    assert all(c.visits[k] is not v for k, v in st.visits.items())


def test_every_state_an_event_leaves_keeps_its_own_holdings():
    # apply forks the state (holdings shared until one changes): a later mortgage or redeem must not reach back
    # into the state an earlier event left (the kept replay keeps each recorded event's outcome)
    rules = ledger_rules(load_game("sbb-monopoly"))
    events = [Event("join", "Rot", rules.start), _buy("Rot", "Zug", "09:10"),
              Event("mortgage", "Rot", T("09:40"), target="station", name="Zug"),
              Event("redeem", "Rot", T("10:40"), target="station", name="Zug")]
    states, state, seen = [], LedgerState(), []

    def look(st: LedgerState) -> tuple:
        h = st.holding("station", "Zug")
        return None if h is None else (h.owner, h.mortgaged), st.cash["Rot"]

    for ev in events:
        if ev.kind in ("mortgage", "redeem"):  # a fee its cash did not cover; then an income
            state = state.fork()
            state.cash["Rot"] = -1 if ev.kind == "mortgage" else 5000
        state = apply(rules, state, ev).state
        states.append(state)
        seen.append(look(state))  # as the event left it
    assert [s[0] for s in seen] == [None, ("Rot", False), ("Rot", True), ("Rot", False)]
    assert [look(s) for s in states] == seen  # nothing that came after changed it


def test_kept_group_snapshot_and_model_follow_every_change(tmp_path, sbb_game):
    from planner.service import GameDay, PlaceRequest, Play, implicit_record, set_position, status, undo
    from planner.service.read.recorded_day import group_day

    day = _day(tmp_path, sbb_game)
    assert isinstance(day, GameDay)
    path = tmp_path / "s.sqlite"
    with State(path) as a, State(path) as b:
        pa = Play(day, implicit_record(a, day, sbb_game.name), a)
        set_position(pa, "Rot", PlaceRequest("Zug"), T("10:00"))
        pa = pa.refresh()
        g = pa.group("Rot")
        s1 = a.groups.snapshot(pa.id, g)
        assert a.groups.snapshot(pa.id, g) is s1 and group_day(day, s1) is group_day(day, s1)  # unchanged: kept
        pb = Play(day, implicit_record(b, day, sbb_game.name), b)
        set_position(pb, "Rot", PlaceRequest("Baar"), T("10:30"))  # another connection changes the group
        s2 = a.groups.snapshot(pa.id, g)
        assert s2 is not s1 and len(s2.positions) == 2
        assert status(pa, "Rot", T("10:31")).state.position.station == day.station("Baar")
        undo(pb, "Rot")
        assert status(pa, "Rot", T("10:31")).state.position.station == day.station("Zug")


def test_a_snapshot_kept_after_own_writes_equals_a_fresh_read(tmp_path, sbb_game):
    # a connection's own roll or report extends its kept snapshot without reading it back: it must be what
    # another connection reads from the file, row for row, and the next read must be that kept object
    from planner.service import PlaceRequest, Play, RollRequest, implicit_record, roll, set_position

    zug_day = _day(tmp_path, sbb_game)
    path = tmp_path / "s.sqlite"
    with State(path) as a:
        play = Play(zug_day, implicit_record(a, zug_day, sbb_game.name), a)
        set_position(play, "Rot", PlaceRequest("Zug"), T("12:10"))
        play = play.refresh()
        g = play.group("Rot")
        a.groups.snapshot(play.id, g)  # kept from here on
        set_position(play, "Rot", PlaceRequest("Zug", since=T("12:10")), T("12:20"))
        roll(play, RollRequest("Rot", 3, T("12:35")))
        kept = a.groups.snapshot(play.id, g)
        assert a.groups.kept(play.id, g, kept.version) is kept
        with State(path) as b:
            fresh = b.groups.snapshot(play.id, g)
        assert kept == fresh and len(fresh.rolls) == 1 and [p.time for p in fresh.positions] == [
            T("12:10"), T("12:20")]
