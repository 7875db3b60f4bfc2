"""Buying a station, toll line or tunnel (§7, §11.1, §12.1; pure): the price, who owns it first (the earlier
decision, a same-minute decision a dice-off, §7.2), and a free purchase by a card."""

from __future__ import annotations

from planner.ledger.messages import note, render
from planner.ledger.model import BANK, STATION, TOLL_LINE, TUNNEL, Dispute, Event, Holding, LedgerState
from planner.ledger.money_rules import LedgerRules
from planner.ledger.moves import Outcome, Refused, decided, label, move, require_cash, require_no_mortgage
from planner.util.i18n import _
from planner.util.timefmt import fmt_clock


def price_of(rules: LedgerRules, e: Event) -> int:
    """The purchase price of the event's station (filled in by the service), toll line or tunnel."""
    if e.target == STATION:
        if e.price <= 0:
            raise Refused(_("station {name}: no purchase price").format(name=e.name))
        return e.price
    prices = rules.toll_prices if e.target == TOLL_LINE else rules.tunnel_prices if e.target == TUNNEL else None
    if prices is None:
        raise Refused(_("cannot buy a {kind!r}: station, toll_line or tunnel").format(kind=e.target))
    if e.name not in prices:
        raise Refused(_("{what} {name!r} is not one of this game's: {known}").format(
            what=label(e.target), name=e.name, known=", ".join(prices) or "-"))
    return prices[e.name]


def free_card(rules: LedgerRules, s: LedgerState, group: str) -> str | None:
    """The kept card that makes the group's next station free (a drawn one first), "" for one of the old
    ``card`` events (a count), None: none."""
    key = next((k for k in s.held.get(group, ()) if rules.cards[k].effect == "free_station"), None)
    if key is not None:
        return key
    return "" if s.free_station.get(group, 0) > 0 else None


def buy(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome, *, card: str | None = None) -> None:
    """§7: buy what nobody owns; refused when owned (pay the fee instead), recorded as a pending dice-off when
    another group decided in the same minute (§7.2). ``card``: the kept card played to get the station free."""
    price = price_of(rules, e)
    out.message = render(rules, "buy", group=e.group, time=e.time, name=e.name)
    when = decided(rules, e)  # a purchase reported too late counts from its report
    h = s.holding(e.target, e.name)
    if h is not None:
        if h.owner == e.group:
            raise Refused(_("{what} {name} already belongs to group {group}").format(what=label(e.target), name=e.name,
                                                                                       group=e.group))
        dispute = s.disputes.get(e.name)
        if dispute is not None and e.group in dispute.groups and out.strict:
            raise Refused(_("group {group} is in the dice-off for {name} already (§7.2)").format(
                group=e.group, name=e.name))
        if h.time // 60 == when // 60 and h.level == 0 and not h.seller:
            d = s.disputes.setdefault(e.name, Dispute(e.name, h.time, h.owner))
            if e.group not in d.groups:
                d.challengers.append(e.group)
            out.pending = True
            out.message += note(rules, "diceoff_note", owner=h.owner)
            return
        raise Refused(_("{what} {name} belongs to group {owner} (bought {time}): pay the fee instead").format(
            what=label(e.target), name=e.name, owner=h.owner, time=fmt_clock(h.time)))
    require_no_mortgage(rules, s, e.group, "buy")
    if card is None and e.target == STATION:
        card = free_card(rules, s, e.group)
    free = e.target == STATION and card is not None
    cost = 0 if free else price
    require_cash(s, e.group, cost, f"{e.name}")
    if free and card:
        s.held[e.group].remove(card)
    elif free:
        s.free_station[e.group] -= 1
    s.orders += 1
    s.holdings[(e.target, e.name)] = Holding(e.target, e.name, e.group, price, when, s.orders, e.letter,
                                             paid=cost, card=card if free else None)
    out.amount = cost
    move(s, out, e.group, BANK, cost)


def give_back(s: LedgerState, group: str, card: str | None) -> None:
    """The kept card :func:`buy` spent on a station held by ``group`` again (a dice-off it lost, §7.2); None:
    the station was paid in cash."""
    if card:
        s.held.setdefault(group, []).append(card)
    elif card == "":
        s.free_station[group] = s.free_station.get(group, 0) + 1
