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
from functools import cached_property

from planner.errors import GameFileError
from planner.gamefile.game import Game
from planner.ledger.kinds import KINDS
from planner.util.i18n import N_
from planner.util.local_text import LocalText, local_text

# the ledger's event kinds: those told (planner/ledger/kinds.py, as recorded) and those the ledger makes itself
EVENT_KINDS = tuple(dict.fromkeys(("join", *(k.recorded_as for k in KINDS), "jail")))
# each kind as a reader names it (translated where shown: a correction names the voided event)
EVENT_NAMES = {"join": N_("start money"), "buy": N_("purchase"), "build": N_("building"), "mortgage": N_("mortgage"),
               "redeem": N_("redemption"), "fee": N_("fee"), "income": N_("income"), "parking": N_("parking payment"),
               "parking_empty": N_("free parking emptied"), "card": N_("card"), "diceoff": N_("dice-off"),
               "draw": N_("card drawn"), "play": N_("card played"), "sell": N_("sale offer"),
               "accept": N_("sale accepted"), "jail": N_("jail")}

# The fields each message may name (what planner/ledger/messages.py fills in), and a value of each one's type.
MESSAGE_FIELDS: dict[str, tuple[str, ...]] = {
    "buy": ("group", "time", "name"), "fee": ("group", "time", "name", "amount"),
    "build": ("group", "time", "items"), "parking": ("group", "time", "amount", "total"),
    "parking_empty": ("group", "time", "amount"), "mortgage": ("group", "time", "name", "amount"),
    "redeem": ("group", "time", "name", "amount"), "income": ("group", "time", "amount"),
    "diceoff": ("group", "time", "name"), "join": ("group", "time", "amount"),
    "card": ("group", "time", "title", "amount"), "late": ("minutes", "penalty", "to"),
    "play": ("group", "time", "title"), "sell": ("group", "time", "name", "other", "amount"),
    "accept": ("group", "time", "name", "other", "amount"), "jail": ("group", "time", "name"),
    # what every group is told besides the events: a purchase in the same minute as another group's (§7.2), an
    # event voided by the organisers (``what``: its own message; ``changes``: later amounts that change)
    "diceoff_note": ("owner",), "void": ("time", "seq", "what", "reason"),
    "void_changes": ("time", "seq", "what", "reason", "changes"),
}
_SAMPLES: dict[str, tuple[object, ...]] = {
    "group": ("1",), "time": ("9.10",), "name": ("Zug",), "items": ("H Zug",), "title": ("Chance x",),
    "to": ("P",), "amount": (4000, ""), "total": (4000,), "minutes": (12,), "penalty": (400,), "other": ("2",),
    "owner": ("Blau",), "seq": (6,), "what": ("Gelb Zug B 4000",), "reason": ("doppelt gemeldet",),
    "changes": ("#9 4000 -> 2000",),
}
MAX_MESSAGE = 400  # characters of one rendered message (an SMS is 160)
_WIDTH = re.compile(r"\d+")

DEFAULT_MESSAGES = {
    "buy": "{group}K {time} {name}", "fee": "{group} {name} B {amount}", "build": "{group} {time} {items}",
    "parking": "{group}P {amount} P total {total}", "parking_empty": "{group} P leer {amount}",
    "mortgage": "{group}V {name}", "redeem": "{group} {name} zurück", "income": "{group} Honorar {amount}",
    "diceoff": "{group} {name} Würfeln gewonnen", "join": "{group} Start {amount}",
    "card": "{group} {title} {amount}", "late": " (verspätet {minutes} Min.: +{penalty} {to})",
    # not in the seeds' §19 codes (ours, in their style): a card played, a sale offered and accepted, a jail
    "play": "{group} {title}", "sell": "{group} {name} an {other} {amount}",
    "accept": "{group}K {time} {name} von {other} {amount}", "jail": "{group} Gefängnis {name}",
    "diceoff_note": " (gleiche Minute wie Gruppe {owner}: Würfeln um den Bahnhof, §7.2)",
    "void": "{time} Korrektur: #{seq} {what} storniert ({reason})",
    "void_changes": "{time} Korrektur: #{seq} {what} storniert ({reason}); neu {changes}",
}


@dataclass(frozen=True)
class Card:
    """One Kanzlei/Chance card (variant B): what it does to money, and whether others are told."""

    key: str
    deck: str
    title: LocalText
    effect: str
    amount: int = 0
    per_house: int = 0
    per_hotel: int = 0
    station: str = ""  # virtual_visit: the station the group may buy or pay at without going there
    tell: str = "none"

    @property
    def kept(self) -> bool:
        """A card the group keeps until it plays it (out of jail, a roll turned into a 6, the next station
        free, or kept without an effect)."""
        return self.effect in KEPT_EFFECTS


KEPT_EFFECTS = ("keep", "out_of_jail", "six", "free_station")


@dataclass(frozen=True)
class Deck:
    """A deck of cards (§14-§15): its name, what makes a group draw, its cards' keys."""

    name: str
    trigger: LocalText
    cards: tuple[str, ...]
    title: LocalText | None = None  # as players read it (None: the name)

    @property
    def shown(self) -> LocalText:
        """The deck's name in the reader's language (its title, else its name)."""
        return self.title if self.title is not None else local_text(self.name, None)


@dataclass(frozen=True)
class Tax:
    """A tax into the free parking (§16): ``modes`` it applies in (empty: every mode)."""

    key: str
    title: LocalText
    amount: int
    modes: tuple[str, ...] = ()


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
    messages: dict[str, LocalText]  # §13/§19 templates, rendered in ``language`` (planner/ledger/messages.py)
    cards: dict[str, Card]
    decks: dict[str, Deck]
    taxes: dict[str, Tax]
    jail_delay: int  # §17: minutes late that put a group in jail
    jail_minutes: int  # §17: how long it stays
    diceoff_loser_pays: bool  # §7.2: the loser of a dice-off owes the fee of that stop (variant B: not)
    language: str | None = None  # the game's: the language of the §19 messages every group is sent

    def payment(self, reason: str) -> int | None:
        """A fixed payment into the free parking: a tax (§16) or the way out of jail (§17); None: unknown."""
        tax = self.taxes.get(reason)
        return tax.amount if tax is not None else self.parking_payments.get(reason)

    @property
    def hotel_level(self) -> int:
        """The top building level (a hotel = that many houses, §9.1)."""
        return len(self.fee_multipliers) - 1

    def station_fee(self, price: int, level: int) -> int:
        """§9.3: the fee at a station of ``price`` with ``level`` houses (hotel = top level)."""
        fees = self._fees
        fee = fees.get((price, level))
        if fee is None:
            fee = fees[(price, level)] = int(self.fee_multipliers[level] * price)
        return fee

    @cached_property
    def _fees(self) -> dict[tuple[int, int], int]:
        # the fees worked out so far, by (price, level): exact fractions are slow, and a day's fees ask the same
        # few prices again and again (a cache keyed by the multipliers would hash every fraction each time)
        return {}

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


def ledger_rules(game: Game) -> LedgerRules:
    """The money rules of ``game``, from its declared ``[ledger]`` section (the schema holds every default;
    errors name the game file and the key)."""
    raw = game.ledger
    audience = {k: "none" for k in EVENT_KINDS}
    for k, v in raw.audience.items():
        if k not in EVENT_KINDS:
            raise _fail(game, f"audience.{k}", f"unknown event (known: {', '.join(EVENT_KINDS)})")
        audience[k] = v
    messages = {k: local_text(v, game.language) for k, v in DEFAULT_MESSAGES.items()}
    for k, v in raw.messages.items():
        if k not in DEFAULT_MESSAGES:
            raise _fail(game, f"messages.{k}", f"unknown message (known: {', '.join(DEFAULT_MESSAGES)})")
        for lang, template in ([("", v)] if isinstance(v, str) else v.items()):
            why = check_template(k, template)
            if why:
                key = f"messages.{k}" + (f".{lang}" if lang else "")
                raise _fail(game, key, f"template {template[:60]!r}: {why}")
        messages[k] = local_text(v, game.language)
    cards: dict[str, Card] = {}
    for i, c in enumerate(raw.cards):
        if c.effect == "virtual_visit" and not c.station:
            raise _fail(game, f"cards[{i}].station", "a virtual_visit card names its station")
        if c.tell == "owner":
            raise _fail(game, f"cards[{i}].tell", "expected 'all' or 'none'")
        if c.key in cards:
            raise _fail(game, f"cards[{i}].key", f"card {c.key!r} appears twice")
        cards[c.key] = Card(c.key, c.deck, local_text(c.title, game.language), c.effect, c.amount, c.per_house,
                            c.per_hotel, c.station, c.tell)
    return _assemble(game, audience, messages, cards)


def _decks(game: Game, cards: dict[str, Card]) -> dict[str, Deck]:
    """The decks the game file declares, each with its cards (a card of an undeclared deck is an error)."""
    declared = {d.name: d for d in game.ledger.decks}
    for i, c in enumerate(game.ledger.cards):
        if declared and c.deck not in declared:
            raise _fail(game, f"cards[{i}].deck", f"deck {c.deck!r} is not declared (decks: {', '.join(declared)})")
    names = list(declared) or list(dict.fromkeys(c.deck for c in cards.values()))
    lang = game.language
    return {n: Deck(n, local_text(declared[n].trigger if n in declared else "", lang),
                    tuple(k for k, c in cards.items() if c.deck == n),
                    local_text(declared[n].title, lang) if n in declared and declared[n].title else None)
            for n in names}


def _taxes(game: Game) -> dict[str, Tax]:
    out: dict[str, Tax] = {}
    for i, t in enumerate(game.ledger.taxes):
        if t.key in out or t.key in game.ledger.parking_payments:
            raise _fail(game, f"taxes[{i}].key", f"{t.key!r} appears twice (taxes and parking_payments)")
        out[t.key] = Tax(t.key, local_text(t.title, game.language), t.amount, tuple(t.modes))
    return out


def _assemble(game: Game, audience: dict[str, str], messages: dict[str, str], cards: dict[str, Card]) -> LedgerRules:
    raw = game.ledger
    return LedgerRules(
        game=game.name, start=game.clock.start, end=game.clock.end,
        start_cash=raw.start_cash,
        income_base=game.bonus.base_fee, income_bonus=game.bonus.bonus_fee,
        group_size=game.letter_group_size, group_bonus=game.letter_group_bonus,
        fee_multipliers=tuple(Fraction(str(m)) for m in game.prices.house_fee_multipliers),
        toll_fees=tuple(int(x) for x in game.toll_fees) or (0,),
        tunnel_multipliers=tuple(int(x) for x in game.tunnel_multipliers) or (0,),
        toll_prices={c.name: c.price for c in game.toll_lines},
        tunnel_prices={c.name: c.price for c in game.tunnels},
        mortgage_share=Fraction(str(raw.mortgage_share)), redeem_share=Fraction(str(raw.redeem_share)),
        buy_while_mortgaged=raw.buy_while_mortgaged, redeem_asap=raw.redeem_asap,
        parking_empty_sum=raw.parking_empty_sum, parking_payments=dict(raw.parking_payments),
        early_minutes=raw.early_minutes, late_minutes=raw.late_minutes,
        late_penalty_percent=raw.late_penalty_percent,
        audience=audience, messages=messages, cards=cards, decks=_decks(game, cards), taxes=_taxes(game),
        jail_delay=game.jail.delay_minutes, jail_minutes=game.jail.minutes,
        diceoff_loser_pays=raw.diceoff_loser_pays, language=game.language,
    )
