"""The one declared schema of a game file (msgspec): every section, key, type and range.

Adding a key is one line in the section's struct (name, type with its range, default). Types are strict
(``true`` is not a number, ``"lots"`` is not a price), numbers are finite and bounded, lists that must
hold something say so. Rules that relate keys to each other (end after start, a dice target names a
toll line of the game) are checked in :mod:`planner.gamefile.game`.
"""

from __future__ import annotations

import math
import re
import types
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints

import msgspec
from msgspec import Meta

from planner.util.i18n import LANGUAGES

Name = Annotated[str, Meta(min_length=1, max_length=200)]
Text = Annotated[str, Meta(max_length=2000)]
Clock = Annotated[str, Meta(pattern=r"^\d{1,2}:\d{2}$")]
Money = Annotated[int, Meta(ge=0, le=10_000_000)]
Minutes = Annotated[int, Meta(ge=0, le=600)]
Lat = Annotated[float, Meta(ge=45.0, le=48.5)]  # in or near Switzerland: catches (lon, lat) order
Lon = Annotated[float, Meta(ge=5.0, le=11.5)]
Mode = Literal["rail", "bus", "tram", "boat", "cable", "metro", "other"]
Category = Literal["IC", "fast", "regional"]
DiceNumber = Annotated[int, Meta(ge=1, le=66)]
Names = Annotated[list[Name], Meta(max_length=10_000)]
Lang = Literal["de", "fr", "en"]
# a text players read, in the game's language or one per language (planner/util/local_text.py)
LocalName = Name | Annotated[dict[Lang, Name], Meta(min_length=1)]
LocalText = Text | Annotated[dict[Lang, Text], Meta(min_length=1)]


class _Section(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """A TOML table: unknown keys are errors."""


class GameSection(_Section):
    name: Name
    title: Name | None = None
    description: Text = ""
    # the language of every answer and document of the game unless the user chooses another (docs/i18n.md)
    language: Literal[LANGUAGES] | None = None  # the one list of languages
    # the paragraph numbers of this game's own rules that answers cite (planner/gamefile/game.py PARAGRAPHS)
    paragraphs: dict[Literal["walking", "change_window", "dice", "free_movement"], Name] = {}


class ClockSection(_Section):
    start: Clock
    end: Clock
    dice_from: Clock
    dice_forced_from: Clock | None = None


class RingPoint(_Section):
    name: Name
    lat: Lat
    lon: Lon
    uic: Annotated[str, Meta(max_length=20)] | Annotated[int, Meta(ge=0)] = ""


class AreaSection(_Section):
    ring: Annotated[list[RingPoint], Meta(max_length=10_000)] = []
    polygon: Annotated[list[tuple[Lat, Lon]], Meta(max_length=10_000)] = []
    ring_tolerance_m: Annotated[float, Meta(ge=0, le=5000)] = 300


class ExcludedRoute(_Section):
    agency: Name
    route: Name | Annotated[int, Meta(ge=0)]


class ModesSection(_Section):
    allowed: Annotated[list[Mode], Meta(min_length=1)]
    exclude_routes: list[ExcludedRoute] = []
    walking_links: Literal["none", "feed"] = "none"
    max_walk_minutes: Annotated[int, Meta(ge=0, le=60)] = 10


class TransfersSection(_Section):
    default_minutes: Annotated[float, Meta(ge=0, le=60)] = 2


class DiceTarget(_Section):
    number: DiceNumber
    stations: Annotated[list[Name], Meta(max_length=100)] = []
    toll_line: Name | None = None
    tunnel: Name | None = None


class DiceSection(_Section):
    targets: Annotated[list[DiceTarget], Meta(min_length=1, max_length=100)]
    dice: Literal[1, 2] = 1
    free_minutes: Annotated[int, Meta(ge=1, le=600)] = 60
    free_numbers: Annotated[list[DiceNumber], Meta(max_length=66)] = msgspec.field(default_factory=lambda: [6])
    admissible_extra_minutes: Annotated[int, Meta(ge=0, le=180)] = 0
    reroll_before_minutes: Annotated[int, Meta(ge=0, le=180)] = 0
    skip_targeted: bool = True


class BonusSection(_Section):
    base_fee: Money = 4000
    bonus_fee: Money = 8000
    minutes: Annotated[list[Annotated[int, Meta(ge=0, le=59)]], Meta(min_length=1, max_length=60)] = msgspec.field(default_factory=lambda: [0])
    event: Literal["seated", "any"] = "seated"
    # variant B §6 "effektiv oder nach Fahrplan": a real (predicted) time in a bonus minute earns it too
    effective: bool = False


Fees = Annotated[list[Money], Meta(min_length=1, max_length=100)]


class TollFeesSection(_Section):
    by_owner_count: Fees = msgspec.field(default_factory=lambda: [500, 1000, 2000, 4000])


class TunnelFeesSection(_Section):
    multiplier_by_owner_count: Fees = msgspec.field(default_factory=lambda: [80, 200])


class CrossingEntry(_Section):
    name: Name
    between: tuple[Name, Name]
    via: Annotated[list[Name], Meta(max_length=100)] = []
    price: Money = 0


class PricesSection(_Section):
    """Station prices: by category (variant A) or by an explicit list (variant B); every price has its default."""

    rule: Literal["category", "explicit"] = "category"
    IC: Money = 4000
    fast: Money = 2000
    regional: Money = 1000
    overrides: dict[Name, Money] = {}
    category_overrides: dict[Name, Category] = {}
    listed: Money = 4000
    listed_stations: Names = []
    station: Money = 2000
    bus_stop: Money = 1000
    house_fee_multipliers: Annotated[list[Annotated[float, Meta(ge=0, le=1000)]], Meta(min_length=2, max_length=20)] = \
        msgspec.field(default_factory=lambda: [0.25, 1, 2.5, 3, 4, 5])


class LettersSection(_Section):
    group_size: Annotated[int, Meta(ge=1, le=100)] = 3
    group_bonus: Money = 2000


class ZugzwangSection(_Section):
    applies: bool = True
    minutes: Annotated[int, Meta(ge=1, le=180)] = 29


class JailSection(_Section):
    # §17 (docs/rules.md §3 "Real time"): a train this late at a stop puts the group in jail there this long
    delay_minutes: Annotated[int, Meta(ge=1, le=120)] = 5
    minutes: Annotated[int, Meta(ge=0, le=240)] = 30


Audience = Literal["all", "owner", "none"]
Share = Annotated[float, Meta(ge=0, le=1)]


class CardEntry(_Section):
    key: Name
    deck: Name
    title: LocalName
    # keep: kept without an effect; out_of_jail, six (a roll turned into a 6) and free_station are kept until
    # played; jail: the group goes to jail at its next stop
    effect: Literal["bank_pays", "pay_parking", "per_building", "each_group_pays", "pay_each_group", "free_station",
                    "virtual_visit", "keep", "out_of_jail", "six", "jail"]
    amount: Money = 0
    per_house: Money = 0
    per_hotel: Money = 0
    station: Annotated[str, Meta(max_length=200)] = ""
    tell: Audience = "none"


class DeckEntry(_Section):
    # §14-§15: a deck of cards and what makes a group draw from it (shown on the group's page)
    name: Name
    title: LocalName | None = None  # as players read it (the name, a key of the cards' ``deck``, by default)
    trigger: LocalText = ""


class TaxEntry(_Section):
    # §16: a tax into the free parking; ``modes``: the modes it applies in (empty: every mode)
    key: Name
    title: LocalName
    amount: Money
    modes: Annotated[list[Mode], Meta(max_length=7)] = []


class LedgerSection(_Section):
    """The money side (planner/ledger/money_rules.py): start cash, mortgages, parking, messages, cards. These defaults
    are the only ones: a limit or penalty that the file does not set does not exist."""

    start_cash: Money = 20000
    mortgage_share: Share = 0.5
    redeem_share: Share = 0.5
    buy_while_mortgaged: bool = True
    redeem_asap: bool = False
    parking_empty_sum: Annotated[int, Meta(ge=2, le=12)] = 5
    parking_payments: dict[Name, Money] = {}
    early_minutes: Minutes = 0
    late_minutes: Minutes = 0
    late_penalty_percent: Annotated[int, Meta(ge=0, le=100)] = 0
    audience: dict[Name, Audience] = {}
    messages: dict[Name, LocalText] = {}
    cards: Annotated[list[CardEntry], Meta(max_length=200)] = []
    decks: Annotated[list[DeckEntry], Meta(max_length=20)] = []
    taxes: Annotated[list[TaxEntry], Meta(max_length=20)] = []
    diceoff_loser_pays: bool = True


class GameDoc(_Section):
    """A whole game file."""

    game: GameSection
    clock: ClockSection
    area: AreaSection
    modes: ModesSection
    dice: DiceSection
    transfers: TransfersSection = TransfersSection()
    bonus: BonusSection = BonusSection()
    toll_fees: TollFeesSection = TollFeesSection()
    tunnel_fees: TunnelFeesSection = TunnelFeesSection()
    toll_lines: Annotated[list[CrossingEntry], Meta(max_length=100)] = []
    tunnels: Annotated[list[CrossingEntry], Meta(max_length=100)] = []
    prices: PricesSection = PricesSection()
    letters: LettersSection = LettersSection()
    zugzwang: ZugzwangSection | None = None
    jail: JailSection = JailSection()
    ledger: LedgerSection = LedgerSection()


class SchemaError(ValueError):
    """A document that does not fit :class:`GameDoc`: ``key`` (dotted path) and ``message``."""

    def __init__(self, key: str, message: str):
        super().__init__(f"key '{key}': {message}")
        self.key, self.message = key, message


def validate(doc: dict[str, Any]) -> GameDoc:
    """The document as a :class:`GameDoc`, or a :class:`SchemaError` naming the key."""
    try:
        return msgspec.convert(doc, GameDoc, strict=True)
    except msgspec.ValidationError as exc:
        raise _explain(str(exc), doc) from None


_AT = re.compile(r"^(?P<msg>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.S)
_UNKNOWN = re.compile(r"Object contains unknown field `(?P<field>[^`]*)`")
_MISSING = re.compile(r"Object missing required field `(?P<field>[^`]*)`")


def _explain(text: str, doc: dict[str, Any]) -> SchemaError:
    m = _AT.match(text)
    assert m is not None  # the pattern matches any text
    msg, path = m.group("msg"), (m.group("path") or "").replace("[...]", "").lstrip(".")
    unknown, missing = _UNKNOWN.match(msg), _MISSING.match(msg)
    if unknown:
        key = ".".join(p for p in (path, unknown.group("field")) if p)
        known = ", ".join(sorted(_fields_at(path)))
        return SchemaError(key, f"unknown {'section' if not path else 'key'} (known: {known})")
    if missing:
        key = ".".join(p for p in (path, missing.group("field")) if p)
        return SchemaError(key, f"missing {'section' if not path else 'key'}")
    value = _value_at(doc, path)
    if isinstance(value, float) and not math.isfinite(value):
        return SchemaError(path, f"{value} is not a finite number")
    for word, plain in (("`", ""), (" | null", ""), ("object", "a table"), ("array", "a list"), ("str", "text")):
        msg = msg.replace(word, plain)
    shown = repr(value)
    if value is not _NOTHING and len(shown) <= 60 and ", got " not in msg:
        msg += f" (got {shown})"
    return SchemaError(path or "(file)", msg[0].lower() + msg[1:])


_NOTHING = object()


def _value_at(doc: Any, path: str) -> Any:
    cur = doc
    for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", path):
        try:
            cur = cur[int(index)] if index else cur[name]
        except (KeyError, IndexError, TypeError, ValueError):
            return _NOTHING
    return cur


def _fields_at(path: str) -> list[str]:
    """Keys the schema knows at ``path`` (``""`` = the top level)."""
    typ: Any = GameDoc
    for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", path):
        typ = _struct_of(typ)
        if typ is None:
            return []
        typ = get_type_hints(typ, include_extras=True)[name] if name else typ
        if index:
            typ = _item_of(typ)
    typ = _struct_of(typ)
    return list(typ.__struct_fields__) if typ is not None else []


def _unwrap(typ: Any) -> Any:
    while get_origin(typ) is Annotated:
        typ = get_args(typ)[0]
    return typ


def _struct_of(typ: Any) -> type[msgspec.Struct] | None:
    typ = _unwrap(typ)
    if get_origin(typ) in (Union, types.UnionType):  # ``X | None``
        typ = next((_unwrap(a) for a in get_args(typ) if a is not type(None)), None)
    return typ if isinstance(typ, type) and issubclass(typ, msgspec.Struct) else None


def _item_of(typ: Any) -> Any:
    typ = _unwrap(typ)
    args = get_args(typ)
    return args[0] if args else None
