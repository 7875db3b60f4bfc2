"""Letter groups (§8), capital (§5), debts (§6 "Schulden") and the end ranking (pure)."""

from __future__ import annotations

from planner.ledger.model import STATION, Holding, LedgerState
from planner.ledger.money_rules import LedgerRules


def letter_groups(rules: LedgerRules, state: LedgerState, group: str) -> list[list[Holding]]:
    """The group's building groups (§8, §8.1): per initial letter, its stations in purchase order cut
    into runs of ``group_size``; only full runs are returned (a fourth station starts a new, incomplete one)."""
    by_letter: dict[str, list[Holding]] = {}
    for h in state.owned(group, STATION):
        by_letter.setdefault(h.letter, []).append(h)
    out = []
    n = rules.group_size
    for letter in sorted(by_letter):
        stations = by_letter[letter]
        out += [stations[i:i + n] for i in range(0, len(stations) - n + 1, n)]
    return out


def buildable(rules: LedgerRules, state: LedgerState, group: str) -> set[str]:
    """Names of the group's stations that lie in a complete letter group (may carry houses)."""
    return {h.name for run in letter_groups(rules, state, group) for h in run}


def holding_value(rules: LedgerRules, h: Holding) -> int:
    """§5/§10: purchase value, mortgaged ones at the mortgage share (half)."""
    return int(h.value * rules.mortgage_share) if h.mortgaged else h.value


def mortgage_credit(rules: LedgerRules, h: Holding) -> int:
    """§10: what mortgaging ``h`` credits (half its purchase value, houses included)."""
    return int(h.value * rules.mortgage_share)


def redeem_cost(rules: LedgerRules, h: Holding) -> int:
    """§10: what redeeming ``h`` costs (half its purchase value)."""
    return int(h.value * rules.redeem_share)


def capital(rules: LedgerRules, state: LedgerState, group: str) -> dict:
    """§5: cash + purchase values (mortgaged at half) + group bonus per complete letter group."""
    cash = state.cash.get(group, 0)
    held = state.owned(group)
    values = sum(holding_value(rules, h) for h in held)
    groups = letter_groups(rules, state, group)
    bonus = rules.group_bonus * len(groups)
    return {"cash": cash, "holdings_value": values, "letter_groups": len(groups), "group_bonus": bonus,
            "capital": cash + values + bonus}


def is_broke(rules: LedgerRules, state: LedgerState, group: str) -> bool:
    """§6 "Schulden": the cash stays negative even after mortgaging everything still unmortgaged."""
    cash = state.cash.get(group, 0)
    if cash >= 0:
        return False
    still = sum(mortgage_credit(rules, h) for h in state.owned(group) if not h.mortgaged)
    return cash + still < 0


def ranking(rules: LedgerRules, state: LedgerState) -> list[dict]:
    """§5 end: groups by capital (highest first); groups out (§6) last, in order of going out (latest first).

    When only one group is not out, it wins whatever the capitals (§5 "die noch als einzige Geld hat").
    """
    rows = []
    for g in sorted(state.cash, key=_group_key):
        c = capital(rules, state, g)
        rows.append({"group": g, **c, "out": g in state.out})
    rows.sort(key=lambda r: (r["out"], -state.out.get(r["group"], 0), -r["capital"], _group_key(r["group"])))
    rank = 0
    prev = None
    for i, r in enumerate(rows, 1):
        key = (r["out"], r["capital"])
        if key != prev:
            rank = i
        prev = key
        r["rank"] = rank
    return rows


def _group_key(g: str) -> tuple[int, str]:
    return (int(g), "") if g.isdigit() else (1 << 30, g)
