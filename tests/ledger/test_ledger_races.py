"""The ledger's position check against a group's day that changes meanwhile (planner/store/ledger.py): another
phone's roll, position or undo that comes in while the check runs makes the event checked again on the new day.

Each test's ``check`` is the real one (``check_at_station`` on a Zug day) and, the first time it runs, changes
the group's day through a second connection to the same file, as another phone or process would. The day is a
timetable written here: Zug-Luzern takes 30 minutes (IR70), Baar-Zug 4 (S1), and a 2 rolled at Baar at 12:40 heads
for Wohlen AG (S1 to Rotkreuz, S2)."""

from __future__ import annotations

import pytest

from planner.errors import InputError
from planner.service import PlaceRequest, Play, RollRequest, implicit_record, roll, set_position, undo
from planner.service.change.ledger_events import LedgerRequest, event_of, rules_of
from planner.service.read.whereabouts import check_at_station
from planner.store.state import State
from planner.util.timefmt import parse_clock as T
from tests.support.inline_day import inline_day, stop_times_txt, stops_txt


@pytest.fixture
def zug_day(tmp_path):
    return inline_day(
        tmp_path / "day", stops=stops_txt("Zug", "Baar", "Luzern", "Rotkreuz", "Wohlen AG"),
        trips="""
        route_id,service_id,trip_id
        IR70,SA,ir
        S1,SA,s1
        S1,SA,s1b
        S2,SA,s2
        """,
        stop_times=stop_times_txt(
            ("ir", [("Zug", "10:00", "10:00"), ("Luzern", "10:30", "10:30")]),
            ("s1", [("Zug", "09:10", "09:10"), ("Baar", "09:14", "09:14")]),
            ("s1b", [("Baar", "12:45", "12:45"), ("Zug", "12:49", "12:50"), ("Rotkreuz", "13:05", "13:05")]),
            ("s2", [("Rotkreuz", "13:10", "13:10"), ("Wohlen AG", "13:40", "13:40")])))


@pytest.fixture
def two_phones(tmp_path, zug_day):
    """Two plays of one implicit Zug game on one state file, each on its own connection."""
    path = tmp_path / "s.sqlite"
    with State(path) as a, State(path) as b:
        spec = zug_day.game.name
        yield Play(zug_day, implicit_record(a, zug_day, spec), a), Play(zug_day, implicit_record(b, zug_day, spec), b)


def _buy(play: Play, station: str, time: str):
    return event_of(play, LedgerRequest("Rot", "buy", T(time), station=station))


def _record(play: Play, event, meanwhile) -> list[int]:
    """Record ``event`` with the real station check, running ``meanwhile()`` right after the first check; the
    number of rolls each check saw of the group's day."""
    seen: list[int] = []

    def check(state, events) -> None:
        seen.append(len(play.state.groups.snapshot(play.id, play.refresh().group("Rot")).rolls))
        check_at_station(play, "Rot", event, events)
        if len(seen) == 1 and meanwhile is not None:
            meanwhile()

    play.state.ledger.record(rules_of(play), play.refresh().game, play.refresh().group("Rot"), event, check=check)
    return seen


def _bought(play: Play) -> list[str]:
    return [r.event.name for r in play.state.ledger.events(rules_of(play), play.id) if r.event.kind == "buy"]


def test_a_roll_that_comes_in_during_the_check_refuses_the_purchase_it_contradicts(two_phones):
    a, b = two_phones
    set_position(a, "Rot", PlaceRequest("Zug"), T("09:00"))
    event = _buy(a, "Luzern", "12:45")  # possible from Zug at 09:00; not 5 minutes after a roll at Baar at 12:40

    def other_phone_rolls() -> None:
        roll(b.refresh(), RollRequest("Rot", 2, T("12:40"), PlaceRequest("Baar")))

    with pytest.raises(InputError, match=r"was at Baar at 12:40 \(roll #1\)"):
        _record(a, event, other_phone_rolls)
    assert _bought(a) == [] and _bought(b) == []


def test_an_undo_during_the_check_makes_it_check_again_on_the_day_without_the_roll(two_phones):
    a, b = two_phones
    roll(a, RollRequest("Rot", 2, T("12:40"), PlaceRequest("Baar")))
    seen = _record(a, _buy(a.refresh(), "Baar", "12:41"), lambda: undo(b.refresh(), "Rot"))
    assert seen == [1, 0]  # checked on the day with the roll, then again on the day the undo left
    assert _bought(a) == ["Baar"]


def test_nothing_changed_during_the_check_means_one_check(two_phones):
    a, _b = two_phones
    set_position(a, "Rot", PlaceRequest("Zug"), T("09:00"))
    assert _record(a, _buy(a.refresh(), "Luzern", "12:45"), None) == [0]
    assert _bought(a) == ["Luzern"]


def test_a_retry_whose_first_try_lands_during_its_check_gets_the_first_record(two_phones):
    # the phone's first try is still being recorded by the server when it retries with the same event id; the
    # retry's check then sees the first try (a jail paid already, say) and refuses: the retry must instead get the
    # first record back, as any retry of a recorded event id does
    a, b = two_phones
    set_position(a, "Rot", PlaceRequest("Zug"), T("09:00"))
    event = _buy(a.refresh(), "Baar", "09:20")
    rules = rules_of(a)
    first = []

    def check(state, events) -> None:
        if not first:  # the first try lands now, through the other server process
            first.extend(b.state.ledger.record(rules, b.refresh().game, b.refresh().group("Rot"), event,
                                               event_id="tap-1"))
            raise InputError("Baar is bought already")  # what a check that sees the first try says

    rows = a.state.ledger.record(rules, a.refresh().game, a.refresh().group("Rot"), event, check=check,
                                 event_id="tap-1")
    assert rows[-1].seq == first[-1].seq and rows[-1].event == event and _bought(a) == ["Baar"]
