"""Use cases of a group's day: roll, set position, undo, status, list groups (the CLI and the web app call these).

Each reads the group's recorded day from the state, builds its :class:`~planner.game.day.GroupDay`, lets the
model check the change, computes the answer **outside** any write transaction, and records it with a version check
(:meth:`GroupStore.commit_roll`): a group changed in between is recomputed, never overwritten. Results are typed;
their ``to_json()`` is the CLI's ``--json`` shape. A group is addressed by name or number within its game
(:class:`~planner.service.setup.playing.Play`).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field

import msgspec

from planner.errors import InputError, PlannerError
from planner.game.day import GroupDay, GroupState, Position, RollPlan, in_jail
from planner.game.dice import DiceAnswer
from planner.service.answers import base as contract
from planner.service.answers.rolls import DiceAnswer as DiceJson
from planner.service.answers.rolls import RollAnswer, stored_roll
from planner.service.change.ledger_events import play_card
from planner.service.read.decisions import roll_answer
from planner.service.read.jail_plans import jail_now, paid_out
from planner.service.read.ledger_views import jailed, playing, rules_of
from planner.service.read.positions import (
    Place,
    PlaceRequest,
    origin_of,
    resolve_place,
    train_echo,
    train_hints,
)
from planner.service.read.pricing import Pricing, load_pricing
from planner.service.read.recorded_day import SEATED_LABEL, group_day, plan_json, station_name_of
from planner.service.read.rule_words import message, rule_label
from planner.service.setup.playing import Play
from planner.store.games import GameGroup
from planner.store.records import GroupSnapshot, PositionRecord, Roll, RollRecord, StaleGroup, replay
from planner.timetable.trips import describe_train
from planner.util.i18n import _
from planner.util.text import fold
from planner.util.timefmt import fmt_clock

MAX_RECOMPUTE = 8  # commits retried after a concurrent change of the same group


@dataclass(frozen=True)
class RollRequest:
    """A roll: ``dice`` (one die 1-6, or white*10+coloured) at ``time`` (seconds, the roll's own time); ``place``
    where the group is then (with ``since`` when it got there; empty: where its day has it); ``roll_id`` makes a
    retry idempotent; ``card``: the kept card played with it."""

    group: str
    dice: int
    time: int
    place: PlaceRequest = field(default_factory=PlaceRequest)
    roll_id: str | None = None
    card: str = ""  # a kept card played with the roll, turning it into a 6 (variant B's "Freiheit vor dem Würfelziel")

    def canonical(self, group: GameGroup) -> str:
        """The inputs as one text: a reused roll id must come with the same."""
        p = self.place
        return json.dumps({"group": group.key, "dice": self.dice, "time": self.time,
                           "at": fold(p.at) if p.at else None, "trip": (p.trip or "").strip() or None,
                           "since": p.since}, sort_keys=True)


@dataclass(frozen=True)
class RollResult:
    """The recorded roll: ``answer`` its answer, decoded once from ``answer_text``, exactly what was stored (a
    retry returns the same bytes); ``replayed``: the roll id was recorded before."""

    seq: int
    answer: RollAnswer
    answer_text: str
    replayed: bool

    def to_json(self) -> dict:
        """The answer as plain JSON values (what ``planner roll --json`` prints, as a dict)."""
        return msgspec.to_builtins(self.answer)

    @classmethod
    def stored(cls, seq: int, text: str, replayed: bool) -> RollResult:
        """The result of a roll as the state holds it."""
        return cls(seq, stored_roll(text), text, replayed)


@dataclass(frozen=True)
class GroupStatus:
    """A group's state at a time plus its history (``group status``)."""

    name: str
    key: str
    number: int
    state: GroupState
    rolls: tuple[RollRecord, ...]
    positions: tuple[PositionRecord, ...]
    train: str | None = None


@dataclass(frozen=True)
class UndoResult:
    """What undo removed: a roll (``removed``, its number) or a position report (``position``), or nothing."""

    group: str
    removed: int | None
    position: str | None = None


def _given_place(play: Play, model: GroupDay, req: RollRequest) -> Place | None:
    p = req.place
    if not (p.at or p.trip):
        return None
    return resolve_place(play.day, PlaceRequest(p.at, p.time if p.trip else req.time, p.trip, p.since),
                         train_hints(model, req.time))


def _decide(play: Play, model: GroupDay, req: RollRequest,
            pricing: Pricing) -> tuple[DiceAnswer, DiceJson, RollPlan, Position, Place | None]:
    """Check the roll, resolve where it is planned from, and decide and answer it for the group (pure computation,
    no writes)."""
    play.day.game.dice.validate(req.dice)
    given = _given_place(play, model, req)
    plan = model.check_roll(req.time, given.position if given else None)
    if plan.position is None:
        raise InputError(_("where is the group? give --at STATION (or --trip TRAIN), or set its position first"),
                         phone=_("where is the group? give the station (or the train you are in), or set its "
                                 "position first"))
    pos = plan.position
    if pos.seated:
        pos = model.advance(pos, plan.plan_from)
    # standing: the itinerary starts at the roll and ``since`` stays when the group got there, so the change
    # window binds (during free movement too: docs/rules.md §3 "A group's day")
    origin = origin_of(play.day, pos, plan.plan_from)
    # a free number rolled on the way to a target (variant B's re-roll) starts its time when that is reached
    free_from = plan.reaching if plan.reaching is not None else plan.plan_from
    ans, dice = roll_answer(play.day, origin, req.dice, list(model.targeted()), pricing, asked=plan.plan_from,
                            rolled_at=req.time, free_from=free_from)
    return ans, dice, plan, pos, given


def roll(play: Play, req: RollRequest) -> RollResult:
    """Record a roll for a group and answer it (see module docstring); with ``req.card`` the card is played with
    it (:func:`_roll_with_card`) and its recorded play is the answer's ``card``."""
    group = play.group(req.group)
    if req.card:
        return _roll_with_card(play, group, req)
    return _roll(play, group, req)


def six_of(play: Play, dice: int) -> int:
    """The roll a "Freiheit vor dem Würfelziel" card turns ``dice`` into: a 6 (two dice: the white one a 6)."""
    return 6 if play.day.game.dice.count == 1 else 60 + dice % 10


def _roll_with_card(play: Play, group: GameGroup, req: RollRequest) -> RollResult:
    """A roll turned into a 6 by the group's kept card (played with the roll, once). The roll and the card's play
    are one transaction: a card the group does not hold records no roll, and a process stopped between the two
    leaves neither (a retry under the same roll id replays both)."""
    c = rules_of(play).cards.get(req.card)
    if c is None or c.effect != "six":
        raise InputError(_("card {card!r} does not turn a roll into a 6").format(card=req.card))
    play.day.game.dice.validate(req.dice)
    with play.state.db.atomic():
        res = _roll(play, group, dataclasses.replace(req, dice=six_of(play, req.dice), card=""))
        played = play_card(play, group, req.time, req.card, event_id=f"roll-{req.roll_id}" if req.roll_id else None)
    return dataclasses.replace(res, answer=msgspec.structs.replace(res.answer, card=played.answer()))


def _roll(play: Play, group: GameGroup, req: RollRequest) -> RollResult:
    day = play.day
    playing(play, group.name)
    request = req.canonical(group)
    if req.roll_id is not None and (old := play.state.groups.find_roll(play.id, group, req.roll_id)) is not None:
        replay(old, Roll(time=req.time, dice=_dice(req.dice), kind=old.kind, target=old.target,
                         free_until=old.free_until, request=request))
        if old.answer is not None:
            return RollResult.stored(old.seq, old.answer, True)
    for _attempt in range(MAX_RECOMPUTE):
        snap = play.state.groups.snapshot(play.id, group)
        model = group_day(day, snap)
        # a roll is always priced for its group (§9.3)
        ans, dice, plan, pos, given = _decide(play, model, req, load_pricing(play, group.name))
        if plan.free_until is not None and ans.kind == "target":
            dice.warnings.append(_free_roll_warning(play, plan.free_until, ans.target))
        if pos.seated:  # always say which train the answer starts in
            dice.train = given.train if given is not None and given.train else train_echo(day, pos.trip, pos.row)
        targeted = list(model.targeted())
        if ans.kind == "target" and ans.target and ans.target not in targeted:
            targeted.append(ans.target)
        out = RollAnswer(**{f: getattr(dice, f) for f in dice.__struct_fields__}, group=group.name,
                         game_id=play.id, seq=len(snap.rolls) + 1, targeted=targeted)
        text = contract.encode(out).decode()
        tt = day.timetable
        label = tt.station_name[pos.station] + (f"{SEATED_LABEL}{describe_train(tt, pos.trip)})" if pos.seated else "")
        record = Roll(time=req.time, dice=_dice(req.dice), kind=ans.kind,
                      target=ans.target if ans.kind == "target" else None, free_until=ans.free_until,
                      position=label, roll_id=req.roll_id, request=request, answer=text,
                      plan=plan_json(day, plan.plan_from, pos, ans.journey, ans.arrival, ans.reroll_at))
        try:
            rec = play.state.groups.commit_roll(play.game, group, record, snap.version)
        except StaleGroup:
            continue
        if rec.answer is not None and rec.answer != text:  # recorded meanwhile under its roll id
            return RollResult.stored(rec.seq, rec.answer, True)
        return RollResult(rec.seq, out, text, False)
    raise PlannerError(_("group {group} changed {times} times while its roll was computed; try again").format(
        group=group.name, times=MAX_RECOMPUTE))


def _free_roll_warning(play: Play, free_until: int, target: str | None) -> str:
    """A roll made during free movement names the target the group heads for once it ends (§4.5)."""
    game = play.day.game
    rule = rule_label(game)
    said = {"until": fmt_clock(free_until), "target": target, "paragraph": game.paragraph("free_movement")}
    if rule is None:
        return message("free.rolled", **said).text
    return message("free.rolled_window", **said, rule=rule).text


def _dice(dice: int) -> tuple[int, ...]:
    return tuple(int(c) for c in str(dice))


def set_position(play: Play, group_ref: str, place: PlaceRequest, time: int) -> GroupStatus:
    """Record "we got off at X at T" (``place.since``: we have stood at X since then) or "we are in the IR75 12:25"
    (checked by the model), and answer the group's state then. A report is what the group says: its change window
    starts at ``since``, else at ``time``; the phone offers the ``since`` its day has when the station is the one
    it stands at."""
    group, written, resolved = report_position(play, group_ref, place, time)
    st = _status_of(play, group, written, time)[0]
    here = st.state.position
    # the echo names the stop the group's day has it at (one rule: GroupDay.advance), not the matched row
    echo = train_echo(play.day, here.trip, here.row) if here is not None and here.seated else resolved.train
    return dataclasses.replace(st, train=echo)


def report_position(play: Play, group_ref: str, place: PlaceRequest,
                    time: int) -> tuple[GameGroup, GroupSnapshot, Place]:
    """Record a position report as :func:`set_position` does, without working out the answer: (the group, its day
    as written, the place resolved). For a caller that needs no state back (a simulated group boarding)."""
    day, group = play.day, play.group(group_ref)
    playing(play, group.name)
    tt = day.timetable
    for _attempt in range(MAX_RECOMPUTE):
        snap = play.state.groups.snapshot(play.id, group)
        model = group_day(day, snap)
        resolved = resolve_place(day, PlaceRequest(place.at, time, place.trip, place.since), train_hints(model, time))
        model.check_position(time)
        pos = resolved.position
        offset = pos.row - tt.trip_stop_times(pos.trip).start if pos.seated else None
        label = resolved.train  # a train's name as told; a station is named from the timetable when shown
        try:
            rec = play.state.groups.add_position(play.game, group, time, pos.since, tt.station_id[pos.station],
                                                 tt.trip_id[pos.trip] if pos.seated else None, offset, label,
                                                 expected_version=snap.version)
        except StaleGroup:
            continue
        # the day as written: the snapshot it was checked against plus this report (no second read), as the
        # store keeps it when it could (the same object later reads give, so its model is built once)
        written = play.state.groups.kept(play.id, group, snap.version + 1)
        if written is None:
            number = snap.number or next((g.number for g in play.refresh().game.groups if g.key == group.key), 0)
            written = snap.with_position(rec, number)
        return group, written, resolved
    raise PlannerError(_("group {group} changed {times} times while its position was recorded; try again").format(
        group=group.name, times=MAX_RECOMPUTE))


def undo(play: Play, group_ref: str) -> UndoResult:
    """Remove the group's latest entry (a mistyped roll or report): one operation for every interface."""
    group = play.group(group_ref)
    rec = play.state.groups.undo_last(play.id, group)
    if rec is None:
        return UndoResult(group.name, None)
    if isinstance(rec, RollRecord):
        return UndoResult(group.name, rec.seq)
    return UndoResult(group.name, None, _("{place} at {time}").format(place=_place_name(play, rec),
                                                                        time=fmt_clock(rec.time)))


def _place_name(play: Play, rec: PositionRecord) -> str:
    """Where a stored position report was: its train as told, else "at" its station (as the page names it; an
    older file stored that for a station in English, and it is not shown)."""
    if rec.trip_id and rec.label:
        return rec.label
    return _("at {station}").format(station=station_name_of(play.day.timetable, rec.station))


def status_and_model(play: Play, group_ref: str, time: int) -> tuple[GroupStatus, GroupDay]:
    """The group's state at ``time`` and its history, with the model it was read from (one snapshot, so a use
    case needing both never reads the group twice nor sees two versions of it)."""
    group = play.group(group_ref)
    return _status_of(play, group, play.state.groups.snapshot(play.id, group), time)


def _status_of(play: Play, group: GameGroup, snap: GroupSnapshot, time: int) -> tuple[GroupStatus, GroupDay]:
    model = group_day(play.day, snap)
    last = model.last_time
    if last is not None and time < last:
        time = last  # a status asked for an earlier time shows the latest state (times never run backwards)
    state = jailed(play, group.name, model.state_at(time))  # §17 reported (a late train, a card)
    if play.day.realtime_source:  # §17 on real-time data: a late train put the group in jail
        jail = jail_now(play.day, model, time)
        if jail is not None and not paid_out(play, group.name, jail):
            state = in_jail(state, jail.station, jail.arrival, jail.until)
    return GroupStatus(group.name, group.key, group.number or snap.number, state, snap.rolls,
                       snap.positions), model


def status(play: Play, group_ref: str, time: int) -> GroupStatus:
    """The group's state at ``time`` and its history."""
    return status_and_model(play, group_ref, time)[0]


def list_groups(play: Play, time: int) -> list[GroupStatus]:
    """Every group of the game with its state at ``time`` (a created game's groups before their first entry too)."""
    play = play.refresh()
    return [status(play, g.key, time) for g in play.game.groups]
