"""The money rules of one game, read from its game file (pure: no I/O, variants are data).

Everything the ledger computes comes from here: start cash, prices of toll lines and tunnels, the fee
tables (§9.3, §11, §12), letter groups (§8), mortgage shares (§10), the free parking (§16-§18), the §13
message deadlines, the §19 message codes and the cards (variant B §14-§15). Station prices are not here:
they depend on the timetable (planner/game/prices.py) and reach the ledger inside the purchase event.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from planner.errors import GameFileError
from planner.gamefile.game import Game

EVENT_KINDS = ("join", "buy", "build", "mortgage", "redeem", "fee", "income", "parking", "parking_empty",
               "card", "diceoff")
AUDIENCES = ("all", "owner", "none")
CARD_EFFECTS = ("bank_pays", "pay_parking", "per_building", "each_group_pays", "pay_each_group", "free_station",
                "virtual_visit", "keep")
_CARD_KEYS = {"key", "deck", "title", "effect", "amount", "per_house", "per_hotel", "station", "tell"}

# The fields each message may name (what planner/ledger/messages.py fills in), and a value of each one's type.
MESSAGE_FIELDS: dict[str, tuple[str, ...]] = {
    "buy": ("group", "time", "name"), "fee": ("group", "time", "name", "amount"),
    "build": ("group", "time", "items"), "parking": ("group", "time", "amount", "total"),
    "parking_empty": ("group", "time", "amount"), "mortgage": ("group", "time", "name", "amount"),
    "redeem": ("group", "time", "name", "amount"), "income": ("group", "time", "amount"),
    "diceoff": ("group", "time", "name"), "join": ("group", "time", "amount"),
    "card": ("group", "time", "title", "amount"), "late": ("minutes", "penalty", "to"),
}
_SAMPLES: dict[str, tuple[object, ...]] = {
    "group": ("1",), "time": ("9.10",), "name": ("Zug",), "items": ("H Zug",), "title": ("Chance x",),
    "to": ("P",), "amount": (4000, ""), "total": (4000,), "minutes": (12,), "penalty": (400,),
}
MAX_MESSAGE = 400  # characters of one rendered message (an SMS is 160)
_WIDTH = re.compile(r"\d+")

DEFAULT_MESSAGES = {
    "buy": "{group}K {time} {name}", "fee": "{group} {name} B {amount}", "build": "{group} {time} {items}",
    "parking": "{group}P {amount} P total {total}", "parking_empty": "{group} P leer {amount}",
    "mortgage": "{group}V {name}", "redeem": "{group} {name} zurück", "income": "{group} Honorar {amount}",
    "diceoff": "{group} {name} Würfeln gewonnen", "join": "{group} Start {amount}",
    "card": "{group} {title} {amount}", "late": " (late {minutes} min: +{penalty} {to})",
}


@dataclass(frozen=True)
class Card:
    """One Kanzlei/Chance card (variant B): what it does to money, and whether others are told."""

    key: str
    deck: str
    title: str
    effect: str
    amount: int = 0
    per_house: int = 0
    per_hotel: int = 0
    station: str = ""  # virtual_visit: the station the group may buy or pay at without going there
    tell: str = "none"


@dataclass(frozen=True)
class LedgerRules:
    """The money rules of one game (built by :func:`ledger_rules` from the game file)."""

    game: str
    start: int  # game clock, seconds
    end: int
    start_cash: int
    income_base: int
    income_bonus: int
    group_size: int
    group_bonus: int
    fee_multipliers: tuple[Fraction, ...]  # by building level 0 (unbuilt) .. hotel
    toll_fees: tuple[int, ...]  # by the owner's count of toll lines
    tunnel_multipliers: tuple[int, ...]  # by the owner's count of tunnels
    toll_prices: dict[str, int]
    tunnel_prices: dict[str, int]
    mortgage_share: Fraction
    redeem_share: Fraction
    buy_while_mortgaged: bool
    redeem_asap: bool
    parking_empty_sum: int
    parking_payments: dict[str, int]
    early_minutes: int
    late_minutes: int
    late_penalty_percent: int
    audience: dict[str, str]
    messages: dict[str, str]
    cards: dict[str, Card]

    @property
    def hotel_level(self) -> int:
        """The top building level (a hotel = that many houses, §9.1)."""
        return len(self.fee_multipliers) - 1

    def station_fee(self, price: int, level: int) -> int:
        """§9.3: the fee at a station of ``price`` with ``level`` houses (hotel = top level)."""
        return int(self.fee_multipliers[level] * price)

    def toll_fee(self, owned: int) -> int:
        """§11.2: the toll fee when the owner holds ``owned`` toll lines (counts above the table: last entry)."""
        return int(self.toll_fees[min(owned, len(self.toll_fees)) - 1])

    def tunnel_multiplier(self, owned: int) -> int:
        """§12.2: the factor on the two dice when the owner holds ``owned`` tunnels."""
        return int(self.tunnel_multipliers[min(owned, len(self.tunnel_multipliers)) - 1])


def check_template(kind: str, template: str) -> str | None:
    """Why the message template for ``kind`` cannot be used (None: it can). Only the documented fields of
    that message, by name, with a format that fits their values and keeps the message short."""
    allowed = MESSAGE_FIELDS[kind]
    try:
        parts = list(string.Formatter().parse(template))
    except ValueError as exc:  # "{group K", a lone "}"
        return f"{exc}"
    for _, field, spec, conv in parts:
        if field is None:
            continue
        if field not in allowed:
            return f"unknown field {{{field}}} (known here: {', '.join('{' + a + '}' for a in allowed)})"
        if conv not in (None, "s", "r"):
            return f"{{{field}!{conv}}}: unknown conversion"
        if "{" in (spec or "") or any(int(w) > 40 for w in _WIDTH.findall(spec or "")):
            return f"{{{field}:{spec}}}: at most 40 wide, no nested fields"
    samples = [dict(zip(allowed, vals, strict=True)) for vals in _sample_rows(allowed)]
    for values in samples:
        try:
            text = template.format(**values)
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            return f"{exc}"
        if len(text) > MAX_MESSAGE:
            return f"renders {len(text)} characters (at most {MAX_MESSAGE})"
    return None


def _sample_rows(fields: tuple[str, ...]) -> list[tuple[object, ...]]:
    """Every combination of the sample values of ``fields`` (the card's amount may be a number or empty)."""
    rows: list[tuple[object, ...]] = [()]
    for f in fields:
        rows = [(*r, v) for r in rows for v in _SAMPLES[f]]
    return rows


def _fail(game: Game, key: str, msg: str) -> GameFileError:
    return GameFileError(f"game file {game.source}: key 'ledger.{key}': {msg}")


def _int(game: Game, raw: dict, key: str, default: int) -> int:
    v = raw.get(key, default)
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise _fail(game, key, f"expected a whole number >= 0, got {v!r}")
    return v


def _share(game: Game, raw: dict, key: str) -> Fraction:
    v = raw.get(key, 0.5)
    if isinstance(v, bool) or not isinstance(v, int | float) or not 0 <= v <= 1:
        raise _fail(game, key, f"expected a number 0..1, got {v!r}")
    return Fraction(str(v))


def _cards(game: Game, rows: Any) -> dict[str, Card]:
    if not isinstance(rows, list):
        raise _fail(game, "cards", "expected [[ledger.cards]] tables")
    out: dict[str, Card] = {}
    for i, r in enumerate(rows):
        where = f"cards[{i}]"
        if not isinstance(r, dict):
            raise _fail(game, where, "expected a table")
        extra = set(r) - _CARD_KEYS
        if extra:
            raise _fail(game, f"{where}.{sorted(extra)[0]}", f"unknown key (known: {', '.join(sorted(_CARD_KEYS))})")
        for k in ("key", "deck", "title", "effect"):
            if not isinstance(r.get(k), str) or not r[k]:
                raise _fail(game, f"{where}.{k}", "missing or not a text")
        if r["effect"] not in CARD_EFFECTS:
            raise _fail(game, f"{where}.effect", f"unknown effect {r['effect']!r} (known: {', '.join(CARD_EFFECTS)})")
        if r["effect"] == "virtual_visit" and not isinstance(r.get("station"), str):
            raise _fail(game, f"{where}.station", "a virtual_visit card names its station")
        if r.get("tell", "none") not in ("all", "none"):
            raise _fail(game, f"{where}.tell", "expected 'all' or 'none'")
        if r["key"] in out:
            raise _fail(game, f"{where}.key", f"card {r['key']!r} appears twice")
        out[r["key"]] = Card(r["key"], r["deck"], r["title"], r["effect"], _int(game, r, "amount", 0),
                             _int(game, r, "per_house", 0), _int(game, r, "per_hotel", 0), r.get("station", ""),
                             r.get("tell", "none"))
    return out


def ledger_rules(game: Game) -> LedgerRules:
    """The money rules of ``game`` (errors name the game file and the key)."""
    raw = game.ledger
    mult = game.prices.get("house_fee_multipliers", [0.25, 1, 2.5, 3, 4, 5])
    if not isinstance(mult, list) or len(mult) < 2:
        raise GameFileError(f"game file {game.source}: key 'prices.house_fee_multipliers': expected a list "
                            "(unbuilt, 1 house, ..., hotel)")
    audience = {k: "none" for k in EVENT_KINDS}
    for k, v in dict(raw.get("audience", {})).items():
        if k not in EVENT_KINDS or v not in AUDIENCES:
            raise _fail(game, f"audience.{k}", f"expected one of {', '.join(EVENT_KINDS)} = "
                                               f"{' | '.join(AUDIENCES)}")
        audience[k] = v
    messages = dict(DEFAULT_MESSAGES)
    for k, v in dict(raw.get("messages", {})).items():
        if k not in DEFAULT_MESSAGES or not isinstance(v, str):
            raise _fail(game, f"messages.{k}", f"unknown message (known: {', '.join(DEFAULT_MESSAGES)})")
        why = check_template(k, v)
        if why:
            raise _fail(game, f"messages.{k}", f"template {v[:60]!r}: {why}")
        messages[k] = v
    parking = dict(raw.get("parking_payments", {}))
    for k in parking:
        parking[k] = _int(game, parking, k, 0)
    return LedgerRules(
        game=game.name, start=game.start, end=game.end,
        start_cash=_int(game, raw, "start_cash", 20000),
        income_base=game.bonus_base_fee, income_bonus=game.bonus_fee,
        group_size=game.letter_group_size, group_bonus=game.letter_group_bonus,
        fee_multipliers=tuple(Fraction(str(m)) for m in mult),
        toll_fees=tuple(int(x) for x in game.toll_fees) or (0,),
        tunnel_multipliers=tuple(int(x) for x in game.tunnel_multipliers) or (0,),
        toll_prices={c.name: c.price for c in game.toll_lines},
        tunnel_prices={c.name: c.price for c in game.tunnels},
        mortgage_share=_share(game, raw, "mortgage_share"), redeem_share=_share(game, raw, "redeem_share"),
        buy_while_mortgaged=bool(raw.get("buy_while_mortgaged", True)), redeem_asap=bool(raw.get("redeem_asap", False)),
        parking_empty_sum=_int(game, raw, "parking_empty_sum", 5), parking_payments=parking,
        early_minutes=_int(game, raw, "early_minutes", 0), late_minutes=_int(game, raw, "late_minutes", 0),
        late_penalty_percent=_int(game, raw, "late_penalty_percent", 0),
        audience=audience, messages=messages, cards=_cards(game, raw.get("cards", [])),
    )
