"""Rule questions that need the loaded day: the dice decision, the targets a group had, the trains the change window
allows after getting off, and the check of a day's log (the rules themselves live in :mod:`planner.game`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import msgspec
import numpy as np

from planner.errors import InputError, PlannerError
from planner.game.dice import DiceAnswer, decide
from planner.game.zugzwang import check_legs, zugzwang
from planner.routing import Origin
from planner.service.answers.itinerary import Zugzwang
from planner.service.answers.questions import LogCheckAnswer, TrainsAnswer, Violation
from planner.service.answers.rolls import DiceAnswer as DiceJson
from planner.service.read.jail_plans import plan_jails
from planner.service.read.pricing import Pricing, cheapest_answer
from planner.service.read.rule_words import rule_label, window_text
from planner.service.read.views import dice_json, with_realtime
from planner.service.setup.playing import GameDay
from planner.util.i18n import _
from planner.util.text import fold
from planner.util.timefmt import fmt_clock

DICE_MEMO = 20_000  # remembered dice answers per network (a worker's 500 simulated days roll ~18,000 times)


def crossing_finder(day: GameDay):
    """Lazy (trip, first_row, last_row) lookup of stretches through a toll line/tunnel: the index is only
    built or read when a roll names a toll line or tunnel (variant B)."""

    def find(name: str):
        index = day.crossing_index
        if index is None:
            raise PlannerError(_("physical line data unavailable"))
        return index.get(name, [])

    return find


def decide_at(day: GameDay, origin: Origin, dice: int, targeted: list[str], asked: int | None = None,
              free_from: int | None = None) -> DiceAnswer:
    """The dice rules (:func:`planner.game.dice.decide`) for a group at ``origin`` on this day, toll lines
    and tunnels looked up lazily: what ``roll``, ``target``, the demo and the organiser maps all answer.

    On timetable data the answer is remembered on the day's network, by game (a network's timetable never
    changes; simulated groups roll where and when others rolled, a third of the time and more): each caller gets
    its own lists. On real-time data it is worked out each time (a jail plan reads the day's feed).
    ``free_from``: when a free number's time starts (default ``asked``; :func:`planner.game.dice.decide`).
    """
    game = day.game
    if day.realtime_source:
        return _decide_at(day, origin, dice, targeted, asked, free_from)
    # the game is kept with its answer, so its id names no other game meanwhile
    kept_game, ans = day.network.remembered(
        "_dice_answers", (id(game), origin, dice, tuple(targeted), asked, free_from),
        lambda: (game, _decide_at(day, origin, dice, targeted, asked, free_from)), DICE_MEMO)
    assert kept_game is game
    return dataclasses.replace(ans, candidates=[dict(c) for c in ans.candidates], admissible=list(ans.admissible),
                               warnings=list(ans.warnings))


def roll_answer(day: GameDay, origin: Origin, dice: int, targeted: list[str], pricing: Pricing | None, *,
                asked: int, rolled_at: int, free_from: int | None = None) -> tuple[DiceAnswer, DiceJson]:
    """A roll decided and answered in one place, for ``roll`` and ``target`` alike: the dice rules' target and way
    (:func:`decide_at`, asked at ``asked``), for a group the cheapest of the equally fast ways (§9.3,
    :func:`~planner.service.read.pricing.cheapest_answer`), and the answer with its fees (rolled at ``rolled_at``,
    planned from ``asked``)."""
    ans = cheapest_answer(day, pricing, origin, decide_at(day, origin, dice, targeted, asked=asked,
                                                          free_from=free_from))
    return ans, dice_json(day, ans, origin, pricing, rolled_at=rolled_at, plan_from=asked)


def _decide_at(day: GameDay, origin: Origin, dice: int, targeted: list[str], asked: int | None,
               free_from: int | None = None) -> DiceAnswer:
    real = day.network
    # the target is the one reached earliest by timetable (§4.4 "gemäss Fahrplan"), the way there on real times
    ans = decide(day.plan_network, day.game, origin, dice, targeted, crossing_finder(day),
                 real=None if real is day.plan_network else real, asked=asked, free_from=free_from)
    if ans.journey is not None and ans.journey.legs and day.realtime_source:
        plan = plan_jails(day, origin, ans.journey.target_station, ans.journey)  # §17: a late train's jail
        if plan.jails:
            ans.journey, ans.jail = plan.journey, plan
            if plan.journey is not None:
                ans.arrival = plan.journey.arrival(day.timetable)
    return ans


def resolve_targets(day: GameDay, text: str) -> list[str]:
    """Targets a group says it already had (``--visited "A;B"``): each a game target (station, toll line,
    tunnel) or any station name as users type it; an unknown name is an error with suggestions."""
    known = day.game.dice.names()
    out = []
    for raw in (n.strip() for n in text.split(";")):
        if not raw:
            continue
        if fold(raw) in known:
            out.append(known[fold(raw)])
            continue
        (s,) = day.stations([raw], what="--visited")
        out.append(day.timetable.station_name[s])
    return out


def trains_after_getting_off(day: GameDay, station: int, time: int, exclude_trip: int = -1,
                             now: int | None = None, seated: bool | None = None) -> TrainsAnswer:
    """The change-window rule at ``station`` for a group getting off at ``time`` from ``exclude_trip`` (that
    train excluded, its platform's change times applying): deadline and departures, catchable ones first.
    In a game without the rule ``applies`` is False and no deadline is invented: the departures are the next ones
    from ``now`` (the time asked, when later than getting off). ``seated`` (the phone): the group is still in the
    train that stops there."""
    if day.window is None and now is not None and now > time:
        time = int(now)
    stop = -1
    if exclude_trip >= 0:
        tt = day.timetable
        rows = [r for r in tt.trip_stop_times(exclude_trip) if int(tt.stop_station[tt.st_stop[r]]) == station]
        if rows:  # got off that train here: its platform's change times apply
            stop = int(tt.st_stop[min(rows, key=lambda r: abs(int(tt.st_arr[r]) - time))])
    found = zugzwang(day.network, station, time, day.window, exclude_trip, stop)
    found["rule"] = rule_label(day.game)
    out = msgspec.convert(found, TrainsAnswer)
    out.departures.sort(key=lambda d: not d.catchable)
    if exclude_trip < 0:
        # Without the train named, the one the group just left is the one that arrived here at ``time`` and
        # leaves again too soon to "change" into: listing it as a choice only confuses.
        came = _arrived_at(day, station, time)
        out.excluded = [d for d in out.departures if not d.catchable and d.trip_id in came]
        out.departures = [d for d in out.departures if d not in out.excluded]
    if seated is not None:
        out.seated = seated
    out.text = window_text(applies=out.applies, station=out.station, got_off=out.got_off, deadline=out.deadline,
                           forced=out.forced_next, rule=out.rule, seated=bool(seated))
    return with_realtime(day, out, time)


def _arrived_at(day: GameDay, station: int, time: int) -> set[str]:
    """Trip ids of the trains arriving at ``station`` in the minute up to ``time`` (not starting there)."""
    tt, net = day.timetable, day.network
    hit = np.flatnonzero((net.c_arr >= time - 60) & (net.c_arr <= time)
                         & (net.stop_station[net.c_to] == station) & net.c_drop)
    return {str(tt.trip_id[int(net.c_trip[c])]) for c in hit}


@dataclass(frozen=True)
class LogLeg:
    """One ride of a day's log as written: station names, times in seconds, platforms when known."""

    line: int
    origin: str
    to: str
    departure: int
    arrival: int
    from_platform: str | None = None
    to_platform: str | None = None


def check_log(day: GameDay, rows: list[LogLeg]) -> LogCheckAnswer:
    """Every violation of §4.1/§4.2 in a day's log (``planner zugzwang --check``): ``{legs, violations, ok,
    zugzwang}``."""
    legs = []
    for r in rows:
        try:
            a, b = day.station(r.origin), day.station(r.to)
        except PlannerError as exc:
            raise InputError(_("line {line}: {error}").format(line=r.line, error=exc)) from None
        if r.arrival < r.departure:
            raise InputError(_("line {line}: arrival {arrival} is before departure {departure}").format(
                line=r.line, arrival=fmt_clock(r.arrival), departure=fmt_clock(r.departure)))
        legs.append({"from_station": a, "to_station": b, "departure": r.departure, "arrival": r.arrival,
                     "line": r.line, "from_stop": _platform(day, a, r.from_platform),
                     "to_stop": _platform(day, b, r.to_platform)})
    window = day.window
    violations = check_legs(day.network, legs, window)
    return LogCheckAnswer(legs=len(legs), violations=[msgspec.convert(v, Violation) for v in violations],
                          ok=not violations, zugzwang=Zugzwang(applies=window is not None,
                                                               minutes=None if window is None else window.minutes))


def _platform(day: GameDay, station: int, code: str | None) -> int:
    """Stop index of platform ``code`` at ``station`` (-1: not given or not known there)."""
    if not code or not code.strip():
        return -1
    tt = day.timetable
    off, members = tt.station_stops
    for q in members[off[station]:off[station + 1]]:
        if tt.stop_platform[q] == code.strip():
            return int(q)
    return -1
