"""Ledger values: events (what a group did), holdings and the state they add up to (pure data)."""

from __future__ import annotations

from dataclasses import dataclass, field

BANK = "bank"
PARKING = "parking"
STATION, TOLL_LINE, TUNNEL = "station", "toll_line", "tunnel"
HOLDING_KINDS = (STATION, TOLL_LINE, TUNNEL)


@dataclass(frozen=True)
class Event:
    """One thing a group did, as recorded (times in seconds of the game day).

    Only facts are typed by users (which station, which dice); every amount follows from the rules and
    the ledger. ``price`` and ``letter`` of a station are filled in by the service layer from the game
    file and the timetable (planner/game/prices.py), so a replay never needs the timetable.
    """

    kind: str
    group: str
    time: int
    reported: int | None = None  # when the message was sent (§13); None = at once
    target: str = ""  # station | toll_line | tunnel (buy, fee, mortgage, redeem)
    name: str = ""
    price: int = 0  # station purchase price (buy of a station)
    letter: str = ""  # initial letter of the place name (buy of a station)
    levels: tuple[tuple[str, int], ...] = ()  # build: (station, new level) each
    dice: tuple[int, ...] = ()  # tunnel fee, parking emptying
    bonus: bool = False  # income: the full-hour bonus rule was met
    reason: str = ""  # parking: which payment
    card: str = ""  # card key
    rolls: tuple[tuple[str, int], ...] = ()  # diceoff: (group, dice sum) each
    voids: int = 0  # void: the number of the event it voids (planner/ledger/corrections.py)
    to: str = ""  # sell: the buying group
    amount: int = 0  # sell: the agreed amount (§7.3: the one amount users type)
    ref: int = 0  # accept: the sale offer's number; sent: the event whose message was sent; parking_empty: the
    # minute the group got to the station it rolls at (one roll per change)
    deck: str = ""  # draw: the deck drawn from
    trip: str = ""  # jail: the train that arrived late (once per train, §17)
    minutes: int = 0  # jail: how late it arrived

    def to_json(self) -> dict:
        """A JSON-able dict (only the fields that are set)."""
        out: dict = {"kind": self.kind, "group": self.group, "time": self.time}
        for k, default in _DEFAULTS:
            v = getattr(self, k)
            if v != default:
                out[k] = [list(x) for x in v] if k in ("levels", "rolls") else list(v) if k == "dice" else v
        return out

    @classmethod
    def from_json(cls, d: object) -> Event:
        """Inverse of :meth:`to_json`; anything :meth:`to_json` cannot have written is a ValueError."""
        if not isinstance(d, dict) or not {"kind", "group", "time"} <= set(d) or set(d) - set(_FIELD_TYPES):
            raise ValueError("not an event (its fields are kind, group, time, ...)")
        for k, v in d.items():
            if not _FIELD_TYPES[k](v):
                raise ValueError(f"field {k!r} {str(v)[:30]!r} is not of its kind")
        kw = dict(d)
        kw["levels"] = tuple((a, b) for a, b in kw.get("levels", ()))
        kw["rolls"] = tuple((a, b) for a, b in kw.get("rolls", ()))
        kw["dice"] = tuple(kw.get("dice", ()))
        return cls(**kw)


_DEFAULTS = (("reported", None), ("target", ""), ("name", ""), ("price", 0), ("letter", ""), ("levels", ()),
             ("dice", ()), ("bonus", False), ("reason", ""), ("card", ""), ("rolls", ()), ("voids", 0), ("to", ""),
             ("amount", 0), ("ref", 0), ("deck", ""), ("trip", ""), ("minutes", 0))


def _int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and -10**12 < v < 10**12


def _pairs(v: object) -> bool:
    return isinstance(v, list) and all(isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) and _int(p[1])
                                       for p in v)


_FIELD_TYPES = {
    "kind": lambda v: isinstance(v, str), "group": lambda v: isinstance(v, str), "time": _int,
    "reported": lambda v: v is None or _int(v), "target": lambda v: isinstance(v, str),
    "name": lambda v: isinstance(v, str), "price": _int, "letter": lambda v: isinstance(v, str),
    "levels": _pairs, "dice": lambda v: isinstance(v, list) and all(_int(x) for x in v),
    "bonus": lambda v: isinstance(v, bool), "reason": lambda v: isinstance(v, str),
    "card": lambda v: isinstance(v, str), "rolls": _pairs, "voids": _int, "to": lambda v: isinstance(v, str),
    "amount": _int, "ref": _int, "deck": lambda v: isinstance(v, str), "trip": lambda v: isinstance(v, str),
    "minutes": _int,
}


@dataclass(frozen=True)
class Transfer:
    """Money moved by an event: ``payer`` -> ``payee`` (a group, ``bank`` or ``parking``)."""

    payer: str
    payee: str
    amount: int


@dataclass
class Holding:
    """A station, toll line or tunnel a group bought."""

    kind: str
    name: str
    owner: str
    price: int
    time: int
    order: int  # purchase order (letter groups form in this order, §8.1)
    letter: str = ""
    level: int = 0  # 0 unbuilt, 1-4 houses, top = hotel
    mortgaged: bool = False
    paid: int = 0  # what the buyer paid (0 with a "next station free" card); refunded if a dice-off is lost
    seller: str = ""  # §7.3: the group it was bought from (then ``time`` is the sale's)
    card: str | None = None  # the kept card that paid for it ("": an old counted one); given back with a lost dice-off

    def copy(self) -> Holding:
        """An independent copy."""
        return Holding(self.kind, self.name, self.owner, self.price, self.time, self.order, self.letter, self.level,
                       self.mortgaged, self.paid, self.seller, self.card)

    @property
    def value(self) -> int:
        """§5 purchase value: the station or line plus its houses (a house costs the station's price)."""
        return self.price * (1 + self.level)


@dataclass
class Dispute:
    """§7.2: groups that decided to buy one station in the same minute; dice decide (two dice each, a tie among
    the highest rolls again)."""

    name: str
    time: int
    holder: str  # applied first; holds the station until the dice-off
    challengers: list[str] = field(default_factory=list)
    rolls: dict[str, int] = field(default_factory=dict)  # this round's sums by group
    round: list[str] = field(default_factory=list)  # the groups of a re-roll after a tie (empty: all of them)

    @property
    def groups(self) -> list[str]:
        """Every group of the dispute, the holder first."""
        return [self.holder, *self.challengers]

    @property
    def rolling(self) -> list[str]:
        """The groups that roll in this round."""
        return self.round or self.groups

    def copy(self) -> Dispute:
        """An independent copy."""
        return Dispute(self.name, self.time, self.holder, list(self.challengers), dict(self.rolls), list(self.round))


@dataclass(frozen=True)
class Offer:
    """§7.3: a station offered by ``seller`` to ``buyer`` for ``amount`` (its number is the sale event's)."""

    seq: int
    seller: str
    buyer: str
    name: str
    amount: int
    time: int
    accepted: int | None = None  # when the buyer accepted


@dataclass(frozen=True)
class JailStay:
    """§17: the group is in jail at ``station`` from ``since`` until ``until`` (``trip``: the late train; ``left``:
    how it got out early, ``paid`` or a card's key)."""

    station: str
    since: int
    until: int
    trip: str = ""
    left: str = ""


@dataclass
class LedgerState:
    """What the events add up to; built only by :func:`planner.ledger.apply.replay` (and the ordered replay)."""

    cash: dict[str, int] = field(default_factory=dict)
    parking: int = 0
    bank: int = 0  # net of the bank: minus everything it paid out (money conservation check)
    holdings: dict[tuple[str, str], Holding] = field(default_factory=dict)
    incomes: set[tuple[str, int]] = field(default_factory=set)
    disputes: dict[str, Dispute] = field(default_factory=dict)
    free_station: dict[str, int] = field(default_factory=dict)  # group -> cards "next station free" unused
    visits: dict[str, list[str]] = field(default_factory=dict)  # group -> stations of unused virtual visits
    out: dict[str, int] = field(default_factory=dict)  # group -> time it went bankrupt (§6 "Schulden")
    orders: int = 0
    offers: dict[int, Offer] = field(default_factory=dict)  # §7.3 sale offers by number
    held: dict[str, list[str]] = field(default_factory=dict)  # group -> kept cards (§14-§15), in drawing order
    drawn: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # (group, deck) -> drawn this round
    shuffles: dict[tuple[str, str], int] = field(default_factory=dict)  # (group, deck) -> reshuffles so far
    fees_paid: dict[tuple[str, str, str, int], int] = field(default_factory=dict)  # (group, kind, name, minute)
    parking_rolls: set[tuple[str, str, int]] = field(default_factory=set)  # (group, station, minute) §18.1
    taxes_paid: set[tuple[str, str, str, int]] = field(default_factory=set)  # (group, tax, train, minute) §16
    draws: set[tuple[str, str, int]] = field(default_factory=set)  # (group, deck, minute): one draw a trigger
    exempt: dict[tuple[str, str], int] = field(default_factory=dict)  # (loser, station) -> dice-off time (B §7.2)
    jails: dict[str, list[JailStay]] = field(default_factory=dict)  # group -> its jail stays (§17)

    def clone(self) -> LedgerState:
        """An independent copy (what ``copy.deepcopy`` gives, without its cost: every container is new, every
        mutable value in it copied; events, strings and numbers are immutable and shared)."""
        new = self.fork()
        new.holdings = {k: h.copy() for k, h in self.holdings.items()}
        return new

    def fork(self) -> LedgerState:
        """A copy for :func:`planner.ledger.apply.apply` to change: like :meth:`clone`, but the holdings are
        shared until one changes, and whatever changes one takes it through :meth:`writable` first (a replay
        forks the state for every event, and most events change no holding)."""
        return LedgerState(
            cash=dict(self.cash), parking=self.parking, bank=self.bank,
            holdings=dict(self.holdings), incomes=set(self.incomes),
            disputes={k: d.copy() for k, d in self.disputes.items()},
            free_station=dict(self.free_station), visits={k: list(v) for k, v in self.visits.items()},
            out=dict(self.out), orders=self.orders, offers=dict(self.offers),
            held={k: list(v) for k, v in self.held.items()}, drawn={k: list(v) for k, v in self.drawn.items()},
            shuffles=dict(self.shuffles), fees_paid=dict(self.fees_paid), parking_rolls=set(self.parking_rolls),
            taxes_paid=set(self.taxes_paid), draws=set(self.draws),
            exempt=dict(self.exempt), jails={k: list(v) for k, v in self.jails.items()})

    def jail(self, group: str, t: int) -> JailStay | None:
        """The jail ``group`` is in at ``t`` (None: none)."""
        return next((j for j in reversed(self.jails.get(group, ())) if j.since <= t < j.until), None)

    def writable(self, kind: str, name: str) -> Holding:
        """The holding of ``name``, this state's own copy (to be changed: states cloned from this one, or this
        one from, keep theirs)."""
        h = self.holdings[(kind, name)] = self.holdings[(kind, name)].copy()
        return h

    def owned(self, group: str, kind: str | None = None) -> list[Holding]:
        """The group's holdings (of one kind), in purchase order."""
        return sorted((h for h in self.holdings.values() if h.owner == group and (kind is None or h.kind == kind)),
                      key=lambda h: h.order)

    def holding(self, kind: str, name: str) -> Holding | None:
        """Who holds ``name`` (None: the bank still has it)."""
        return self.holdings.get((kind, name))
