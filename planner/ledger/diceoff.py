"""§7.2 dice-offs (pure): groups that decided to buy one station in the same minute roll two dice each; the highest
sum buys it (a tie among the highest rolls again, among them). Each group records its own roll; the dice-off is
settled when every group of the round has rolled. (The older form records every group's sum at once.)"""

from __future__ import annotations

from planner.ledger.messages import render
from planner.ledger.model import BANK, Dispute, Event, LedgerState
from planner.ledger.money_rules import LedgerRules
from planner.ledger.moves import Outcome, Refused, move, require_cash, tell_of
from planner.ledger.purchase import give_back
from planner.util.i18n import _

TWO_DICE = range(2, 13)


def two_dice(dice: tuple[int, ...]) -> bool:
    """True for two dice, each 1-6."""
    return len(dice) == 2 and all(1 <= d <= 6 for d in dice)


def diceoff(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    """One group's roll in the dice-off for ``e.name`` (or, with ``e.rolls``, every group's sum at once)."""
    d = s.disputes.get(e.name)
    if d is None:
        raise Refused(_("no pending dice-off for {name}").format(name=e.name))
    if e.rolls:
        _all_at_once(rules, s, d, e, out)
        return
    if not two_dice(e.dice):
        raise Refused(_("a dice-off roll is two dice, each 1-6"))
    if e.group not in d.groups:
        raise Refused(_("group {group} is not in the dice-off for {name} (groups: {groups})").format(
            group=e.group, name=e.name, groups=", ".join(d.groups)))
    if e.group in d.rolls:
        raise Refused(_("group {group} rolled {sum} in the dice-off for {name} already").format(
            group=e.group, sum=d.rolls[e.group], name=e.name))
    if e.group not in d.rolling:
        raise Refused(_("the dice-off for {name} is rolled again by groups {groups} only (a tie)").format(
            name=e.name, groups=", ".join(d.rolling)))
    d.rolls[e.group] = sum(e.dice)
    out.amount, out.tell = 0, ""  # a roll on the way is nobody's message; the result is told
    out.message = _("{group} rolled {sum} in the dice-off for {name}").format(
        group=e.group, sum=sum(e.dice), name=e.name)
    if set(d.rolls) != set(d.rolling):
        return
    top = max(d.rolls.values())
    best = [g for g in d.rolling if d.rolls[g] == top]
    if len(best) > 1:  # the tied groups roll again
        d.round, d.rolls = best, {}
        out.message += " " + _("(tie: {groups} roll again)").format(groups=", ".join(best))
        return
    _settle(rules, s, d, best[0], e, out)


def _all_at_once(rules: LedgerRules, s: LedgerState, d: Dispute, e: Event, out: Outcome) -> None:
    rolls = dict(e.rolls)
    for g, v in e.rolls:
        if v not in TWO_DICE and out.strict:
            raise Refused(_("dice-off roll {group}={sum}: two dice sum 2 to 12").format(group=g, sum=v))
    need = set(d.groups)
    if set(rolls) != need or len(rolls) != len(e.rolls):
        raise Refused(_("dice-off for {station}: give the roll of each of groups {groups}").format(
            station=e.name, groups=", ".join(sorted(need))))
    top = max(rolls.values())
    best = [g for g, v in rolls.items() if v == top]
    if len(best) > 1:
        raise Refused(_("dice-off for {station}: groups {groups} tie with {top}: roll again").format(
            station=e.name, groups=", ".join(sorted(best)), top=top))
    _settle(rules, s, d, best[0], e, out)


def _settle(rules: LedgerRules, s: LedgerState, d: Dispute, winner: str, e: Event, out: Outcome) -> None:
    """The winner buys the station (the first holder gets back what it paid, cash or the kept card); variant B's
    losers owe no fee for that stop (§7.2)."""
    key = next(k for k, h in s.holdings.items() if h.name == e.name)
    h = s.writable(*key)
    if winner != h.owner:
        require_cash(s, winner, h.price, e.name)
        move(s, out, BANK, h.owner, h.paid)  # the first buyer gets back what it paid
        give_back(s, h.owner, h.card)  # ... or the kept card it paid with
        move(s, out, winner, BANK, h.price)
        h.owner, h.paid, h.card = winner, h.price, None
    for loser in d.groups:
        if loser != winner:
            s.exempt[(loser, e.name)] = d.time
    del s.disputes[e.name]
    out.amount, out.tell = h.price, tell_of(rules.audience.get("diceoff", "none"))
    out.message = render(rules, "diceoff", group=winner, time=e.time, name=e.name)
