"""The ledger's rules: check one event against the state, compute its amounts, apply it (pure).

:func:`apply` never mutates its input: it returns the new state with the money moved (``transfers``),
the §19 message and who must be told. A refused event raises :class:`Refused` (a one-line InputError,
exit 2) naming the reason, e.g. the owner of a station already bought.
"""

from __future__ import annotations

from planner.errors import DamagedState
from planner.ledger import capital as cap
from planner.ledger import jail as jails
from planner.ledger.cards import card_event, draw, play
from planner.ledger.diceoff import diceoff, two_dice
from planner.ledger.dues import exempt, fee_due
from planner.ledger.messages import build_items, late_suffix, render
from planner.ledger.model import BANK, PARKING, STATION, TUNNEL, Event, LedgerState
from planner.ledger.moves import (
    Outcome,
    Refused,
    held,
    label,
    move,
    require_cash,
    require_no_mortgage,
    tell_of,
)
from planner.ledger.purchase import buy
from planner.ledger.rules import EVENT_KINDS, LedgerRules
from planner.ledger.sales import accept, sell
from planner.util.i18n import _
from planner.util.timefmt import fmt_clock

__all__ = ["AlreadyPaid", "Outcome", "Refused", "apply", "fee_due", "replay"]


class AlreadyPaid(Refused):
    """The fee of that stop was paid (by another phone of the group, or a tap again): a stop's fee is paid once."""


def apply(rules: LedgerRules, state: LedgerState, event: Event, *, inplace: bool = False, seq: int = 0,
          strict: bool = True) -> Outcome:
    """Check ``event`` against ``state`` and return its outcome (new state, money moved, message).

    ``inplace`` (replays) changes ``state`` itself instead of a copy: a refused event may then have changed part of
    it (the ordered replay starts again from the events before it); ``seq`` is the event's number in the log.
    Not ``strict`` (replaying events accepted once): the checks a log recorded under older rules may fail are off
    (a mortgage with cash, a stop's fee paid twice or to a group out, a dice-off sum beyond two dice).
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
    out = Outcome(event=e, state=new, tell=tell_of(rules.audience.get(e.kind, "none")), seq=seq, strict=strict)
    late = lateness(rules, e)
    _HANDLERS[e.kind](rules, new, e, out)
    if late and e.kind in ("buy", "fee") and rules.late_penalty_percent and not out.pending:
        out.late_minutes = late
        out.penalty = out.amount * rules.late_penalty_percent // 100
        to = PARKING if e.kind == "buy" else (out.owner or PARKING)
        move(new, out, e.group, to, out.penalty)
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


def lateness(rules: LedgerRules, e: Event) -> int:
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
    move(s, out, BANK, e.group, rules.start_cash)
    out.message = render(rules, "join", group=e.group, time=e.time, amount=out.amount)


def _build(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    if not e.levels:
        raise Refused("build: name at least one station and its new number of houses")
    require_no_mortgage(rules, s, e.group, "build")
    ok = cap.buildable(rules, s, e.group)
    cost = 0
    for name, level in e.levels:
        h = held(s, e.group, STATION, name)
        if name not in ok:
            raise Refused(f"{name} is not in a complete letter group of group {e.group} "
                          f"({rules.group_size} stations with the initial {h.letter}, §8)")
        if h.mortgaged or name in s.disputes:
            raise Refused(f"{name} is {'mortgaged' if h.mortgaged else 'in a pending dice-off'}: no building")
        if not h.level < level <= rules.hotel_level:
            raise Refused(f"{name} has {h.level} house(s): the new total must be {h.level + 1} to "
                          f"{rules.hotel_level} ({rules.hotel_level} = hotel)")
        cost += (level - h.level) * h.price
    require_cash(s, e.group, cost, "building")
    for name, level in e.levels:
        s.writable(STATION, name).level = level
    out.amount = cost
    move(s, out, e.group, BANK, cost)
    out.message = render(rules, "build", group=e.group, time=e.time, items=build_items(rules, e.levels))


def _mortgage(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    h = held(s, e.group, e.target, e.name)
    if h.mortgaged:
        raise Refused(f"{e.name} is already mortgaged")
    cash = s.cash.get(e.group, 0)
    if cash >= 0 and out.strict:  # §10: "wenn das Bargeld nicht mehr ausreicht um eine unfreiwillige Zahlung zu tätigen"
        raise Refused(_("group {group} has {cash} in cash: a holding is mortgaged only when the cash does not "
                        "cover a fee, tax or card it paid (§10)").format(group=e.group, cash=cash))
    h = s.writable(h.kind, h.name)
    h.mortgaged = True
    out.amount = cap.mortgage_credit(rules, h)
    move(s, out, BANK, e.group, out.amount)
    out.message = render(rules, "mortgage", group=e.group, time=e.time, name=e.name, amount=out.amount)


def _redeem(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    h = held(s, e.group, e.target, e.name)
    if not h.mortgaged:
        raise Refused(f"{e.name} is not mortgaged")
    cost = cap.redeem_cost(rules, h)
    require_cash(s, e.group, cost, f"redeeming {e.name}")
    h = s.writable(h.kind, h.name)
    h.mortgaged = False
    out.amount = cost
    move(s, out, e.group, BANK, cost)
    out.message = render(rules, "redeem", group=e.group, time=e.time, name=e.name, amount=cost)


def _fee(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    if e.target == TUNNEL and not two_dice(e.dice):
        raise Refused(f"tunnel fee for {e.name}: give the two dice (each 1-6), e.g. --dice 3,4")
    h = s.holding(e.target, e.name)
    if h is None:
        raise Refused(f"nobody owns {label(e.target)} {e.name}: no fee (it can be bought)")
    if h.owner == e.group:
        raise Refused(f"{e.name} belongs to group {e.group} itself: no fee")
    stop = (e.group, e.target, e.name, e.time // 60)
    if stop in s.fees_paid and out.strict:
        raise AlreadyPaid(_("group {group} paid the fee of {name} at {time} already: a stop's fee is paid once").format(
            group=e.group, name=e.name, time=fmt_clock(e.time)))
    if out.strict and exempt(rules, s, e.group, e.name, e.time):
        raise Refused(_("group {group} lost the dice-off for {name}: no fee for that stop (§7.2)").format(
            group=e.group, name=e.name))
    due = fee_due(rules, s, e.group, e.target, e.name, e.dice, strict=out.strict)
    if due is None:
        why = ("mortgaged (§10)" if h.mortgaged else "in a pending dice-off (§7.2)" if e.name in s.disputes
               else _("owned by group {owner}, which is out (§6)").format(owner=h.owner))
        raise Refused(f"{e.name} is {why}: no fee")
    owner, amount, _mult = due
    s.fees_paid[stop] = e.time
    out.owner, out.amount, out.tell = owner, int(amount or 0), owner if out.tell == "owner" else out.tell
    move(s, out, e.group, owner, out.amount)
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
    move(s, out, BANK, e.group, out.amount)
    out.message = render(rules, "income", group=e.group, time=e.time, amount=out.amount)


def _parking(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    amount = rules.payment(e.reason)
    if amount is None:
        raise Refused(f"no free-parking payment {e.reason!r} in this game (known: "
                      f"{', '.join([*rules.taxes, *rules.parking_payments]) or 'none'})")
    out.amount = amount
    move(s, out, e.group, PARKING, out.amount)
    if e.reason == "jail":  # §17 (variant A): paid out of a jail the group reported
        jails.leave(s, e.group, e.time, "paid")
    out.message = render(rules, "parking", group=e.group, time=e.time, amount=out.amount, total=s.parking)


def _parking_empty(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    """§18.1: two dice on boarding at a change; the game's sum takes the whole free parking. A miss is recorded
    too (nobody is told): one roll per change (``e.name``, ``e.ref``: where, and the minute the group got there).
    """
    if not two_dice(e.dice):
        raise Refused("emptying the free parking: give the two dice (each 1-6)")
    change = (e.group, e.name, e.ref or e.time // 60)
    if e.name and change in s.parking_rolls:
        raise Refused(_("group {group} rolled for the free parking at {name} ({time}) already: once per "
                        "change (§18.1)").format(group=e.group, name=e.name, time=fmt_clock(e.time)))
    s.parking_rolls.add(change)
    if sum(e.dice) != rules.parking_empty_sum:
        out.amount, out.tell = 0, ""
        out.message = _("{group} rolled {a}+{b} = {sum} for the free parking: only {want} empties it").format(
            group=e.group, a=e.dice[0], b=e.dice[1], sum=sum(e.dice), want=rules.parking_empty_sum)
        return
    out.amount = s.parking
    move(s, out, PARKING, e.group, out.amount)
    out.message = render(rules, "parking_empty", group=e.group, time=e.time, amount=out.amount)


_HANDLERS = {"join": _join, "buy": buy, "build": _build, "mortgage": _mortgage, "redeem": _redeem, "fee": _fee,
             "income": _income, "parking": _parking, "parking_empty": _parking_empty, "card": card_event,
             "diceoff": diceoff, "draw": draw, "play": play, "sell": sell, "accept": accept, "jail": jails.jail}


def replay(rules: LedgerRules, events: list[Event]) -> LedgerState:
    """The state after ``events`` in the order given (each already accepted once; a refused one here is a corrupt
    ledger)."""
    state = LedgerState()
    for i, e in enumerate(events, start=1):
        try:
            state = apply(rules, state, e, inplace=True, seq=i, strict=False).state
        except Refused as exc:
            raise DamagedState(f"ledger event {i} of the day ({e.kind} of group {e.group}) does not apply: {exc}"
                               ) from None
    return state
