"""What every ledger rule shares (pure): a refusal, an event's outcome, moving money, the checks before a voluntary
payment, and looking up a group's holding."""

from __future__ import annotations

from dataclasses import dataclass, field

from planner.errors import InputError
from planner.ledger.model import (
    BANK,
    PARKING,
    STATION,
    TOLL_LINE,
    TUNNEL,
    Event,
    Holding,
    LedgerState,
    Transfer,
)
from planner.ledger.money_rules import LedgerRules
from planner.util.i18n import _, format_amount


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
    undone: str = ""  # (a replay in decision-time order) why the event no longer applies; it moved nothing
    refusal: InputError | None = None  # ... the refusal itself
    seq: int = 0  # the event's number in the day's log (a sale offer is known by it)
    strict: bool = True  # False replaying events accepted once: the checks a log of older rules may fail are off


def label(kind: str) -> str:
    """What a holding kind is called in a sentence."""
    return {STATION: _("station"), TOLL_LINE: _("toll line"), TUNNEL: _("tunnel")}.get(kind, kind)


def move(state: LedgerState, out: Outcome, payer: str, payee: str, amount: int) -> None:
    """Move ``amount`` from ``payer`` to ``payee`` (a group, the bank or the free parking), noted in ``out``."""
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


def require_cash(state: LedgerState, group: str, cost: int, what: str) -> None:
    """A voluntary payment needs the cash (§10: nothing is bought on a mortgage of the moment)."""
    cash = state.cash.get(group, 0)
    if cost > cash:
        raise Refused(_("group {group} has {cash} in cash, {what} costs {cost} (mortgage first, §10)").format(
            group=group, cash=format_amount(cash), what=what, cost=format_amount(cost)))


def require_no_mortgage(rules: LedgerRules, state: LedgerState, group: str, what: str) -> None:
    """Variant B §10: nothing is bought while a holding of the group is mortgaged."""
    if rules.buy_while_mortgaged:
        return
    locked = [h.name for h in state.owned(group) if h.mortgaged]
    if locked:
        said = (_("group {group} may not build while {names} is mortgaged: redeem first (§10)") if what == "build" else
                _("group {group} may not buy while {names} is mortgaged: redeem first (§10)"))
        raise Refused(said.format(group=group, names=", ".join(locked)))


def held(state: LedgerState, group: str, kind: str, name: str) -> Holding:
    """The group's holding ``name`` (refused when it is not the group's)."""
    h = state.holding(kind, name)
    if h is None or h.owner != group:
        said = (_("{what} {name} belongs to group {owner}, not group {group}") if h else
                _("{what} {name} is not owned by anyone, not group {group}"))
        raise Refused(said.format(what=label(kind), name=name, owner=h.owner if h else "", group=group))
    return h


def tell_of(audience: str) -> str:
    """The ``tell`` of an event from the game file's audience (``owner``: filled in by the fee)."""
    return {"all": "*", "none": ""}.get(audience, "owner")


def decided(rules: LedgerRules, e: Event) -> int:
    """When an event counts in the day (§19, docs/rules.md §3b): its decision's time, but a purchase reported more
    than the §13 minutes late counts from its report (nobody claims a station hours later)."""
    if e.kind == "buy" and e.reported is not None and rules.late_minutes \
            and e.reported - e.time > rules.late_minutes * 60:
        return e.reported
    return e.time
