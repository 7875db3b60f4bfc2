"""What the planner knows of a group's whereabouts, and whether a claim contradicts it (pure).

A sighting is a station and a time the planner was told of (a roll's position, a purchase or fee at a
station). A new claim "we are at S at T" contradicts the sightings when, by timetable, the group could
not get from the last sighting before T to S by T, or from S at T to the next sighting after T.
Everything else is the group's own statement and is recorded as such.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from planner.ledger.model import STATION, Event
from planner.util.i18n import _
from planner.util.timefmt import fmt_clock

SLACK = 60  # a minute: players write times to the minute

Earliest = Callable[[str, int, str], int | None]  # (from station, time, to station) -> earliest arrival


@dataclass(frozen=True)
class Sighting:
    """The group was at ``station`` at ``time`` (``source`` says who told)."""

    time: int
    station: str
    source: str


def ledger_sightings(events: Iterable[Event], group: str, around: int | None = None) -> list[Sighting]:
    """Sightings from the ledger: the group's purchases and fees at stations. ``around`` a time: only those
    :func:`contradiction` reads of them for a claim then (the last at or before it, the first after it; of
    equal times, the one it would pick), so a long day's log is not turned into sightings for every claim."""
    mine = [e for e in events if e.group == group and e.target == STATION and e.kind in ("buy", "fee")]
    if around is not None:
        before = after = None
        for e in mine:
            if e.time <= around:
                if before is None or e.time >= before.time:
                    before = e
            elif after is None or e.time < after.time:
                after = e
        mine = [e for e in (before, after) if e is not None]
    return [Sighting(e.time, e.name, (_("its purchase at {station}") if e.kind == "buy" else
                                      _("its fee at {station}")).format(station=e.name)) for e in mine]


def contradiction(sightings: Iterable[Sighting], station: str, time: int, earliest: Earliest) -> str | None:
    """Why being at ``station`` at ``time`` is impossible given ``sightings`` (None: possible or unknown)."""
    seen = sorted(sightings, key=lambda s: s.time)
    before = [s for s in seen if s.time <= time]
    after = [s for s in seen if s.time > time]
    if before and before[-1].station != station:
        s = before[-1]
        arr = earliest(s.station, s.time, station)
        if arr is None or arr > time + SLACK:
            seen = {"station": s.station, "time": fmt_clock(s.time), "source": s.source, "claimed": fmt_clock(time)}
            if arr is None:
                return _("the group was at {station} at {time} ({source}): it cannot reach {there} on the game "
                         "day").format(**seen, there=station)
            return _("the group was at {station} at {time} ({source}): it can be there at {earliest} at the "
                     "earliest, not at {claimed}").format(**seen, earliest=fmt_clock(arr))
    if after and after[0].station != station:
        s = after[0]
        arr = earliest(station, time, s.station)
        if arr is None or arr > s.time + SLACK:
            return _("the group was at {station} at {time} ({source}), which it cannot reach from {there} at "
                     "{claimed}").format(station=s.station, time=fmt_clock(s.time), source=s.source, there=station,
                                         claimed=fmt_clock(time))
    return None
