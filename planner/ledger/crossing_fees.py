"""What a group owes for crossing a toll line or tunnel (docs/rules.md §2 §11-§12), at the rates of the ledger's
rules (:meth:`LedgerRules.toll_fee`, :meth:`LedgerRules.tunnel_multiplier`: the one place they live); pure."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from planner.gamefile.game import Crossing, Game
from planner.ledger.money_rules import ledger_rules
from planner.rail.crossings import CrossingHit, crossing_kind


class Fee(TypedDict):
    """What a group owes for one crossing (a plain dict, so it goes into JSON as it is).

    ``amount``: the fee (toll lines; tunnels when the dice sum is known), 0 when unowned, None for a
    tunnel without dice sum; ``multiplier``: the tunnel rate per dice point; ``text``: for display
    (``"500"``, ``"80 x dice"``, ``"200 x 7 = 1400"``, ``"not owned: no fee"``).
    """

    crossing: str
    kind: str
    owner: str | None
    owned_count: int
    amount: int | None
    multiplier: int | None
    text: str


def fee_for(game: Game, crossing: Crossing | CrossingHit | str, owners: Mapping[str, str | None],
            dice_sum: int | None = None) -> Fee:
    """The fee for crossing one toll line or tunnel of ``game`` (docs/rules.md §2 §11-§12).

    ``owners`` maps crossing names to their owner (group/player id; missing or None = unowned). Toll
    line fee: the ledger's toll fee for n = the toll lines that owner has; tunnel fee: its tunnel
    multiplier for n = the tunnels owned, times ``dice_sum`` (two dice, 2..12); without ``dice_sum`` the
    fee is the multiplier, shown as ``"80 x dice"``. Raises KeyError for a name that is no crossing of the game.
    """
    name = crossing if isinstance(crossing, str) else crossing.name
    c = game.crossing(name)
    if c is None:
        raise KeyError(f"{name!r} is not a toll line or tunnel of game {game.name}")
    kind = crossing_kind(game, c)
    is_tunnel = kind == "tunnel"
    owner = owners.get(name)
    if owner is None:
        return Fee(crossing=name, kind=kind, owner=None, owned_count=0, amount=0, multiplier=None,
                   text="not owned: no fee")
    same_kind = game.tunnels if is_tunnel else game.toll_lines
    count = sum(1 for x in same_kind if owners.get(x.name) == owner)
    table = game.tunnel_multipliers if is_tunnel else game.toll_fees
    if not table:
        return Fee(crossing=name, kind=kind, owner=owner, owned_count=count, amount=0, multiplier=None,
                   text="the game has no fee table")
    rules = ledger_rules(game)
    rate = rules.tunnel_multiplier(count) if is_tunnel else rules.toll_fee(count)
    if not is_tunnel:
        return Fee(crossing=name, kind=kind, owner=owner, owned_count=count, amount=rate, multiplier=None,
                   text=str(rate))
    if dice_sum is None:
        return Fee(crossing=name, kind=kind, owner=owner, owned_count=count, amount=None, multiplier=rate,
                   text=f"{rate} x dice")
    if not 2 <= int(dice_sum) <= 12:
        raise ValueError(f"dice_sum must be the sum of two dice (2..12), not {dice_sum}")
    amount = rate * int(dice_sum)
    return Fee(crossing=name, kind=kind, owner=owner, owned_count=count, amount=amount, multiplier=rate,
               text=f"{rate} x {int(dice_sum)} = {amount}")
