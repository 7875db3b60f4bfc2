"""The rules in words, as answers carry them: every sentence an answer says about a rule (what binds a group, the
change window, free movement, the jail) is a message of :mod:`planner.gamefile.rule_texts` (worded there once),
filled here from the game file and the group's day, as ``{"key", "params", "text"}`` in the answer's language.
The command line and the phone show ``text``; neither words a rule itself.
"""

from __future__ import annotations

from typing import Any

from planner.game.day import GroupState
from planner.gamefile.game import Game
from planner.gamefile.rule_texts import rule_text
from planner.service.answers.base import Message
from planner.util.timefmt import fmt_clock


def message(key: str, **params: Any) -> Message:
    """The sentence of ``key`` with ``params`` (:mod:`planner.gamefile.rule_texts`), in the current language, as
    answers carry it."""
    said = rule_text(key, **params)
    return Message(key=said.key, params=said.params, text=said.text)


def rule_label(game: Game) -> str | None:
    """The change window's name as players say it ("29-minute rule"), in the current language; None without one."""
    return None if game.window is None else game.window.label


def obligation_text(game: Game, state: GroupState) -> Message:
    """What binds the group now, in words."""
    ob = state.obligation
    until, since = fmt_clock(ob.until), fmt_clock(ob.since)
    if ob.kind == "heading":
        if ob.until is None:
            return message("obligation.heading_unknown", target=ob.target)
        return message("obligation.heading", target=ob.target, until=until)
    if ob.kind == "jail":
        delay = game.jail.delay_minutes
        if ob.target is None:
            return message("obligation.jail_no_target", until=until, delay=delay)
        return message("obligation.jail", until=until, delay=delay, target=ob.target)
    if ob.kind == "dice_soon":
        return message("obligation.dice_soon", since=since, until=until)
    if ob.kind in ("before_dice", "free"):
        return message(f"obligation.{ob.kind}", until=until)
    return message(f"obligation.{ob.kind}")  # roll, ended


def board_text(game: Game, state: GroupState) -> Message | None:
    """The change window's deadline for a group standing at a station, in words (None: seated, no rule, none)."""
    ob, pos = state.obligation, state.position
    rule = rule_label(game)
    if ob.board_by is None or rule is None or pos is None or pos.seated:
        return None
    return message("board.forced" if ob.forced else "board.by", board_by=fmt_clock(ob.board_by), rule=rule)


def window_text(*, applies: bool, station: str, got_off: str, deadline: str | None, forced: bool,
                rule: str | None, seated: bool = False) -> Message:
    """The change window where the group is, in one sentence (``planner zugzwang``, the phone's trains)."""
    if not applies or deadline is None:
        return message("window.none", station=station)
    if seated:
        key = "window.seated_forced" if forced else "window.seated"
    else:
        key = "window.forced" if forced else "window.got_off"
    return message(key, station=station, got_off=got_off, deadline=deadline, rule=rule or "")

