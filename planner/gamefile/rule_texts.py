"""Every rule's sentence, worded once: what binds a group, the change window, free movement, the jail. Each is a
message key of :data:`TEXTS` (or a plural function below) filled with parameters from the game file (the change
window's minutes, the jail's delay, the free minutes) and the group's day, and rendered through the gettext catalog
in the reader's language (:mod:`planner.util.i18n`).

The answers carry them as ``{"key", "params", "text"}`` (:mod:`planner.service.read.rule_words`); the command line, the
phone, the printed rules card and the lab show ``text`` and never word a rule themselves
(tests/languages/test_rules_worded_once.py fails when one does). Pure: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from planner.gamefile.game import Game
from planner.util.i18n import N_, _, ngettext


@dataclass(frozen=True)
class RuleText:
    """One rule's sentence: its key, the parameters it was filled with, the text in the current language."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)
    text: str = ""


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
    # the change window where the group is (planner zugzwang, the phone's trains)
    "window.got_off": N_("got off at {station} at {got_off}: board a train leaving by {deadline} ({rule})"),
    "window.forced": N_("no train leaves {station} by {deadline}: take the first one after it ({rule})"),
    "window.seated": N_("seated: nothing binds until you get off; getting off at {station}, board a train leaving "
                        "by {deadline} ({rule})"),
    "window.seated_forced": N_("seated: nothing binds until you get off; no train leaves {station} by {deadline}: "
                               "take the first one after it ({rule})"),
    "window.none": N_("no change window in this game: any train from {station}"),
    # a roll's free movement, a jail (§17)
    "dice.free": N_("free movement until {until}"),
    "free.rolled": N_("rolled during free movement (until {until}): {target} is the target from then on "
                      "(§{paragraph}); this is the earliest legal arrival from now"),
    "free.rolled_window": N_("rolled during free movement (until {until}): {target} is the target from then on "
                             "(§{paragraph}); this is the earliest legal arrival from now under the {rule}"),
    "jail.stay": N_("in jail at {station} until {until} (§17)"),
    "jail.late": N_("jail at {station} {since}-{until} (the {route} is {delay} min late)"),
    "jail.late_pay": N_("jail at {station} {since}-{until} (the {route} is {delay} min late); or pay {amount} into "
                        "the free parking and arrive {arrival}"),
    "jail.rule": N_("{delay} minutes late or more: jail where the train arrived (§17)"),
}


def rule_text(key: str, **params: Any) -> RuleText:
    """The sentence of ``key`` with ``params``, in the current language."""
    return RuleText(key, params, _(TEXTS[key]).format(**params))


def window_rule(game: Game) -> RuleText | None:
    """The change window as the rules card prints it (None: the game has none)."""
    if game.window is None:
        return None
    n = game.window.minutes
    text = ngettext("After getting off at a station at time t, take a train departing by t + {n} min (timetable). "
                    "If no train departs within {n} minute, take the next departing train.",
                    "After getting off at a station at time t, take a train departing by t + {n} min (timetable). "
                    "If no train departs within {n} minutes, take the next departing train.", n).format(n=n)
    return RuleText("window.rule", {"n": n}, text)


def free_rule(game: Game, numbers: str) -> RuleText:
    """Free movement (the numbers that give it, its minutes) as the rules card prints it."""
    n = game.dice.free_minutes
    text = ngettext("{numbers}: {n} minute of free movement; roll before it ends, then head for the new target from "
                    "the end of that minute.",
                    "{numbers}: {n} minutes of free movement; roll before they end, then head for the new target "
                    "from the end of the {n} minutes.", n).format(numbers=numbers, n=n)
    return RuleText("free.rule", {"numbers": numbers, "n": n}, text)
