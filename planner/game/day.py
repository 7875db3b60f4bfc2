"""A group's day as one model (pure): position, obligation, targets and history (docs/rules.md §3 "A group's day").

Every answer for a group derives from its :class:`GroupDay`, built from the recorded rolls and position
reports; every command that changes the day asks it first (:meth:`GroupDay.check_roll`,
:meth:`GroupDay.check_position`), so times never run backwards, a roll during free movement is planned
from its end (§4.5), a roll while heading for a target is refused with the target named, and the game's
end ends every obligation. Times are seconds after midnight; stations, trips and rows are timetable indexes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from planner.errors import InputError
from planner.gamefile.game import Game
from planner.gamefile.rules import Deadline
from planner.routing.journey import Leg
from planner.timetable.model import Timetable
from planner.util.i18n import _
from planner.util.timefmt import fmt_clock


@dataclass(frozen=True)
class Position:
    """Standing at ``station`` since ``since``, or seated in ``trip`` at/approaching stop-time ``row``
    (then ``station`` is that stop's station and ``since`` the train's time there)."""

    station: int
    since: int
    trip: int = -1
    row: int = -1

    @property
    def seated(self) -> bool:
        """True when the group sits in a train."""
        return self.trip >= 0


@dataclass(frozen=True)
class RollEvent:
    """A recorded roll. ``plan_from`` is when its itinerary starts (the end of free movement for a roll
    made during it, else the roll time); ``legs`` is the itinerary the answer gave (rides and walks)."""

    seq: int
    time: int
    kind: str  # "target" | "free"
    target: str | None = None
    target_station: int | None = None
    free_until: int | None = None
    plan_from: int = 0
    origin: Position | None = None
    arrival: int | None = None
    reroll_at: int | None = None
    legs: tuple[Leg, ...] = ()


@dataclass(frozen=True)
class PositionEvent:
    """The group said where it is: "we got off at X at T" or "we are in the IR75 12:25"."""

    seq: int
    time: int
    position: Position


FREE_KINDS = ("before_dice", "dice_soon", "free")  # the obligations that leave the group free to move


@dataclass(frozen=True)
class Obligation:
    """What binds the group at a time.

    ``kind``: ``before_dice`` (no dice yet; ``until`` = dice start), ``dice_soon`` (the dice rules apply,
    first roll at ``until``), ``roll`` (the group must roll now), ``heading`` (for ``target`` since
    ``since``, planned arrival ``until``), ``free`` (free movement until ``until``), ``jail`` (§17, on
    real-time data: in jail at the position's station from ``since`` until ``until``, still bound to
    ``target``), ``ended`` (the game is over). ``board_by``: under the game's change window (variant A's 29-minute rule), when a group standing
    at a station must have boarded: the window's end, or the departure of the forced train when none leaves in
    the window (``forced``); None when seated, without the rule, or when the game ends first.
    """

    kind: str
    since: int | None = None
    until: int | None = None
    target: str | None = None
    board_by: int | None = None
    forced: bool = False

    @property
    def moves_freely(self) -> bool:
        """True when no target binds the group and it may go where it likes: before the dice, and during free
        movement (a 6 or a free number, §4.5). The change window binds all the same (docs/rules.md §3)."""
        return self.kind in FREE_KINDS

    def may_board_freely(self, departure: int) -> bool:
        """True when the group may board a train leaving at ``departure`` of its own choice: it moves freely and
        the train leaves before that ends (the dice start, the free time's end)."""
        return self.moves_freely and (self.until is None or departure <= self.until)


@dataclass(frozen=True)
class GroupState:
    """The group at ``time``: where it is, what binds it, when it rolls next, what it targeted."""

    time: int
    position: Position | None
    obligation: Obligation
    next_roll_at: int | None
    targeted: tuple[str, ...]
    last_time: int | None


def in_jail(state: GroupState, station: int, since: int, until: int) -> GroupState:
    """``state`` of a group in jail at ``station`` from ``since`` until ``until`` (§17; the real-time data
    says so, see planner/service/read/jail_plans.py): it stands there, the jail binds it, its target stays."""
    ob = state.obligation
    if ob.kind == "ended":
        return state
    jail = Obligation("jail", since=since, until=until, target=ob.target)
    nxt = state.next_roll_at if state.next_roll_at is None else max(state.next_roll_at, until)
    return replace(state, position=Position(station, since), obligation=jail, next_roll_at=nxt)


@dataclass(frozen=True)
class RollPlan:
    """What :meth:`GroupDay.check_roll` allows: plan the roll from ``position`` at ``plan_from`` (the roll's
    time). ``free_until``: the roll was made during free movement that ends then (§4.5): the target counts from
    then, but the itinerary is the earliest legal one from the roll (docs/rules.md §3 "A group's day"). ``reaching``:
    the roll was made on the way to a target, from its re-roll time on (variant B): the group reaches it then,
    and a free number's time starts there (docs/rules.md §2)."""

    time: int
    plan_from: int
    position: Position | None
    free_until: int | None = None
    reaching: int | None = None  # rolled five minutes before a target (variant B §4.3): reached then


DeadlineOf = Callable[[Position], "Deadline | None"]
"""The change window's deadline for a group standing at a position since its ``since`` (the service gives one
from the routing network: :func:`planner.game.zugzwang.deadline_at`)."""


@dataclass
class GroupDay:
    """One group's day: its rolls and position reports, in the order they happened."""

    tt: Timetable
    game: Game
    rolls: list[RollEvent] = field(default_factory=list)
    positions: list[PositionEvent] = field(default_factory=list)
    deadline_of: DeadlineOf | None = None  # None: no change window binds (variant B, plain timetable)

    # ---- history --------------------------------------------------------------------------------
    @property
    def last_time(self) -> int | None:
        """The latest time the group's history has reached (rolls and reports); None for an empty day."""
        times = [r.time for r in self.rolls] + [p.time for p in self.positions]
        return max(times) if times else None

    def targeted(self) -> tuple[str, ...]:
        """Targets assigned so far (docs/rules.md §3 "Targeted"), distinct, in order."""
        out: list[str] = []
        for r in self.rolls:
            if r.kind == "target" and r.target and r.target not in out:
                out.append(r.target)
        return tuple(out)

    def last_roll(self, before: int | None = None) -> RollEvent | None:
        """The latest roll (at or before ``before``)."""
        rolls = [r for r in self.rolls if before is None or r.time <= before]
        return rolls[-1] if rolls else None

    # ---- derived state ----------------------------------------------------------------------------
    def position_at(self, t: int) -> Position | None:
        """Where the group is at ``t``: from its latest report, or along the itinerary of its latest roll
        when that is newer; a seated group moves on with its train. None when nothing is known."""
        roll = self.last_roll(t)
        report = next((p for p in reversed(self.positions) if p.time <= t), None)
        # a report at the roll's own time is what the roll was planned from: the roll's itinerary wins
        if report is not None and (roll is None or report.time > roll.time):
            if roll is not None and report.position.seated and roll.target_station is not None:
                reached = self.reached_at(roll, t)
                if reached is not None and reached >= report.time:  # its train took it there: it got off
                    return Position(roll.target_station, reached)
            return self.advance(report.position, t)
        if roll is None or roll.origin is None:
            return None
        if roll.kind == "target" and roll.legs:
            return self._along(roll.origin, roll.plan_from, roll.legs, t)
        return self.advance(roll.origin, t)

    def advance(self, pos: Position, t: int) -> Position:
        """A seated position moved on to time ``t`` (the stop the train is at or approaching)."""
        if not pos.seated:
            return pos
        tt = self.tt
        rows = tt.trip_stop_times(pos.trip)
        for r in range(pos.row, rows.stop):
            if int(tt.st_dep[r]) >= t or r == rows.stop - 1:
                if r == rows.stop - 1 and int(tt.st_arr[r]) <= t:  # the train has ended: the group stands there
                    return Position(int(tt.stop_station[tt.st_stop[r]]), int(tt.st_arr[r]))
                return Position(int(tt.stop_station[tt.st_stop[r]]), int(tt.st_arr[r]), pos.trip, r)
        return pos  # pragma: no cover - the loop always returns

    def _along(self, origin: Position, start: int, legs: tuple[Leg, ...], t: int) -> Position:
        """Position at ``t`` along an itinerary that starts at ``origin`` at ``start`` (walking: still at the
        station it walks from until it arrives)."""
        tt = self.tt
        if t < start:
            return self.advance(origin, t)
        here = origin
        for leg in legs:
            dep, arr = leg.departure(tt), leg.arrival(tt)
            if t < dep:
                return self.advance(here, t) if here.seated else here
            if t < arr:
                if leg.is_walk:
                    return Position(leg.walk_from, here.since if not here.seated else dep)
                return self.advance(Position(leg.from_station(tt), dep, leg.trip, leg.board_row), t)
            here = Position(leg.to_station(tt), arr)
        return here

    def on_plan(self, roll: RollEvent, t: int) -> bool:
        """True when every report since ``roll`` (up to ``t``) has the group where its itinerary has it (same
        train, or the same station): the stored itinerary still holds."""
        if roll.origin is None:
            return False
        for p in self.positions:
            if not roll.time < p.time <= t:
                continue
            want = self._along(roll.origin, roll.plan_from, roll.legs, p.time)
            got = p.position
            if (got.seated, got.trip if got.seated else got.station) != (want.seated,
                                                                            want.trip if want.seated else want.station):
                return False
        return True

    def rest_of_plan(self, roll: RollEvent, t: int) -> tuple[Leg, ...]:
        """The legs of ``roll``'s itinerary still ahead at ``t`` (the ride the group sits in from the stop it is
        at or approaching)."""
        tt = self.tt
        out = []
        for leg in roll.legs:
            if leg.arrival(tt) <= t:
                continue
            if not leg.is_walk and leg.departure(tt) < t:
                now = self.advance(Position(leg.from_station(tt), leg.departure(tt), leg.trip, leg.board_row), t)
                if now.seated and now.row <= leg.alight_row:
                    leg = Leg(leg.trip, now.row, leg.alight_row)
            out.append(leg)
        return tuple(out)

    def reached_at(self, roll: RollEvent, t: int) -> int | None:
        """When the group reached the target of ``roll`` (at or before ``t``), or None: a report at the
        target after the roll, else the planned arrival when no report came after the roll."""
        if roll.kind != "target":
            return None
        for p in self.positions:
            if not roll.time <= p.time <= t or roll.target_station is None:
                continue
            if p.position.station == roll.target_station:
                return p.time
            if p.position.seated:  # seated in a train that stops at the target later: reached on arrival
                tt = self.tt
                for r in range(p.position.row, tt.trip_stop_times(p.position.trip).stop):
                    if int(tt.stop_station[tt.st_stop[r]]) == roll.target_station and tt.st_dropoff[r]:
                        if int(tt.st_arr[r]) <= t:
                            return int(tt.st_arr[r])
                        break
        deviated = any(p.time > roll.time for p in self.positions if p.time <= t)
        if not deviated and roll.arrival is not None and roll.arrival <= t:
            return roll.arrival
        return None

    def obligation_at(self, t: int, position: Position | None = None) -> tuple[Obligation, int | None]:
        """What binds the group at ``t``, and when it rolls next (the game's end ends every obligation)."""
        clock = self.game.clock
        if clock.over(t):
            return Obligation("ended", since=clock.end), None
        board_by, forced = self._board_by(t, position)
        roll = self.last_roll(t)
        if roll is None:
            if clock.before_dice(t):
                kind = "dice_soon" if clock.dice_bind(t) else "before_dice"
                return Obligation(kind, since=clock.dice_forced_from if kind == "dice_soon" else None,
                                  until=clock.dice_from, board_by=board_by, forced=forced), clock.dice_from
            return Obligation("roll", since=clock.dice_from if clock.bounded else None, board_by=board_by,
                              forced=forced), t
        if roll.kind == "free":
            assert roll.free_until is not None
            if t < roll.free_until:  # the next roll is due when the free time ends (§4.4-4.5)
                return Obligation("free", since=roll.time, until=roll.free_until, board_by=board_by,
                                  forced=forced), roll.free_until
            return Obligation("roll", since=roll.free_until, board_by=board_by, forced=forced), t
        reached = self.reached_at(roll, t)
        if reached is not None or roll.arrival is None:
            return Obligation("roll", since=reached if reached is not None else roll.time, board_by=board_by,
                              forced=forced), t
        nxt = roll.reroll_at if roll.reroll_at is not None else roll.arrival
        return Obligation("heading", since=roll.time, until=roll.arrival, target=roll.target,
                          board_by=board_by, forced=forced), clock.cap(nxt)

    def _board_by(self, t: int, position: Position | None) -> tuple[int | None, bool]:
        """The change window's deadline for a standing group (one rule: :meth:`ChangeWindow.deadline`)."""
        clock = self.game.clock
        if position is None or position.seated or self.deadline_of is None or (clock.bounded and t < clock.start):
            return None, False
        d = self.deadline_of(position)
        if d is None or clock.over(d.time):
            return None, False  # no train any more, or the game ends first: nothing is offered past the end
        return d.time, d.forced

    def state_at(self, t: int) -> GroupState:
        """The whole state of the group at ``t``."""
        pos = self.position_at(t)
        ob, nxt = self.obligation_at(t, pos)
        return GroupState(t, pos, ob, nxt, self.targeted(), self.last_time)

    # ---- checks before a change ----------------------------------------------------------------------
    def _forward(self, t: int, roll: bool) -> None:
        last = self.last_time
        if last is not None and t < last:
            said = (_("a roll at {time} is earlier than the group's last entry at {last}: a group's times never run "
                      "backwards (undo first?)") if roll else
                    _("a position at {time} is earlier than the group's last entry at {last}: a group's times never "
                      "run backwards (undo first?)"))
            raise InputError(said.format(time=fmt_clock(t), last=fmt_clock(last)))
        self.game.clock.check_asked(t)

    def check_roll(self, t: int, position: Position | None = None) -> RollPlan:
        """May the group roll at ``t``? Returns where and from when to plan the roll, or raises InputError.

        ``position`` is where the group says it is at ``t`` (its ``since`` when it got there); default: its
        position in the model. A roll during free movement names the target of the end of the free time and is
        planned from the roll itself: the change window of the station it stands at keeps binding (§4.5 with
        §4.2; docs/rules.md §3 "A group's day").
        """
        clock = self.game.clock
        self._forward(t, roll=True)
        if clock.before_dice(t):
            raise InputError(_("dice start at {dice_from} in {game}; it is {time}").format(
                dice_from=fmt_clock(clock.dice_from), game=self.game.title, time=fmt_clock(t)))
        if clock.over(t):
            raise InputError(_("the game ended at {end}: no more rolls").format(end=fmt_clock(clock.end)))
        ob, nxt = self.obligation_at(t)
        if ob.kind == "heading" and (nxt is None or t < nxt):
            said = (_("the group is heading for {target} (rolled at {since}, arrival {arrival}); if it got there, "
                      "say so first ('planner group position')") if nxt is None else
                    _("the group is heading for {target} (rolled at {since}, arrival {arrival}); the next roll is due "
                      "at {next_roll}; if it got there, say so first ('planner group position')"))
            phone = (_("the group is heading for {target} (rolled at {since}, arrival {arrival}); if it got there, "
                       "tell where you are first") if nxt is None else
                     _("the group is heading for {target} (rolled at {since}, arrival {arrival}); the next roll is "
                       "due at {next_roll}; if it got there, tell where you are first"))
            where = {"target": ob.target, "since": fmt_clock(ob.since), "arrival": fmt_clock(ob.until),
                     "next_roll": fmt_clock(nxt)}
            raise InputError(said.format(**where), phone=phone.format(**where))
        pos = position if position is not None else self.position_at(t)
        if pos is not None and pos.seated:
            pos = self.advance(pos, t)
        free = ob.until if ob.kind == "free" and ob.until is not None and t < ob.until else None
        reaching = ob.until if ob.kind == "heading" and ob.until is not None and t < ob.until else None
        return RollPlan(t, t, pos, free, reaching)

    def check_position(self, t: int) -> None:
        """May the group report a position at ``t``? (times forward, within the game)."""
        self._forward(t, roll=False)
