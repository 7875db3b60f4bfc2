"""Dice targets (variant A §4.4-4.6, variant B §4.3-4.4), driven by the game file (pure).

A roll names a set of candidate targets; targets already targeted are skipped (when the game says so);
the group must head for the candidate reached earliest by timetable (ties: fewer changes, later departure,
name). Free numbers (6; variant B: white 6) or a number whose candidates were all targeted give free
movement for ``free_minutes``. Variant B's toll-line and tunnel targets count as reached when travelled through.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from planner.errors import InputError, PlannerError
from planner.game.bonus import bonus_reachable, bonus_time_between, leg_bonus_events
from planner.gamefile.game import Game
from planner.gamefile.rules import DiceTarget
from planner.rail.trips import passing_time
from planner.routing.journey import Journey
from planner.routing.network import TransitNetwork
from planner.routing.query import (
    Origin,
    Query,
    ReachResult,
    best_journey,
    equally_fast,
    journey_riding,
    journeys_within,
    reach,
    reach_targets,
)
from planner.timetable.stations import exact_station
from planner.util.i18n import _, format_amount, format_long_date
from planner.util.text import fold
from planner.util.timefmt import fmt_clock


def validate_roll(game: Game, roll: int) -> int:
    """Check a roll against the game's dice (the rule: :meth:`DiceRules.validate`)."""
    return game.dice.validate(roll)


@dataclass
class DiceAnswer:
    """The answer to "we rolled N: where must we go, and how?"."""

    roll: int
    kind: str  # "target" | "free"
    target: str | None = None
    journey: Journey | None = None
    arrival: int | None = None
    free_until: int | None = None
    candidates: list[dict] = field(default_factory=list)
    admissible: list[Journey] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    reroll_at: int | None = None
    why: str | None = None  # why this itinerary and not the plain fastest one (bonus tie-break)
    jail: object | None = None  # on real-time data: the jails on the way (planner.service.read.jail_plans.JailPlan)
    # a toll-line or tunnel target: when each way (by its signature) has passed it (before its last stop)
    passed: dict[tuple, int] = field(default_factory=dict)

    def reached(self, journey: Journey, tt) -> int:
        """When ``journey`` reaches the target: where it passes a toll line or tunnel, else its arrival."""
        return self.passed.get(journey.signature(), journey.arrival(tt))


CrossingFinder = Callable[[str], list[tuple[int, int, int, float]]]
"""Given a toll-line/tunnel name: (trip, first_row, last_row, end_share) of every trip stretch that travels through
it (:func:`planner.rail.trips.crossing_trips`)."""


def decide(net: TransitNetwork, game: Game, origin: Origin, roll: int, targeted: set[str] | list[str],
           crossing_trips: CrossingFinder | None = None, *, real: TransitNetwork | None = None,
           asked: int | None = None, free_from: int | None = None) -> DiceAnswer:
    """Apply the dice rules at ``origin`` for ``roll`` given the names already ``targeted``. ``real``: the
    network on predicted times (docs/rules.md §3): the target is still chosen on ``net`` (by timetable, §4.4),
    the itinerary to it is planned on ``real``. ``asked``: when the roll was made (default the origin's time,
    which is later for a group just off a train: it boards after its change time); free time runs from it, or
    from ``free_from`` (a roll five minutes before a target: from reaching it, docs/rules.md §2 variant B)."""
    rolled = origin.time if asked is None else asked  # free time runs from the roll (§4.6)
    if real is not None:
        return _on_real_times(net, real, game, origin, roll, targeted, crossing_trips, rolled, free_from)
    free_start = rolled if free_from is None else max(rolled, free_from)
    tt = net.tt
    validate_roll(game, roll)
    targeted_f = {fold(t) for t in targeted}
    free = DiceAnswer(roll, "free", free_until=game.dice.free_until(free_start, game.clock))
    if roll in game.dice.free_numbers:  # 6 (variant A), white 6 = 61..66 (variant B): game data
        return free
    entry = game.dice.target_for(roll)
    if entry is None:
        raise InputError(_("roll {roll}: the game file has no target for this number").format(roll=roll))
    if entry.toll_line or entry.tunnel:
        return _crossing_target(net, game, origin, roll, entry, targeted_f, crossing_trips, rolled, free_start)
    stations = [exact_station(tt, name) for name in entry.stations]
    # only the candidates' arrivals are needed: the scan stops once they are final
    res = reach_targets(net, origin, [s for s in stations if s is not None])  # the scan for each candidate
    cands, warnings, missing = [], [], []
    for name, s in zip(entry.stations, stations, strict=True):
        was = fold(name) in targeted_f
        arr = res[s].station_arrival(s) if s is not None else None
        if s is None:
            missing.append(name)
        cands.append({"name": name, "arrival": fmt_clock(arr), "targeted": was, "available": s is not None,
                      "_s": s, "_a": arr})
    if missing:  # one warning for all of them (an extract lacks several targets of every number)
        warnings.append(_("not served in the game area on {date} (skipped): {targets}").format(
            date=format_long_date(tt.date), targets=", ".join(missing)))
    open_ = [c for c in cands if not game.dice.skips(c["targeted"])]
    if not open_:
        free.candidates = _public(cands)
        free.warnings = [_("all targets of {roll} were targeted already: counts as a free roll").format(roll=roll)]
        return free
    available = [c for c in open_ if c["available"]]
    if not available:
        # Only happens with a feed that lacks the targets (an extract): treat it like a 6, say why.
        free.candidates = _public(cands)
        free.warnings = [*warnings, _("no remaining target of {roll} is in this feed's game area: counts as a free "
                                      "roll").format(roll=roll)]
        return free
    reachable = [c for c in available if c["_a"] is not None]
    if not reachable:  # docs/rules.md §3 "Unreachable target": said plainly, and it counts as a 6
        free.candidates = _public(cands)
        free.warnings = [*warnings, _("no remaining target of {roll} can be reached on the game day from here: "
                                      "counts as a free roll").format(roll=roll)]
        return free
    first = min(c["_a"] for c in reachable)
    tied = [c for c in reachable if c["_a"] == first]
    scored = []
    for c in tied:
        j = best_journey(net, origin, c["_s"], reached=res[c["_s"]])
        scored.append(((j.changes, -j.departure(tt), fold(c["name"])), c, j))
    scored.sort(key=lambda x: x[0])
    chosen, fastest = scored[0][1:]
    journey = prefer_bonus(net, game, origin, chosen["_s"], fastest)
    ans = DiceAnswer(roll, "target", target=chosen["name"], journey=journey, arrival=first,
                     candidates=_public(sorted(cands, key=lambda c: (c["_a"] is None, c["_a"] or 0, c["name"]))),
                     warnings=warnings)
    if journey.signature() != fastest.signature():
        ans.why = _("as fast as the plain fastest way (dep {departure}), and it earns the full-hour bonus ({fee} "
                    "instead of {base_fee}); 'planner route' shows the plain one").format(
            departure=fmt_clock(fastest.departure(tt)), fee=format_amount(game.bonus.bonus_fee),
            base_fee=format_amount(game.bonus.base_fee))
    if game.dice.admissible_extra_minutes:
        ans.admissible = journeys_within(net, origin, chosen["_s"], game.dice.admissible_extra_minutes,
                                         fastest=journey)
    if journey.legs:
        ans.reroll_at = game.dice.reroll_at(first, game.clock, rolled)
    return ans


def _on_real_times(net: TransitNetwork, real: TransitNetwork, game: Game, origin: Origin, roll: int,
                   targeted, crossing_trips, asked: int, free_from: int | None) -> DiceAnswer:
    """:func:`decide` by timetable for the choice, then the way to the chosen target on predicted times."""
    ans = decide(net, game, origin, roll, targeted, crossing_trips, asked=asked, free_from=free_from)
    if ans.kind != "target" or ans.journey is None or not ans.journey.legs:
        return ans
    entry = game.dice.target_for(roll)
    if entry is not None and (entry.toll_line or entry.tunnel):
        # one target, the line itself (no choice to make): the earliest way through it on the real times
        return _crossing_target(real, game, origin, roll, entry, {fold(t) for t in targeted}, crossing_trips, asked,
                                max(asked, free_from or asked))
    target = ans.journey.target_station
    fastest = best_journey(real, origin, target)
    if fastest is None:
        ans.warnings.append(_("{target} cannot be reached on the real times (a train is cancelled or late): the way "
                              "shown is the timetable's").format(target=ans.target))
        return ans
    journey = prefer_bonus(real, game, origin, target, fastest)
    ans.journey, ans.why = journey, None
    ans.arrival = journey.arrival(real.plan)
    if game.dice.admissible_extra_minutes:
        ans.admissible = journeys_within(real, origin, target, game.dice.admissible_extra_minutes, fastest=journey)
    ans.reroll_at = game.dice.reroll_at(journey.arrival(real.tt), game.clock, asked)  # (the real arrival: when near)
    return ans


def prefer_bonus(net: TransitNetwork, game: Game, origin: Origin, target: int, journey: Journey) -> Journey:
    """Among itineraries arriving as early as ``journey``, prefer one that earns the full-hour bonus
    (then fewer changes, later departure); keep ``journey`` when none does."""
    if not journey.legs or origin.in_trip or not game.bonus.pays_more:
        return journey

    def earns(j: Journey) -> bool:
        real = None if net.on_plan else net.tt
        return any(leg_bonus_events(net.plan, game, leg, real) for leg in j.legs if not leg.is_walk)

    if earns(journey):
        return journey
    if not bonus_time_between(game, origin.time, journey.arrival(net.tt)):
        return journey  # no full-hour minute on the way: no equally fast journey can earn it either
    arrival = journey.arrival(net.tt)
    later_needed = None
    if net.on_plan:  # (on predicted times a train may earn it by its real time: every start is scanned)
        def later_needed(first: ReachResult) -> bool:
            return bonus_reachable(net, game, first, target, arrival)
    same = [j for j in equally_fast(net, origin, target, arrival, later_needed=later_needed) if earns(j)]
    if not same:
        return journey
    same.sort(key=lambda j: (j.changes, -j.departure(net.tt)))
    return same[0]


def _crossing_target(net, game, origin, roll, entry: DiceTarget, targeted_f, crossing_trips,
                     rolled: int, free_start: int) -> DiceAnswer:
    """Variant B's toll-line and tunnel targets: reached when travelled through (docs/rules.md §3 "Fastest"), at the
    time the train has passed it on the physical line (docs/rules.md §2: interpolated by track km between the stops
    around it); the itinerary rides on to the next stop, where the group may get off."""
    name = entry.toll_line or entry.tunnel
    assert name is not None

    def unreachable(why: str) -> DiceAnswer:  # docs/rules.md §3 "Unreachable target": said plainly, counts as a 6
        # (``why`` says so, whole: a sentence is never assembled from pieces)
        return DiceAnswer(roll, "free", free_until=game.dice.free_until(free_start, game.clock),
                          candidates=[{"name": name, "arrival": None, "targeted": fold(name) in targeted_f,
                                       "available": False}],
                          warnings=[why])

    try:
        stretches = crossing_trips(name) if crossing_trips is not None else None
    except PlannerError:
        stretches = None
    if stretches is None:
        return unreachable(_("cannot decide crossings of {name}: physical line data unavailable: counts as a free "
                             "roll").format(name=name))
    if not stretches:
        return unreachable(_("no train of the game day travels through {name}: counts as a free roll").format(
            name=name))
    res = reach(net, Query(origin))
    options = []
    for trip, first_row, last_row, share in stretches:
        j = journey_riding(res, trip, last_row, board_by=first_row)  # on board before the stretch begins
        if j is None:
            continue
        passed = max(passing_time(net.tt, last_row, share), res.start_time)
        options.append((passed, j.changes, -j.departure(net.tt), j))
    if not options:
        return unreachable(_("{name} cannot be travelled through on the game day from here: counts as a free "
                             "roll").format(name=name))
    options.sort(key=lambda o: o[:3])
    best = options[0]
    ans = DiceAnswer(roll, "target", target=name, journey=best[3], arrival=best[0])
    ans.candidates = [{"name": name, "arrival": fmt_clock(best[0]), "targeted": fold(name) in targeted_f,
                       "available": True}]
    ans.passed = {best[3].signature(): best[0]}
    if game.dice.admissible_extra_minutes:
        limit = best[0] + game.dice.admissible_extra_minutes * 60
        seen = set()
        for a, _c, _d, j in options:
            if a <= limit and j.signature() not in seen:
                seen.add(j.signature())
                ans.passed.setdefault(j.signature(), a)
                ans.admissible.append(j)
    ans.reroll_at = game.dice.reroll_at(best[0], game.clock, rolled)
    return ans


def _public(cands: list[dict]) -> list[dict]:
    return [{k: v for k, v in c.items() if not k.startswith("_")} for c in cands]
