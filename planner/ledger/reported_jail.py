"""§17 jail as the group reports it (no live feed: "our train arrived N minutes late") or a card sends it there
(pure): once per train, for the game's minutes, left early by paying (variant A) or by a card."""

from __future__ import annotations

from dataclasses import replace

from planner.ledger.messages import render
from planner.ledger.model import Event, JailStay, LedgerState
from planner.ledger.money_rules import LedgerRules
from planner.ledger.moves import Outcome, Refused
from planner.util.i18n import _
from planner.util.timefmt import fmt_clock


def enter(rules: LedgerRules, s: LedgerState, group: str, station: str, t: int, trip: str = "") -> JailStay:
    """Put ``group`` in jail at ``station`` from ``t`` for the game's minutes."""
    stay = JailStay(station, t, t + rules.jail_minutes * 60, trip)
    s.jails.setdefault(group, []).append(stay)
    return stay


def leave(s: LedgerState, group: str, t: int, how: str) -> JailStay | None:
    """End the jail ``group`` is in at ``t`` (``how``: ``paid`` or the card played); None: it is in none."""
    stays = s.jails.get(group, [])
    for i in range(len(stays) - 1, -1, -1):
        if stays[i].since <= t < stays[i].until:
            stays[i] = replace(stays[i], until=t, left=how)
            return stays[i]
    return None


def jail(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    """The group says the train it sat in arrived ``e.minutes`` late at ``e.name``: jail there (§17)."""
    if e.minutes < rules.jail_delay:
        raise Refused(_("{minutes} minutes late is no jail: it takes {delay} minutes (§17)").format(
            minutes=e.minutes, delay=rules.jail_delay))
    if e.trip and any(j.trip == e.trip for j in s.jails.get(e.group, ())):
        raise Refused(_("group {group} was in jail for train {trip} already: once per train (§17)").format(
            group=e.group, trip=e.trip))
    now = s.jail(e.group, e.time)
    if now is not None:
        raise Refused(_("group {group} is in jail at {station} until {until} already").format(
            group=e.group, station=now.station, until=fmt_clock(now.until)))
    enter(rules, s, e.group, e.name, e.time, e.trip)
    out.amount = 0
    out.message = render(rules, "jail", group=e.group, time=e.time, name=e.name)
