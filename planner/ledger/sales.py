"""Selling a station to another group (§7.3; pure): the owner offers it for an agreed amount, the buyer accepts.

Toll lines and tunnels are not sold, nor a mortgaged station; houses and hotels go with the station and count only
where the new owner holds a complete letter group with it (:func:`planner.ledger.dues.effective_level`). The offer
is told to the buyer, the sale to every group.
"""

from __future__ import annotations

from dataclasses import replace

from planner.ledger.messages import render
from planner.ledger.model import STATION, Event, LedgerState, Offer
from planner.ledger.money_rules import LedgerRules
from planner.ledger.moves import Outcome, Refused, held, label, move, require_cash, require_no_mortgage
from planner.util.i18n import _, format_amount
from planner.util.timefmt import fmt_clock


def sell(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    """Offer a station to group ``e.to`` for ``e.amount`` (the offer's number is the event's)."""
    if e.target != STATION:
        raise Refused(_("only stations are sold (§7.3), not the {what} {name}").format(
            what=label(e.target), name=e.name))
    h = held(s, e.group, STATION, e.name)
    if h.mortgaged:
        raise Refused(_("{name} is mortgaged: redeem it before selling it (§10)").format(name=e.name))
    if e.name in s.disputes:
        raise Refused(_("{name} is in a pending dice-off (§7.2): it cannot be sold").format(name=e.name))
    if e.to == e.group:
        raise Refused(_("group {group} cannot sell {name} to itself").format(group=e.group, name=e.name))
    if e.to not in s.cash:
        raise Refused(_("no group {to} in this game").format(to=e.to))
    if e.to in s.out:
        raise Refused(_("group {to} is out (§6): it buys nothing").format(to=e.to))
    if not 0 <= e.amount <= 10_000_000:
        raise Refused(_("the amount of a sale is 0 to 10,000,000, not {amount}").format(amount=format_amount(e.amount)))
    s.offers[out.seq] = Offer(out.seq, e.group, e.to, e.name, e.amount, e.time)
    out.amount = e.amount
    out.tell = e.to
    out.message = render(rules, "sell", group=e.group, time=e.time, name=e.name, other=e.to, amount=e.amount)


def accept(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    """The buyer accepts offer ``e.ref``: it pays the seller and owns the station from then on."""
    o = s.offers.get(e.ref)
    if o is None:
        raise Refused(_("there is no sale offer #{offer}").format(offer=e.ref))
    if o.buyer != e.group:
        raise Refused(_("offer #{offer} is made to group {buyer}, not to group {group}").format(
            offer=o.seq, buyer=o.buyer, group=e.group))
    if o.accepted is not None:
        raise Refused(_("offer #{offer} was accepted already at {time}").format(
            offer=o.seq, time=fmt_clock(o.accepted)))
    if e.time < o.time:
        raise _too_early(o.seq, o.time)
    h = s.holding(STATION, o.name)
    if h is None or h.owner != o.seller or h.mortgaged or o.name in s.disputes:
        raise Refused(_("offer #{offer} lapsed: {name} is no longer group {seller}'s to sell").format(
            offer=o.seq, name=o.name, seller=o.seller))
    require_no_mortgage(rules, s, e.group, "buy")
    require_cash(s, e.group, o.amount, o.name)
    move(s, out, e.group, o.seller, o.amount)
    h = s.writable(STATION, o.name)
    s.orders += 1
    h.owner, h.order, h.time, h.seller, h.paid = e.group, s.orders, e.time, o.seller, o.amount
    s.offers[o.seq] = replace(o, accepted=e.time)
    out.amount = o.amount
    out.message = render(rules, "accept", group=e.group, time=e.time, name=o.name, other=o.seller,
                         amount=o.amount)


def _too_early(offer: int, made: int) -> Refused:
    return Refused(_("offer #{offer} was made at {time}: it cannot be accepted before").format(
        offer=offer, time=fmt_clock(made)))


def accepted_before_offer(e: Event, offer: Event | None) -> Refused | None:
    """The refusal of accepting ``e`` (decided before ``offer``, the sale event its ``ref`` names): replayed in
    decision-time order it comes before the offer, whose absence then is not the reason."""
    if e.kind == "accept" and offer is not None and offer.kind == "sell" and e.time < offer.time:
        return _too_early(e.ref, offer.time)
    return None
