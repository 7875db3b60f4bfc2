"""The rules in words: every sentence an answer says about what binds a group is made here, once, from a message
key and parameters taken from the game file (the change window's minutes, the jail's delay) and the group's day,
and rendered through the gettext catalog in the answer's language (:mod:`planner.util.i18n`). The command line
and the phone show these texts; neither words a rule itself.
"""

from __future__ import annotations

from typing import Any

from planner.game.day import GroupState
from planner.gamefile.game import Game
from planner.service.answers.base import Message
from planner.util.i18n import N_, _
from planner.util.timefmt import fmt_clock

TEXTS: dict[str, str] = {
    "obligation.before_dice": N_("move freely; the dice start at {until}"),
    "obligation.dice_soon": N_("the dice rules apply from {since}; first roll at {until}"),
    "obligation.roll": N_("roll the dice now"),
    "obligation.free": N_("free movement until {until}: roll before it ends"),
    "obligation.heading": N_("heading for {target}, arrival {until}"),
    "obligation.heading_unknown": N_("heading for {target}"),
    "obligation.jail": N_("in jail here until {until} (your train was {delay} or more minutes late), then on to "
                          "{target}"),
    "obligation.jail_no_target": N_("in jail here until {until} (your train was {delay} or more minutes late)"),
    "obligation.ended": N_("the game is over"),
    "board.by": N_("board a train leaving by {board_by} ({rule})"),
    "board.forced": N_("the {rule} binds the train leaving at {board_by} (none leaves within the window)"),
    "advice.there": N_("you are at {target}: roll again"),
    "advice.go": N_("go to {target}, arrival {arrival}"),
}


def message(key: str, **params: Any) -> Message:
    """The text of ``key`` with ``params``, in the current language."""
    return Message(key=key, params=params, text=_(TEXTS[key]).format(**params))


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
