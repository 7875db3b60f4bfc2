"""A group's day as answers give it (``group status``, ``group list``, ``group position``, ``group undo``, the
state part of ``next``): typed values (:mod:`planner.service.answers.group_status`), with what binds the group in words
(:mod:`planner.service.read.rule_words`)."""

from __future__ import annotations

from typing import Any

import msgspec

from planner.game.day import GroupState
from planner.service.answers.group_status import (
    GroupListAnswer,
    GroupStatusAnswer,
    LateAnswer,
    ObligationState,
    PositionAnswer,
    PositionEntry,
    PositionState,
    RollEntry,
    UndoAnswer,
)
from planner.service.change.group_day import GroupStatus, list_groups, set_position, status, undo
from planner.service.change.jail_reports import position_late
from planner.service.read.positions import PlaceRequest, train_echo
from planner.service.read.recorded_day import station_name_of
from planner.service.read.rule_words import board_text, obligation_text, rule_label
from planner.service.setup.playing import GameDay, Play
from planner.util.timefmt import fmt_clock


def state_fields(day: GameDay, name: str, state: GroupState) -> dict[str, Any]:
    """The fields of a group's state (:class:`~planner.service.answers.group_status.GroupState`), shared by ``group
    status``, ``group list`` and ``next``."""
    tt = day.timetable
    pos = state.position
    ob = state.obligation
    p = None
    if pos is not None:
        p = PositionState(station=tt.station_name[pos.station], since=fmt_clock(pos.since), seated=pos.seated,
                          trip_id=tt.trip_id[pos.trip] if pos.seated else None,
                          train=train_echo(day, pos.trip, pos.row) if pos.seated else None)
    obligation = ObligationState(kind=ob.kind, since=fmt_clock(ob.since), until=fmt_clock(ob.until), target=ob.target,
                                 board_by=fmt_clock(ob.board_by), forced=ob.forced, rule=rule_label(day.game),
                                 text=obligation_text(day.game, state), board=board_text(day.game, state))
    return {"group": name, "time": fmt_clock(state.time), "position": p, "obligation": obligation,
            "next_roll_at": fmt_clock(state.next_roll_at), "targeted": list(state.targeted)}


def status_fields(day: GameDay, st: GroupStatus) -> dict[str, Any]:
    """The fields of ``group status``: the state plus the history (``rolls``, ``positions``)."""
    rolls = [RollEntry(seq=r.seq, time=fmt_clock(r.time), dice="".join(map(str, r.dice)), kind=r.kind,
                       target=r.target, free_until=fmt_clock(r.free_until), position=r.position) for r in st.rolls]
    tt = day.timetable
    positions = []
    for p in st.positions:
        positions.append(PositionEntry(time=fmt_clock(p.time), since=fmt_clock(p.since),
                                       station=station_name_of(tt, p.station),
                                       trip_id=p.trip_id, label=p.label if p.trip_id else None))
    return {**state_fields(day, st.name, st.state), "number": st.number, "game": day.game.name,
            "date": day.date.isoformat(), "rolls": rolls, "positions": positions}


def status_json(day: GameDay, st: GroupStatus) -> GroupStatusAnswer:
    """``group status`` of a group's state as read."""
    return GroupStatusAnswer(**status_fields(day, st))


def status_answer(play: Play, group: str, time: int) -> GroupStatusAnswer:
    """``planner group status``: the group's state at ``time`` and its history."""
    return status_json(play.day, status(play, group, time))


def groups_answer(play: Play, time: int) -> GroupListAnswer:
    """``planner group list``: every group of the game with its state at ``time``."""
    return GroupListAnswer(game_id=play.id, groups=[status_json(play.day, st) for st in list_groups(play, time)])


def position_answer(play: Play, group: str, place: PlaceRequest, time: int, *,
                    late: int | None = None) -> PositionAnswer:
    """``planner group position`` (and the phone's): record where the group is and answer its state then (see
    :func:`planner.service.change.group_day.set_position`); with ``late``, the minutes its train arrived late there (§17
    without a live feed: jail by the game's rule, :func:`planner.service.change.jail_reports.position_late`)."""
    if late is None:
        st = set_position(play, group, place, time)
        return PositionAnswer(**status_fields(play.day, st), train=st.train)
    st, report = position_late(play, group, place, time, late)
    return PositionAnswer(**status_fields(play.day, st), train=st.train,
                          late=msgspec.convert(report.to_json(), LateAnswer))


def undo_answer(play: Play, group: str) -> UndoAnswer:
    """``planner group undo``: remove the group's latest entry."""
    res = undo(play, group)
    return UndoAnswer(group=res.group, removed=res.removed, removed_position=res.position)
