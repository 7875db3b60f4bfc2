"""The ledger's rules: check one event against the state, compute its amounts, apply it (pure).

:func:`apply` never mutates its input: it returns the new state with the money moved (``transfers``),
the §19 message and who must be told. A refused event raises :class:`Refused` (a one-line InputError,
exit 2) naming the reason, e.g. the owner of a station already bought.
"""

from __future__ import annotations

from planner.errors import DamagedState
from planner.ledger import capital as cap
from planner.ledger import reported_jail as jails
from planner.ledger.cards import card_event, draw, play
from planner.ledger.diceoff import diceoff, two_dice
from planner.ledger.dues import exempt, fee_due
from planner.ledger.messages import build_items, late_suffix, render
from planner.ledger.model import BANK, PARKING, STATION, TUNNEL, Event, LedgerState
from planner.ledger.money_rules import EVENT_KINDS, LedgerRules
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
from planner.ledger.sales import accept, sell
from planner.util.i18n import _, format_amount, ngettext
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
        raise Refused(_("unknown ledger event {kind!r}").format(kind=e.kind))
    if e.kind != "join":
        # the time first: every group is in the game from its start (RULES.md §3b), so an event before the start
        # is outside the game, not one of a group that has not joined
        if not rules.start <= e.time <= rules.end:
            raise Refused(_("time {time} is outside the game ({start}-{end})").format(
                time=fmt_clock(e.time), start=fmt_clock(rules.start), end=fmt_clock(rules.end)))
        if e.group not in state.cash:
            raise Refused(_("group {group} has not joined the game").format(group=e.group))
        check_playing(state, e.group)
        check_in_game(rules, e.time)
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


def check_playing(state: LedgerState, group: str) -> None:
    """Refuse anything of a group that is out (§6: it plays no further: no event, no roll, no plan)."""
    if group in state.out:
        raise Refused(_("group {group} is out since {time} (§6: debts)").format(group=group,
                                                                              time=fmt_clock(state.out[group])))


def check_in_game(rules: LedgerRules, t: int) -> None:
    """Refuse a time outside the game's hours (an event, a message sent): nothing happens before the start or
    after the end."""
    if not rules.start <= t <= rules.end:
        raise Refused(_("time {time} is outside the game ({start}-{end})").format(
            time=fmt_clock(t), start=fmt_clock(rules.start), end=fmt_clock(rules.end)))


def lateness(rules: LedgerRules, e: Event) -> int:
    """Minutes late beyond the §13 limit (0: in time); refuses a message sent too early."""
    if e.reported is None or e.kind in ("join", "income"):
        return 0
    if rules.early_minutes and e.time - e.reported > rules.early_minutes * 60:
        raise Refused(_("a message sent at {reported} for {time} is more than {minutes} minutes early: invalid "
                        "(§13)").format(reported=fmt_clock(e.reported), time=fmt_clock(e.time),
                                        minutes=rules.early_minutes))
    minutes = (e.reported - e.time) // 60
    return minutes if rules.late_minutes and minutes > rules.late_minutes else 0


def _join(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    if e.group in s.cash:
        raise Refused(_("group {group} has already joined").format(group=e.group))
    s.cash[e.group] = 0
    out.amount = rules.start_cash
    move(s, out, BANK, e.group, rules.start_cash)
    out.message = render(rules, "join", group=e.group, time=e.time, amount=out.amount)


def _build(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    if not e.levels:
        raise Refused(_("build: name at least one station and its new number of houses"))
    require_no_mortgage(rules, s, e.group, "build")
    ok = cap.buildable(rules, s, e.group)
    cost = 0
    for name, level in e.levels:
        h = held(s, e.group, STATION, name)
        if name not in ok:
            raise Refused(_("{name} is not in a complete letter group of group {group} ({size} stations with the "
                            "initial {letter}, §8)").format(name=name, group=e.group, size=rules.group_size,
                                                            letter=h.letter))
        if h.mortgaged or name in s.disputes:
            raise Refused((_("{name} is mortgaged: no building") if h.mortgaged else
                           _("{name} is in a pending dice-off: no building")).format(name=name))
        if not h.level < level <= rules.hotel_level:
            raise Refused(ngettext("{name} has {n} house: the new total must be {least} to {most} ({most} = hotel)",
                                   "{name} has {n} houses: the new total must be {least} to {most} ({most} = hotel)",
                                   h.level).format(name=name, n=h.level, least=h.level + 1, most=rules.hotel_level))
        cost += (level - h.level) * h.price
    require_cash(s, e.group, cost, _("building"))
    for name, level in e.levels:
        s.writable(STATION, name).level = level
    out.amount = cost
    move(s, out, e.group, BANK, cost)
    out.message = render(rules, "build", group=e.group, time=e.time, items=build_items(rules, e.levels))


def _mortgage(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    h = held(s, e.group, e.target, e.name)
    if h.mortgaged:
        raise Refused(_("{name} is already mortgaged").format(name=e.name))
    cash = s.cash.get(e.group, 0)
    if cash >= 0 and out.strict:  # §10: "wenn das Bargeld nicht mehr ausreicht um eine unfreiwillige Zahlung zu tätigen"
        raise Refused(_("group {group} has {cash} in cash: a holding is mortgaged only when the cash does not "
                        "cover a fee, tax or card it paid (§10)").format(group=e.group, cash=format_amount(cash)))
    h = s.writable(h.kind, h.name)
    h.mortgaged = True
    out.amount = cap.mortgage_credit(rules, h)
    move(s, out, BANK, e.group, out.amount)
    out.message = render(rules, "mortgage", group=e.group, time=e.time, name=e.name, amount=out.amount)


def _redeem(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    h = held(s, e.group, e.target, e.name)
    if not h.mortgaged:
        raise Refused(_("{name} is not mortgaged").format(name=e.name))
    cost = cap.redeem_cost(rules, h)
    require_cash(s, e.group, cost, _("redeeming {name}").format(name=e.name))
    h = s.writable(h.kind, h.name)
    h.mortgaged = False
    out.amount = cost
    move(s, out, e.group, BANK, cost)
    out.message = render(rules, "redeem", group=e.group, time=e.time, name=e.name, amount=cost)


def _fee(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    if e.target == TUNNEL and not two_dice(e.dice):
        raise Refused(_("tunnel fee for {name}: give the two dice (each 1-6), e.g. --dice 3,4").format(name=e.name),
                      phone=_("tunnel fee for {name}: give the two dice (each 1-6)").format(name=e.name))
    h = s.holding(e.target, e.name)
    if h is None:
        raise Refused(_("nobody owns {what} {name}: no fee (it can be bought)").format(what=label(e.target), name=e.name))
    if h.owner == e.group:
        raise Refused(_("{name} belongs to group {group} itself: no fee").format(name=e.name, group=e.group))
    stop = (e.group, e.target, e.name, e.time // 60)
    if stop in s.fees_paid and out.strict:
        raise AlreadyPaid(_("group {group} paid the fee of {name} at {time} already: a stop's fee is paid once").format(
            group=e.group, name=e.name, time=fmt_clock(e.time)))
    if out.strict and exempt(rules, s, e.group, e.name, e.time):
        raise Refused(_("group {group} lost the dice-off for {name}: no fee for that stop (§7.2)").format(
            group=e.group, name=e.name))
    due = fee_due(rules, s, e.group, e.target, e.name, e.dice, strict=out.strict)
    if due is None:
        said = (_("{name} is mortgaged (§10): no fee") if h.mortgaged else
                _("{name} is in a pending dice-off (§7.2): no fee") if e.name in s.disputes else
                _("{name} is owned by group {owner}, which is out (§6): no fee"))
        raise Refused(said.format(name=e.name, owner=h.owner))
    owner, amount, _mult = due
    s.fees_paid[stop] = e.time
    out.owner, out.amount, out.tell = owner, int(amount or 0), owner if out.tell == "owner" else out.tell
    move(s, out, e.group, owner, out.amount)
    out.message = render(rules, "fee", group=e.group, time=e.time, name=e.name, amount=out.amount)


def _income(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    if e.time % 3600:
        raise Refused(_("income is due at full hours, not at {time}").format(time=fmt_clock(e.time)))
    if e.time <= rules.start:
        raise Refused(_("the first income is due at the first full hour after the start ({start})").format(
            start=fmt_clock(rules.start)))
    if (e.group, e.time) in s.incomes:
        raise Refused(_("group {group} already had its income of {time}").format(group=e.group, time=fmt_clock(e.time)))
    s.incomes.add((e.group, e.time))
    out.amount = rules.income_bonus if e.bonus else rules.income_base
    move(s, out, BANK, e.group, out.amount)
    out.message = render(rules, "income", group=e.group, time=e.time, amount=out.amount)


def _parking(rules: LedgerRules, s: LedgerState, e: Event, out: Outcome) -> None:
    amount = rules.payment(e.reason)
    if amount is None:
        raise Refused(_("no free-parking payment {reason!r} in this game (known: {known})").format(
            reason=e.reason, known=", ".join([*rules.taxes, *rules.parking_payments]) or "-"))
    if e.reason in rules.taxes:  # §16: one stop, one compartment is one tax, whichever phone reports it
        once = (e.group, e.reason, e.trip, e.time // 60)
        if once in s.taxes_paid and out.strict:
            raise Refused(_("group {group} paid {tax} at {time} already (in this train): once per stop").format(
                group=e.group, tax=rules.taxes[e.reason].title, time=fmt_clock(e.time)))
        s.taxes_paid.add(once)
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
        raise Refused(_("emptying the free parking: give the two dice (each 1-6)"))
    change = (e.group, e.name, e.ref or e.time // 60)
    # where the group's day does not say where it stands, its minute is the change: two phones tapping at once
    if (e.name or out.strict) and change in s.parking_rolls:
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
