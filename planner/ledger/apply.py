"""The ledger's rules: check one event against the state, compute its amounts, apply it (pure).

:func:`apply` never mutates its input: it returns the new state with the money moved (``transfers``),
the §19 message and who must be told. A refused event raises :class:`Refused` (a one-line InputError,
exit 2) naming the reason, e.g. the owner of a station already bought.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from planner.errors import DamagedState, InputError
from planner.ledger import capital as cap
from planner.ledger.messages import build_items, late_suffix, render
from planner.ledger.model import (
    BANK,
    PARKING,
    STATION,
    TOLL_LINE,
    TUNNEL,
    Dispute,
    Event,
    Holding,
    LedgerState,
    Transfer,
)
from planner.ledger.rules import EVENT_KINDS, LedgerRules
from planner.util.timefmt import fmt_clock


class Refused(InputError):
    """An event the rules do not allow (the message says why)."""


@dataclass
class Outcome:
    """What one event did."""

    event: Event
    state: LedgerState
    transfers: list[Transfer] = field(default_factory=list)
    amount: int = 0  # the event's main amount (price, fee, income, ...)
    message: str = ""
    tell: str = ""  # "*" all other groups, a group (the owner paid), "" nobody
    late_minutes: int = 0
    penalty: int = 0
    pending: bool = False  # §7.2: recorded as a pending dice-off, not (yet) a purchase
    owner: str | None = None  # fee: who was paid


def _label(kind: str) -> str:
    return {STATION: "station", TOLL_LINE: "toll line", TUNNEL: "tunnel"}.get(kind, kind)


def _move(state: LedgerState, out: Outcome, payer: str, payee: str, amount: int) -> None:
    if amount == 0 or payer == payee:
        return
    for who, delta in ((payer, -amount), (payee, amount)):
        if who == BANK:
            state.bank += delta
        elif who == PARKING:
            state.parking += delta
        else:
            state.cash[who] = state.cash.get(who, 0) + delta
    out.transfers.append(Transfer(payer, payee, amount))


def _require_cash(state: LedgerState, group: str, cost: int, what: str) -> None:
    cash = state.cash.get(group, 0)
    if cost > cash:
        raise Refused(f"group {group} has {cash} in cash, {what} costs {cost} (mortgage first, §10)")


def _require_no_mortgage(rules: LedgerRules, state: LedgerState, group: str, what: str) -> None:
    if rules.buy_while_mortgaged:
        return
    locked = [h.name for h in state.owned(group) if h.mortgaged]
    if locked:
        raise Refused(f"group {group} may not {what} while {', '.join(locked)} is mortgaged: redeem first (§10)")


def _held(state: LedgerState, group: str, kind: str, name: str) -> Holding:
    h = state.holding(kind, name)
    if h is None or h.owner != group:
        owner = f"belongs to group {h.owner}" if h else "is not owned by anyone"
        raise Refused(f"{_label(kind)} {name} {owner}, not group {group}")
    return h


def apply(rules: LedgerRules, state: LedgerState, event: Event, *, inplace: bool = False) -> Outcome:
    """Check ``event`` against ``state`` and return its outcome (new state, money moved, message).

    ``inplace`` (replays of accepted events only) changes ``state`` itself instead of a copy.
    """
    e = event
    if e.kind not in EVENT_KINDS:
        raise Refused(f"unknown ledger event {e.kind!r}")
    if e.kind != "join":
        if e.group not in state.cash:
            raise Refused(f"group {e.group} has not joined the game")
        if e.group in state.out:
            raise Refused(f"group {e.group} is out since {fmt_clock(state.out[e.group])} (§6: debts)")
        if not rules.start <= e.time <= rules.end:
            raise Refused(f"time {fmt_clock(e.time)} is outside the game ({fmt_clock(rules.start)}-"
                          f"{fmt_clock(rules.end)})")
    new = state if inplace else state.fork()
    out = Outcome(event=e, state=new, tell=_tell(rules.audience.get(e.kind, "none")))
    late = _lateness(rules, e)
    _HANDLERS[e.kind](rules, new, e, out)
    if late and e.kind in ("buy", "fee") and rules.late_penalty_percent and not out.pending:
        out.late_minutes = late
        out.penalty = out.amount * rules.late_penalty_percent // 100
        to = PARKING if e.kind == "buy" else (out.owner or PARKING)
        _move(new, out, e.group, to, out.penalty)
        out.message += late_suffix(rules, late, out.penalty, "P" if to == PARKING else "B")
    elif late:
        out.late_minutes = late
    if e.kind in ("buy", "fee") and e.target == STATION and e.name in new.visits.get(e.group, ()) \
            and not out.pending:
        new.visits[e.group].remove(e.name)  # the card's visit is used up
    for g in sorted({t.payer for t in out.transfers} - {BANK, PARKING}):
        if g not in new.out and cap.is_broke(rules, new, g):
            new.out[g] = e.time
    return out


def _tell(audience: str) -> str:
    return {"all": "*", "none": ""}.get(audience, "owner")


def _lateness(rules: LedgerRules, e: Event) -> int:
    """Minutes late beyond the §13 limit (0: in time); refuses a message sent too early."""
    if e.reported is None or e.kind in ("join", "income"):
        return 0
    if rules.early_minutes and e.time - e.reported > rules.early_minutes * 60:
        raise Refused(f"a message sent at {fmt_clock(e.reported)} for {fmt_clock(e.time)} is more than "
                      f"{rules.early_minutes} minutes early: invalid (§13)")
    minutes = (e.reported - e.time) // 60
    return minutes if rules.late_minutes and minutes > rules.late_minutes else 0


def _join(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    if e.group in s.cash:
        raise Refused(f"group {e.group} has already joined")
    s.cash[e.group] = 0
    out.amount = rules.start_cash
    _move(s, out, BANK, e.group, rules.start_cash)
    out.message = render(rules, "join", group=e.group, time=e.time, amount=out.amount)


def _price(rules: LedgerRules, e: Event) -> int:
    if e.target == STATION:
        if e.price <= 0:
            raise Refused(f"station {e.name}: no purchase price")
        return e.price
    prices = rules.toll_prices if e.target == TOLL_LINE else rules.tunnel_prices if e.target == TUNNEL else None
    if prices is None:
        raise Refused(f"cannot buy a {e.target!r}: station, toll_line or tunnel")
    if e.name not in prices:
        raise Refused(f"{_label(e.target)} {e.name!r} is not one of this game's: {', '.join(prices) or 'none'}")
    return prices[e.name]


def _buy(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    price = _price(rules, e)
    out.message = render(rules, "buy", group=e.group, time=e.time, name=e.name)
    h = s.holding(e.target, e.name)
    if h is not None:
        if h.owner == e.group:
            raise Refused(f"{_label(e.target)} {e.name} already belongs to group {e.group}")
        if h.time // 60 == e.time // 60 and h.level == 0:
            d = s.disputes.setdefault(e.name, Dispute(e.name, h.time, h.owner))
            if e.group not in d.challengers:
                d.challengers.append(e.group)
            out.pending = True
            out.message += " (same minute as group " + h.owner + ": dice-off, §7.2)"
            return
        raise Refused(f"{_label(e.target)} {e.name} belongs to group {h.owner} (bought {fmt_clock(h.time)}): "
                      "pay the fee instead")
    _require_no_mortgage(rules, s, e.group, "buy")
    free = e.target == STATION and s.free_station.get(e.group, 0) > 0
    cost = 0 if free else price
    _require_cash(s, e.group, cost, f"{e.name}")
    if free:
        s.free_station[e.group] -= 1
    s.orders += 1
    s.holdings[(e.target, e.name)] = Holding(e.target, e.name, e.group, price, e.time, s.orders, e.letter,
                                             paid=cost)
    out.amount = cost
    _move(s, out, e.group, BANK, cost)


def _build(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    if not e.levels:
        raise Refused("build: name at least one station and its new number of houses")
    _require_no_mortgage(rules, s, e.group, "build")
    ok = cap.buildable(rules, s, e.group)
    cost = 0
    for name, level in e.levels:
        h = _held(s, e.group, STATION, name)
        if name not in ok:
            raise Refused(f"{name} is not in a complete letter group of group {e.group} "
                          f"({rules.group_size} stations with the initial {h.letter}, §8)")
        if h.mortgaged or name in s.disputes:
            raise Refused(f"{name} is {'mortgaged' if h.mortgaged else 'in a pending dice-off'}: no building")
        if not h.level < level <= rules.hotel_level:
            raise Refused(f"{name} has {h.level} house(s): the new total must be {h.level + 1} to "
                          f"{rules.hotel_level} ({rules.hotel_level} = hotel)")
        cost += (level - h.level) * h.price
    _require_cash(s, e.group, cost, "building")
    for name, level in e.levels:
        s.writable(STATION, name).level = level
    out.amount = cost
    _move(s, out, e.group, BANK, cost)
    out.message = render(rules, "build", group=e.group, time=e.time, items=build_items(rules, e.levels))


def _mortgage(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    h = _held(s, e.group, e.target, e.name)
    if h.mortgaged:
        raise Refused(f"{e.name} is already mortgaged")
    h = s.writable(h.kind, h.name)
    h.mortgaged = True
    out.amount = cap.mortgage_credit(rules, h)
    _move(s, out, BANK, e.group, out.amount)
    out.message = render(rules, "mortgage", group=e.group, time=e.time, name=e.name, amount=out.amount)


def _redeem(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    h = _held(s, e.group, e.target, e.name)
    if not h.mortgaged:
        raise Refused(f"{e.name} is not mortgaged")
    cost = cap.redeem_cost(rules, h)
    _require_cash(s, e.group, cost, f"redeeming {e.name}")
    h = s.writable(h.kind, h.name)
    h.mortgaged = False
    out.amount = cost
    _move(s, out, e.group, BANK, cost)
    out.message = render(rules, "redeem", group=e.group, time=e.time, name=e.name, amount=cost)


def fee_due(rules: LedgerRules, s: LedgerState, group: str, kind: str, name: str,
            dice: tuple[int, ...] = ()) -> tuple[str, int | None, int] | None:
    """The fee ``group`` owes for being at / travelling ``name``: ``(owner, amount, multiplier)``, or None
    when nothing is owed (unowned, own, mortgaged, pending dice-off). A tunnel without dice: amount None."""
    h = s.holding(kind, name)
    if h is None or h.owner == group or h.mortgaged or name in s.disputes:
        return None
    if kind == STATION:
        return h.owner, rules.station_fee(h.price, h.level), 0
    count = len(s.owned(h.owner, kind))
    if kind == TOLL_LINE:
        return h.owner, rules.toll_fee(count), 0
    mult = rules.tunnel_multiplier(count)
    return h.owner, (mult * sum(dice) if dice else None), mult


def _fee(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    if e.target == TUNNEL and (len(e.dice) != 2 or not all(1 <= d <= 6 for d in e.dice)):
        raise Refused(f"tunnel fee for {e.name}: give the two dice (each 1-6), e.g. --dice 3,4")
    h = s.holding(e.target, e.name)
    if h is None:
        raise Refused(f"nobody owns {_label(e.target)} {e.name}: no fee (it can be bought)")
    if h.owner == e.group:
        raise Refused(f"{e.name} belongs to group {e.group} itself: no fee")
    due = fee_due(rules, s, e.group, e.target, e.name, e.dice)
    if due is None:
        why = "mortgaged (§10)" if h.mortgaged else "in a pending dice-off (§7.2)"
        raise Refused(f"{e.name} is {why}: no fee")
    owner, amount, _ = due
    out.owner, out.amount, out.tell = owner, int(amount or 0), owner if out.tell == "owner" else out.tell
    _move(s, out, e.group, owner, out.amount)
    out.message = render(rules, "fee", group=e.group, time=e.time, name=e.name, amount=out.amount)


def _income(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    if e.time % 3600:
        raise Refused(f"income is due at full hours, not at {fmt_clock(e.time)}")
    if e.time <= rules.start:
        raise Refused(f"the first income is due at the first full hour after the start ({fmt_clock(rules.start)})")
    if (e.group, e.time) in s.incomes:
        raise Refused(f"group {e.group} already had its income of {fmt_clock(e.time)}")
    s.incomes.add((e.group, e.time))
    out.amount = rules.income_bonus if e.bonus else rules.income_base
    _move(s, out, BANK, e.group, out.amount)
    out.message = render(rules, "income", group=e.group, time=e.time, amount=out.amount)


def _parking(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    if e.reason not in rules.parking_payments:
        raise Refused(f"no free-parking payment {e.reason!r} in this game (known: "
                      f"{', '.join(rules.parking_payments) or 'none'})")
    out.amount = rules.parking_payments[e.reason]
    _move(s, out, e.group, PARKING, out.amount)
    out.message = render(rules, "parking", group=e.group, time=e.time, amount=out.amount, total=s.parking)


def _parking_empty(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    if len(e.dice) != 2 or not all(1 <= d <= 6 for d in e.dice):
        raise Refused("emptying the free parking: give the two dice (each 1-6)")
    if sum(e.dice) != rules.parking_empty_sum:
        raise Refused(f"dice {e.dice[0]}+{e.dice[1]} = {sum(e.dice)}: only {rules.parking_empty_sum} "
                      "empties the free parking (§18.1)")
    out.amount = s.parking
    _move(s, out, PARKING, e.group, out.amount)
    out.message = render(rules, "parking_empty", group=e.group, time=e.time, amount=out.amount)


def _card(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    card = rules.cards.get(e.card)
    if card is None:
        raise Refused(f"no card {e.card!r} in this game (known: {', '.join(rules.cards) or 'none'})")
    others = [g for g in sorted(s.cash) if g != e.group and g not in s.out]
    if card.effect == "bank_pays":
        out.amount = card.amount
        _move(s, out, BANK, e.group, card.amount)
    elif card.effect == "pay_parking":
        out.amount = card.amount
        _move(s, out, e.group, PARKING, card.amount)
    elif card.effect == "per_building":
        held = s.owned(e.group, STATION)
        houses = sum(h.level for h in held if h.level < rules.hotel_level)
        hotels = sum(1 for h in held if h.level >= rules.hotel_level)
        out.amount = houses * card.per_house + hotels * card.per_hotel
        _move(s, out, e.group, PARKING, out.amount)
    elif card.effect == "each_group_pays":
        out.amount = card.amount
        for g in others:
            _move(s, out, g, e.group, card.amount)
    elif card.effect == "pay_each_group":
        out.amount = card.amount
        for g in others:
            _move(s, out, e.group, g, card.amount)
    elif card.effect == "free_station":
        s.free_station[e.group] = s.free_station.get(e.group, 0) + 1
    elif card.effect == "virtual_visit":
        s.visits.setdefault(e.group, []).append(card.station)
    out.tell = "*" if card.tell == "all" else ""
    text = render(rules, "card", group=e.group, time=e.time, title=f"{card.deck} {card.title}",
                  amount=out.amount or "")
    out.message = text + (f" P total {s.parking}" if card.effect in ("pay_parking", "per_building") else "")


def _diceoff(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    d = s.disputes.get(e.name)
    if d is None:
        raise Refused(f"no pending dice-off for {e.name}")
    rolls = dict(e.rolls)
    need = {d.holder, *d.challengers}
    if set(rolls) != need:
        raise Refused(f"dice-off for {e.name}: give the roll of each of groups {', '.join(sorted(need))}")
    top = max(rolls.values())
    best = [g for g, v in rolls.items() if v == top]
    if len(best) > 1:
        raise Refused(f"dice-off for {e.name}: groups {', '.join(sorted(best))} tie with {top}: roll again")
    winner = best[0]
    key = next(k for k, h in s.holdings.items() if h.name == e.name)
    h = s.writable(*key)
    if winner != h.owner:
        _require_cash(s, winner, h.price, e.name)
        _move(s, out, BANK, h.owner, h.paid)  # the first buyer gets back what it paid
        _move(s, out, winner, BANK, h.price)
        h.owner, h.paid = winner, h.price
    del s.disputes[e.name]
    out.amount = h.price
    out.message = render(rules, "diceoff", group=winner, time=e.time, name=e.name)


_HANDLERS = {"join": _join, "buy": _buy, "build": _build, "mortgage": _mortgage, "redeem": _redeem, "fee": _fee,
             "income": _income, "parking": _parking, "parking_empty": _parking_empty, "card": _card,
             "diceoff": _diceoff}


def replay(rules: LedgerRules, events: list[Event]) -> LedgerState:
    """The state after ``events`` (each already accepted once; a refused one here is a corrupt ledger)."""
    state = LedgerState()
    for i, e in enumerate(events, start=1):
        try:
            state = apply(rules, state, e, inplace=True).state
        except Refused as exc:
            raise DamagedState(f"ledger event {i} of the day ({e.kind} of group {e.group}) does not apply: {exc}"
                               ) from None
    return state
