"""Who owes what for a stop at a station, a toll line or a tunnel (pure; §9.3, §11.2, §12.2, §6, §7.2, §7.3)."""

from __future__ import annotations

from planner.ledger import capital as cap
from planner.ledger.model import STATION, TOLL_LINE, Holding, LedgerState
from planner.ledger.money_rules import LedgerRules

EXEMPT_BEFORE = 3600  # (variant B §7.2) the loser's stop at the station: up to this long before the dice-off


def effective_level(rules: LedgerRules, state: LedgerState, h: Holding) -> int:
    """§7.3: houses count only where the owner holds a complete letter group with the station in it (a station
    bought with houses from another group carries them without effect until then)."""
    if h.level == 0 or h.kind != STATION:
        return h.level
    return h.level if h.name in cap.buildable(rules, state, h.owner) else 0


def exempt(rules: LedgerRules, state: LedgerState, group: str, name: str, time: int | None) -> bool:
    """Variant B §7.2: the loser of a dice-off owes no fee for the stop at which it decided to buy."""
    if rules.diceoff_loser_pays or time is None:
        return False
    lost = state.exempt.get((group, name))
    return lost is not None and lost - EXEMPT_BEFORE < time < lost + 60


def fee_due(rules: LedgerRules, s: LedgerState, group: str, kind: str, name: str,
            dice: tuple[int, ...] = (), time: int | None = None, *,
            strict: bool = True) -> tuple[str, int | None, int] | None:
    """The fee ``group`` owes for being at / travelling ``name``: ``(owner, amount, multiplier)``, or None when
    nothing is owed (unowned, own, mortgaged, pending dice-off, an owner who is out, §6). A tunnel without dice:
    amount None. With the stop's ``time``: nothing before the owner's purchase, nor for the stop a variant-B
    dice-off loser decided to buy at. Not ``strict``: an owner who is out is paid all the same (a fee recorded under
    older rules)."""
    h = s.holding(kind, name)
    if h is None or h.owner == group or h.mortgaged or name in s.disputes or h.owner in s.out and strict:
        return None
    if time is not None and (time < h.time // 60 * 60 or exempt(rules, s, group, name, time)):
        return None
    if kind == STATION:
        return h.owner, rules.station_fee(h.price, effective_level(rules, s, h)), 0
    count = len(s.owned(h.owner, kind))
    if kind == TOLL_LINE:
        return h.owner, rules.toll_fee(count), 0
    mult = rules.tunnel_multiplier(count)
    return h.owner, (mult * sum(dice) if dice else None), mult
