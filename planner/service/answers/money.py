"""The ledger's answers as typed values (msgspec Structs): what ``planner ledger ... --json`` prints and the phone's
ledger endpoints answer, key for key. Times are ``HH:MM``; a field left at ``UNSET`` is not in the JSON."""

from __future__ import annotations

from msgspec import UNSET, UnsetType

from planner.service.answers.base import Answer, Message
from planner.service.answers.group_status import ObligationState, PositionState


class _Answer(Answer, kw_only=True, omit_defaults=True):
    """The ledger's answers leave out what an event does not have (its fields' defaults)."""


class HoldingRow(_Answer, kw_only=True, omit_defaults=True):
    """A station, toll line or tunnel a group holds, with the fee it asks others now."""

    name: str
    price: int
    value: int
    mortgaged: bool
    bought: str
    letter: str | UnsetType = UNSET  # stations
    houses: int | UnsetType = UNSET
    code: str | UnsetType = UNSET
    in_letter_group: bool | UnsetType = UNSET
    fee: int | None | UnsetType = UNSET  # stations and toll lines (None: it asks none now)
    fee_multiplier: int | None | UnsetType = UNSET  # tunnels: per dice point


class GroupLedger(_Answer, kw_only=True, omit_defaults=True):
    """A group's money (``planner ledger status --group G``): cash, capital, holdings, what §10 asks of it."""

    group: str
    cash: int
    capital: int
    holdings_value: int
    group_bonus: int
    letter_groups: list[list[str]]
    stations: list[HoldingRow]
    toll_lines: list[HoldingRow]
    tunnels: list[HoldingRow]
    redeem_due: list[str]
    must_mortgage: bool
    out: bool
    out_since: str | None
    free_stations: int
    virtual_visits: list[str]
    kept_cards: list[str]
    parking: int | UnsetType = UNSET  # (one group's status) the free parking


class Diceoff(_Answer, kw_only=True, omit_defaults=True):
    """A pending §7.2 dice-off: who is in it, who rolled what in this round, who rolls (again)."""

    name: str
    time: str
    groups: list[str]
    rolled: dict[str, int]
    rolling: list[str]


class GameLedger(_Answer, kw_only=True, omit_defaults=True):
    """Every group's money (``planner ledger status``), the free parking, the pending dice-offs."""

    groups: list[GroupLedger]
    parking: int
    diceoffs: list[Diceoff]


class RecordedEvent(_Answer, kw_only=True, omit_defaults=True):
    """One recorded event as it stands (the facts given, what it did, its §19 message and who must be told)."""

    seq: int
    kind: str
    group: str
    time: str
    reported: int | None | UnsetType = UNSET
    target: str = ""
    name: str = ""
    price: int = 0
    letter: str = ""
    levels: list[tuple[str, int]] = []
    dice: list[int] = []
    bonus: bool = False
    reason: str = ""
    card: str = ""
    rolls: list[tuple[str, int]] = []
    voids: int = 0
    to: str = ""
    ref: int = 0
    deck: str = ""
    trip: str = ""
    minutes: int = 0
    amount: int
    message: str
    tell: str
    pending: bool
    transfers: list[tuple[str, str, int]]
    voided: bool
    undone: str  # why it no longer applies in decision-time order ("" when it does)
    undoes: list[int]  # (as just recorded) the events it undid
    sent: str | None  # when its message was sent (§13)
    joined: bool | UnsetType = UNSET  # (as just recorded) the group joined the ledger with it
    title: str | UnsetType = UNSET  # a drawn card's title
    effect: str | UnsetType = UNSET  # a drawn card's effect


class Feed(_Answer, kw_only=True, omit_defaults=True):
    """What a group must be told of since event ``since`` (§13), corrections included."""

    group: str
    since: int
    events: list[RecordedEvent]
    last: int


class RankRow(_Answer, kw_only=True, omit_defaults=True):
    """A group's §5 capital and its rank."""

    group: str
    cash: int
    holdings_value: int
    letter_groups: int
    group_bonus: int
    capital: int
    out: bool
    rank: int


class Ranking(_Answer, kw_only=True, omit_defaults=True):
    """§5: the capital table and ranking (``planner ledger end``)."""

    ranking: list[RankRow]
    winner: str | None
    parking: int


class FeeDue(_Answer, kw_only=True, omit_defaults=True):
    """The fee of a stop of the group's day it has not paid yet (its time is the stop's)."""

    kind: str
    name: str
    owner: str
    time: str
    amount: int | None  # None: a tunnel (two dice)
    min: int | UnsetType = UNSET
    max: int | UnsetType = UNSET
    train: str | None = None


class Offer(_Answer, kw_only=True, omit_defaults=True):
    """Something the group may buy where it is (nobody owns it)."""

    kind: str
    name: str
    price: int


class DeckNow(_Answer, kw_only=True, omit_defaults=True):
    """A deck the group draws from, what makes it draw, and how many cards its pile still holds."""

    name: str  # the deck's key (a draw names it)
    trigger: str
    left: int
    title: str = ""  # the deck's name in the reader's language


class TaxNow(_Answer, kw_only=True, omit_defaults=True):
    """A tax (§16) the group may have to pay where it is."""

    key: str
    title: str
    amount: int


class Sale(_Answer, kw_only=True, omit_defaults=True):
    """A §7.3 sale offer (``offer``: its number, what ``accept`` names)."""

    offer: int
    station: str
    seller: str
    buyer: str
    amount: int
    time: str
    accepted: str | None


class KeptCard(_Answer, kw_only=True, omit_defaults=True):
    """A card the group keeps until it plays it."""

    key: str
    deck: str
    title: str
    effect: str
    deck_title: str = ""  # the deck's name in the reader's language


class ParkingNow(_Answer, kw_only=True, omit_defaults=True):
    """§18.1: the free parking, and whether the group may roll for it now (standing at a change)."""

    total: int
    sum: int
    possible: bool
    at: str | None


class JailNow(_Answer, kw_only=True, omit_defaults=True):
    """§17: the jail the group is in."""

    station: str
    since: str
    until: str
    pay: int | None  # variant A: the payment that ends it
    text: Message | None = None  # the jail in one sentence (planner/service/read/rule_words.py)


class IncomeNow(_Answer, kw_only=True, omit_defaults=True):
    """§6: a full hour's income the group has not recorded yet: its hour, the amount due, and the train that earns
    the bonus (its line name; None: none of its day's trains does, the base fee is due)."""

    hour: str
    amount: int
    bonus: bool
    train: str | None = None


class Unsent(_Answer, kw_only=True, omit_defaults=True):
    """An event whose message the group has not marked as sent yet."""

    seq: int
    group: str
    time: str
    message: str
    tell: str


class LedgerNow(_Answer, kw_only=True, omit_defaults=True):
    """What applies to a group now: fees it owes, what it may buy, decks, taxes, dice-offs, sales, kept cards, the
    free parking, jail, messages not sent yet."""

    group: str
    time: str
    out: bool
    out_since: str | None
    fees_due: list[FeeDue]
    buy_offers: list[Offer]
    decks: list[DeckNow]
    taxes: list[TaxNow]
    diceoffs: list[Diceoff]
    offers: list[Sale]  # made to the group, to accept
    selling: list[Sale]  # the group's own open offers
    cards: list[KeptCard]
    parking: ParkingNow
    jail: JailNow | None
    unsent: list[Unsent]
    late_minutes: int = 0  # §13: a message sent more than this many minutes after its event costs the penalty (0: none)
    late_penalty_percent: int = 0
    jail_delay: int = 0  # §17: minutes late that put the group in jail (reported without a live feed)
    buyers: list[str] = []  # §7.3: the other groups (not out) a station may be sold to
    position: PositionState | None = None  # where the group's day has it (as ``group status`` says)
    obligation: ObligationState | None = None  # what binds it now (None: it is out)
    income: list[IncomeNow] = []  # §6: the full hours whose income it has not recorded, oldest first
    mortgageable: bool = False  # §10: it holds something it may mortgage (not mortgaged yet)
    buildable: list[str] = []  # §8: the stations of its complete letter groups it may build on now
    next_change: str | None = None  # the next minute at which this answer changes by the clock alone (None: none)
    jail_rule: Message | None = None  # §17 in one sentence (None: no jail by reported delays)


class OrganiserLedger(_Answer, kw_only=True, omit_defaults=True):
    """What the organiser follows: every sale, the pending dice-offs, the messages not sent yet."""

    sales: list[Sale]
    diceoffs: list[Diceoff]
    unsent: list[Unsent]


class Owned(_Answer, kw_only=True, omit_defaults=True):
    """What a group holds, by kind."""

    stations: list[HoldingRow]
    toll_lines: list[HoldingRow]
    tunnels: list[HoldingRow]


class LedgerPage(_Answer, kw_only=True, omit_defaults=True):
    """The money part of a group's page (``GET .../ledger``): cash, capital, holdings, what §10 asks, the free
    parking, its own events' messages (to send, §19), those it must be told of, and what applies now."""

    group: str
    cash: int
    capital: int
    owned: Owned
    letter_groups: list[list[str]]
    redeem_due: list[str]
    must_mortgage: bool
    out: bool
    parking: int
    messages: list[RecordedEvent]
    told: list[RecordedEvent]
    now: LedgerNow

