"""One simulated game day: N groups play by every rule of the game file, through the service layer.

The groups start anywhere at the start time and move by legal rides (:func:`planner.lab.moves.rides_from`) until
dice time; from then on they roll (:func:`planner.service.roll`) whenever their day says a roll is due, follow the
itinerary the roll gives (the group's day model moves them along it), ride freely during free time and roll at
its end, until the game ends. On the way they buy what their strategy wants and pay every fee they owe, and
collect the full-hour income, all as ledger events (:func:`planner.service.change.ledger_events.record_event`), so purchases,
fees and capital are the ledger's. Everything happens in time order over all groups, in one state of its own
(``State(":memory:")``); the day's random numbers come from ``(seed, day)`` only, so a day is reproducible
wherever it runs.
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass, field

from planner.errors import InputError
from planner.lab.moves import Along, Board, along, rides_from
from planner.lab.strategies import Offer, Ride, Strategy, assign
from planner.ledger.apply import AlreadyPaid, fee_due
from planner.ledger.model import STATION, TUNNEL
from planner.routing import Leg
from planner.service import (
    PlaceRequest,
    Play,
    RollRequest,
    implicit_record,
    report_position,
    roll,
    set_position,
    status,
)
from planner.service.answers.rolls import RollAnswer
from planner.service.change.group_day import status_and_model
from planner.service.change.ledger_events import LedgerRequest, end, record_event
from planner.service.setup.playing import GameDay
from planner.store.state import State
from planner.util.timefmt import fmt_clock

GROUP_NAMES = ("Rot", "Blau", "Gelb", "Grün", "Weiss", "Schwarz", "Orange", "Violett", "Braun", "Rosa", "Grau",
               "Silber")


@dataclass(frozen=True)
class DayConfig:
    """What every simulated day of a run shares: ``groups`` per day, their ``strategy`` (a name or ``mix``), the
    run's ``seed``, and whether the day keeps its ``trace`` (one line per roll and ledger event)."""

    groups: int
    strategy: str = "mix"
    seed: int = 0
    trace: bool = False


@dataclass
class DayResult:
    """What one day gave (plain data: it travels between processes): its rolls, the stops groups made at each
    station (per hour), final capital per group, whether money was conserved, the trace lines, and the errors
    the service layer raised (none in a correct run)."""

    index: int
    rolls: list[dict] = field(default_factory=list)
    stops: dict[str, list[int]] = field(default_factory=dict)  # station -> stops per hour of the day
    visitors: dict[str, list[str]] = field(default_factory=dict)  # station -> distinct groups that stopped
    groups: list[dict] = field(default_factory=list)
    conserved: bool = True
    events: int = 0
    trace: list[dict] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def group_name(i: int) -> str:
    """The name of simulated group ``i`` (``Rot``, ``Blau``, ... then ``G13``)."""
    return GROUP_NAMES[i] if i < len(GROUP_NAMES) else f"G{i + 1}"


def day_random(seed: int, index: int) -> random.Random:
    """The random numbers of day ``index`` of a run with ``seed`` (string seeding: the same in every process)."""
    return random.Random(f"sbb-planner-lab:{seed}:{index}")


@dataclass
class Sim:
    """One simulated group: its strategy, where it started, its plan generation (a roll that sets a new itinerary
    drops what the old one had scheduled) and the rides it took (its day's log)."""

    index: int
    name: str
    strategy: Strategy
    start: int = -1
    gen: int = 0
    moving: bool = False  # a ride of the current generation is scheduled or under way
    roll_at: int | None = None  # the roll already scheduled (dice time, the end of free time)
    out: bool = False
    log: list[Leg] = field(default_factory=list)


class SimDay:
    """The engine of one day (see module docstring); :meth:`run` plays it and returns its :class:`DayResult`."""

    def __init__(self, day: GameDay, board: Board, cfg: DayConfig, index: int):
        self.day, self.board, self.cfg = day, board, cfg
        self.rnd = day_random(cfg.seed, index)
        self.state = State(":memory:")
        self.play = Play(day, implicit_record(self.state, day, day.game.name), self.state)
        self.clock = day.game.clock
        self.rules = day.ledger_rules
        self.groups = [Sim(i, group_name(i), s) for i, s in enumerate(assign(cfg.strategy, cfg.groups))]
        self.result = DayResult(index)
        self._queue: list[tuple] = []
        self._seq = 0

    # ---- the event queue: (time, order, action, group, generation, payload) ------------------------------
    def at(self, t: int, action: str, g: Sim | None, payload=None) -> None:
        """Schedule ``action`` for ``g`` at ``t`` (in the current plan generation of ``g``)."""
        self._seq += 1
        heapq.heappush(self._queue, (int(t), self._seq, action, -1 if g is None else g.index,
                                     g.gen if g is not None else 0, payload))

    def run(self) -> DayResult:
        """Play the day to its end."""
        clock = self.clock
        for g in self.groups:
            self.at(clock.start, "start", g)
        hour = (clock.start // 3600 + 1) * 3600
        while hour < clock.end:
            self.at(hour, "income", None)
            hour += 3600
        while self._queue:
            t, _, action, gi, gen, payload = heapq.heappop(self._queue)
            if clock.over(t):
                break
            g = self.groups[gi] if gi >= 0 else None
            if g is not None and (g.out or gen != g.gen):
                continue  # a plan a later roll replaced, or a group out of the game
            try:
                getattr(self, "_" + action)(t, g, payload)
            except InputError as exc:
                self.result.errors.append(f"{fmt_clock(t)} {action} {g.name if g else ''}: {exc}")
        self._finish()
        self.state.close()
        return self.result

    # ---- actions ------------------------------------------------------------------------------------
    def _start(self, t: int, g: Sim, _payload) -> None:
        starts = self.board.starts
        g.start = starts[self.rnd.randrange(len(starts))]
        st = set_position(self.play, g.name, PlaceRequest(self.board.names[g.start]), t)
        self._decide(t, g, (g.start, -1, t), st.state)

    def _decide(self, t: int, g: Sim, where: tuple[int, int, int | None], st=None) -> None:
        """The group stands at a station (``where`` = station, the platform it got off at and when (None: now), or
        -1 and since when it has stood there): roll when a roll is due, else ride on (before dice time, during
        free time). ``st``: its state at ``t`` when the caller has it (what the position report just answered)."""
        station, stop, since = where
        st = st if st is not None else status(self.play, g.name, t).state
        ob = st.obligation
        if ob.kind == "ended":
            return
        if ob.kind == "roll":
            self._roll(t, g, None)
            return
        if ob.kind == "heading":  # pragma: no cover - a heading group is moved by its itinerary
            return
        if stop >= 0:  # got off there: the change time from its platform, the window from getting off (§4.2)
            rides = rides_from(self.day, station, t if since is None else since, stop=stop, now=t)
        else:
            rides = rides_from(self.day, station, t, since=since)
        roll_at = ob.until if ob.moves_freely else None
        if not rides:
            if roll_at is not None:
                self._roll_later(g, roll_at)
            return
        ride = g.strategy.choose_ride(rides, self.board.category, self.rnd)
        self._ride(g, ride)
        if roll_at is not None and ride.arrival > roll_at:
            self._roll_later(g, roll_at)

    def _roll_later(self, g: Sim, t: int) -> None:
        if g.roll_at != t and not self.clock.over(t):
            g.roll_at = t
            self.at(t, "roll", g)

    def _ride(self, g: Sim, ride: Ride) -> None:
        g.moving = True
        self.at(ride.departure, "board", g, ride)
        leg = Leg(ride.trip, ride.board, ride.alight)
        for a in along(self.day, (leg,), seated=False):
            self.at(a.time, "along", g, a)
        self.at(ride.arrival, "arrive", g, ride)

    def _board(self, t: int, g: Sim, ride: Ride) -> None:
        tt = self.day.timetable
        report_position(self.play, g.name, PlaceRequest(self.board.names[int(tt.stop_station[tt.st_stop[ride.board]])],
                                                        None, str(tt.trip_id[ride.trip])), t)
        self._log(g, t, (Leg(ride.trip, ride.board, ride.alight),))

    def _arrive(self, t: int, g: Sim, ride: Ride) -> None:
        g.moving = False
        st = set_position(self.play, g.name, PlaceRequest(self.board.names[ride.to_station]), t)
        self._decide(t, g, (ride.to_station, int(self.day.timetable.st_stop[ride.alight]), None), st.state)

    def _roll(self, t: int, g: Sim, _payload) -> None:
        before = status(self.play, g.name, t).state
        dice = self._dice()
        ans = roll(self.play, RollRequest(g.name, dice, t)).answer
        self._trace_roll(t, g, before, dice, ans)
        if ans.kind == "target":
            self._follow(t, g)
            return
        _, model = status_and_model(self.play, g.name, t)
        last = model.last_roll(t)
        free_until = last.free_until if last is not None else None
        if free_until is not None:
            self._roll_later(g, free_until)
        if not g.moving:  # rolled on arrival: ride on freely
            pos = before.position
            if pos is not None and not pos.seated:
                self._decide_free(t, g, pos.station, pos.since)

    def _decide_free(self, t: int, g: Sim, station: int, since: int) -> None:
        self._decide(t, g, (station, self._got_off_at(g, station, since), since))

    def _got_off_at(self, g: Sim, station: int, since: int) -> int:
        """The platform the group got off at when it stands at ``station`` since getting off its last train there
        at ``since`` (its change time still applies, docs/rules.md §3 "Legal itinerary"), else -1."""
        tt = self.day.network.tt  # the times it rode at (predicted on real-time data), as ``since`` is
        last = g.log[-1] if g.log else None
        if last is not None and not last.is_walk and last.to_station(tt) == station and last.arrival(tt) == since:
            return int(tt.st_stop[last.alight_row])
        return -1

    def _follow(self, t: int, g: Sim) -> None:
        """A target roll: the old plan is dropped, the itinerary's stops and crossings and the next roll are
        scheduled (the group's day model moves the group along it)."""
        g.gen += 1
        g.moving, g.roll_at = False, None
        st, model = status_and_model(self.play, g.name, t)
        last = model.last_roll(t)
        legs = last.legs if last is not None else ()
        seated = bool(last is not None and last.origin is not None and last.origin.seated)
        self._log(g, t, legs, seated=seated)
        for a in along(self.day, legs, seated=seated):
            self.at(a.time, "along", g, a)
        nxt = st.state.next_roll_at
        if nxt is not None and not self.clock.over(nxt):
            g.roll_at = nxt
            self.at(nxt, "roll", g)

    def _dice(self) -> int:
        if self.day.game.dice.count == 1:
            return self.rnd.randint(1, 6)
        return self.rnd.randint(1, 6) * 10 + self.rnd.randint(1, 6)

    # ---- money ----------------------------------------------------------------------------------------
    def _along(self, t: int, g: Sim, a: Along) -> None:
        """At a stop (or through a crossing): pay what is owed, or buy what the strategy wants."""
        if a.kind == STATION:
            self.result.stops.setdefault(a.name, [0] * 24)[min(23, t // 3600)] += 1
            seen = self.result.visitors.setdefault(a.name, [])
            if g.name not in seen:
                seen.append(g.name)
        ledger = self.state.ledger.view(self.rules, self.play.id)
        h = ledger.holding(a.kind, a.name)
        if h is None:
            if a.name in ledger.disputes:
                return
            price = self._price(a)
            if g.strategy.wants(Offer(a.kind, a.name, price, self._category(a), ledger.cash.get(g.name,
                                                                                                self.rules.start_cash))):
                self._record(LedgerRequest(g.name, "buy", t, **{a.kind: a.name}))
            return
        if fee_due(self.rules, ledger, g.name, a.kind, a.name) is None:
            return
        dice = (self.rnd.randint(1, 6), self.rnd.randint(1, 6)) if a.kind == TUNNEL else ()
        try:
            self._record(LedgerRequest(g.name, "pay", t, dice=dice, **{a.kind: a.name}))
        except AlreadyPaid:
            return  # the group's day counts this stop as one it paid for (it stayed there, or changed trains)
        self._cover(t, g)

    def _price(self, a: Along) -> int:
        if a.kind == STATION:
            return self.board.price[self.day.station(a.name)]
        c = self.day.game.crossing(a.name)
        return c.price if c is not None else 0

    def _category(self, a: Along) -> str:
        return self.board.category[self.day.station(a.name)] if a.kind == STATION else a.kind

    def _cover(self, t: int, g: Sim) -> None:
        """A group whose cash went negative mortgages its holdings, latest first, until it is covered (§10)."""
        ledger = self.state.ledger.view(self.rules, self.play.id)
        if g.name in ledger.out:
            g.out = True
            return
        for h in reversed(ledger.owned(g.name)):
            if ledger.cash.get(g.name, 0) >= 0:
                return
            if not h.mortgaged:
                self._record(LedgerRequest(g.name, "mortgage", t, **{h.kind: h.name}))
                ledger = self.state.ledger.view(self.rules, self.play.id)  # only a record changes it

    def _income(self, t: int, _g, _payload) -> None:
        for g in self.groups:
            if not g.out:
                self._record(LedgerRequest(g.name, "income", t))

    def _record(self, req: LedgerRequest) -> None:
        out = record_event(self.play, req)
        self.result.events += 1
        if self.cfg.trace:
            res = out.to_json()
            line = {"type": "ledger", "day": self.result.index, "group": req.group, "time": res["time"],
                    "kind": res["kind"], "name": res.get("name", ""), "amount": res["amount"],
                    "message": res["message"]}
            paid = sorted({payee for _payer, payee, _amount in res.get("transfers", ()) if payee != req.group})
            if paid:  # who got the money (a fee's owners; the bank and the free parking by those names)
                line["to"] = paid
            self.result.trace.append(line)

    # ---- the record -----------------------------------------------------------------------------------
    def _log(self, g: Sim, t: int, legs: tuple[Leg, ...], *, seated: bool = False) -> None:
        """The group's day log: rides not started by ``t`` are dropped (a new plan replaced them); the one under
        way, when ``legs`` go on in the same train (a roll while seated: ``seated``, or a ride arriving after
        ``t``), ends where they get off; a group that stayed seated changed nothing (never a 0-minute change)."""
        tt = self.day.network.tt  # the times it rides at (predicted on real-time data), as ``t`` is
        kept: list[Leg] = []
        for leg in g.log:
            if leg.departure(tt) > t:
                continue
            if ((leg.arrival(tt) > t or seated and leg.arrival(tt) == t) and legs and not leg.is_walk
                    and not legs[0].is_walk and legs[0].trip == leg.trip):
                legs = (Leg(leg.trip, leg.board_row, legs[0].alight_row), *legs[1:])
                continue
            kept.append(leg)
        g.log = kept + list(legs)

    def _trace_roll(self, t: int, g: Sim, before, dice: int, ans: RollAnswer) -> None:
        tt = self.day.timetable
        pos = before.position
        station = pos.station if pos is not None else g.start
        line = {"type": "roll", "group": g.name, "day": self.result.index, "time": fmt_clock(t),
                "at": self.board.names[station], "since": fmt_clock(pos.since) if pos is not None else None,
                "seated": bool(pos is not None and pos.seated),
                "trip": str(tt.trip_id[pos.trip]) if pos is not None and pos.seated else None,
                "roll": dice, "targeted": list(before.targeted), "target": ans.target,
                "arrival": ans.arrival, "free": ans.free_until, "kind": ans.kind}
        self.result.rolls.append(line | {
            "strategy": g.strategy.name, "region": self.board.region[station],
            "candidates": [[c.name, c.arrival] for c in ans.candidates]})
        if self.cfg.trace:
            self.result.trace.append(line)

    def _finish(self) -> None:
        """The day's end: the ledger's ranking (§5), the money check, each group's log."""
        ledger = self.state.ledger.view(self.rules, self.play.id)
        self.result.conserved = sum(ledger.cash.values()) + ledger.parking + ledger.bank == 0
        ranking = {r.group: r for r in end(self.play).ranking}
        tt = self.day.timetable
        for g in self.groups:
            r = ranking.get(g.name)
            self.result.groups.append({
                "group": g.name, "strategy": g.strategy.name, "start": self.board.names[g.start],
                "region": self.board.region[g.start],
                "capital": r.capital if r is not None else self.rules.start_cash,
                "cash": r.cash if r is not None else self.rules.start_cash, "rank": r.rank if r is not None else None,
                "out": bool(r is not None and r.out)})
            if self.cfg.trace:
                self.result.trace.append({"type": "legs", "group": g.name, "day": self.result.index,
                                          "legs": [_leg_row(tt, leg) for leg in g.log]})


def _leg_row(tt, leg: Leg) -> dict:
    """A ridden leg as ``zugzwang --check`` reads it (names, times, platforms)."""
    out = {"from": str(tt.station_name[leg.from_station(tt)]), "to": str(tt.station_name[leg.to_station(tt)]),
           "departure": fmt_clock(leg.departure(tt)), "arrival": fmt_clock(leg.arrival(tt))}
    if not leg.is_walk:
        out |= {"from_platform": str(tt.stop_platform[tt.st_stop[leg.board_row]] or ""),
                "to_platform": str(tt.stop_platform[tt.st_stop[leg.alight_row]] or "")}
    return out


def simulate_day(day: GameDay, board: Board, cfg: DayConfig, index: int) -> DayResult:
    """Play day ``index`` of a run (see module docstring)."""
    return SimDay(day, board, cfg, index).run()
