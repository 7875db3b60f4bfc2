"""A game of three groups (Rot, Blau, Gelb) on a day written here, for the money rules that need a group's day
(tests/ledger/test_ledger_day_rules.py; the fees owed, a toll line's found on Zug's piece of the SBB line data
(tests/support/inline_day.py ZUG_LINES): tests/ledger/test_ledger_day_fees_owed.py), and the shorthands those tests
record events with.

The day: the IR75 09:58 from Baar (Zug 10:02, Rotkreuz 10:10, Luzern 10:25: over the toll line Luzern–Rotkreuz),
the S1 09:31 from Baar (Zug 09:36), and an IC stopping at Zug (11:22), which makes Zug a station of IC price
(4000: a fee of 1000).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from planner.service import PlaceRequest, Play, set_position
from planner.service.change.ledger_events import LedgerRequest, record_event
from planner.service.questions.ledger_now import ledger_now
from planner.service.setup.new_game import create_game
from planner.store.state import State
from planner.util.timefmt import parse_clock as T
from tests.support import DEMO_DATE
from tests.support.inline_day import ROUTES, inline_day, stop_times_txt, stops_txt

TRIPS = """
route_id,service_id,trip_id
IR75,SA,ir75
S1,SA,s1
IC1,SA,ic1
"""
STOP_TIMES = stop_times_txt(
    ("ir75", [("Baar", "09:58", "09:58"), ("Zug", "10:02", "10:02"), ("Rotkreuz", "10:10", "10:10"),
              ("Luzern", "10:25", "10:25")]),
    ("s1", [("Baar", "09:31", "09:31"), ("Zug", "09:36", "09:36")]),
    ("ic1", [("Zürich HB", "11:00", "11:00"), ("Zug", "11:22", "11:24"), ("Luzern", "11:45", "11:45")]))


@contextmanager
def three_groups(folder: Path) -> Iterator[Play]:
    """The game "Samstag" of Rot, Blau and Gelb on the day above (written into ``folder``), in a state in memory."""
    day = inline_day(folder, stops=stops_txt("Baar", "Zug", "Rotkreuz", "Luzern", "Zürich HB"), trips=TRIPS,
                     stop_times=STOP_TIMES, routes=ROUTES + "IR75,sbb,IR75,,InterRegio,103\n")
    with State(":memory:") as state:
        links = create_game(state, "Samstag", "Rot,Blau,Gelb", feed=day.feed, game="sbb-monopoly",
                            date=DEMO_DATE.isoformat(), base="http://127.0.0.1:8000")
        yield Play(day, state.games.get(links.game), state)


def rec(play: Play, group: str, kind: str, time: str, now: str | None = None, **kw):
    """Record a ledger event of ``kind`` at ``time`` (``now``: when it is recorded); its answer."""
    return record_event(play, LedgerRequest(group, kind, T(time), now=T(now) if now else None, **kw)).answer()


def at(play: Play, group: str, where: str, time: str, trip: str | None = None):
    """The group's position: at ``where`` since ``time`` (in the train ``trip``)."""
    return set_position(play, group, PlaceRequest(where, T(time), trip), T(time))


def fees(play: Play, group: str, time: str) -> list[tuple]:
    """The fees the group owes at ``time``: (name, time of the stop, owner, amount)."""
    return [(f.name, f.time, f.owner, f.amount) for f in ledger_now(play, group, T(time)).fees_due]
