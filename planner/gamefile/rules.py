"""The rules of a game file as typed values that carry their own behaviour (pure: no timetable, no I/O).

Each rule has one home here, and every part of the planner asks it: the game's hours (:class:`Clock`), the
change window of variant A §4.2 (:class:`ChangeWindow`), the dice table (:class:`DiceRules`), the full-hour
fee (:class:`BonusRule`) and station prices (:class:`PriceRule`). Times are seconds after midnight.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from planner.errors import InputError
from planner.util.i18n import _
from planner.util.text import fold
from planner.util.timefmt import fmt_clock


@dataclass(frozen=True)
class Clock:
    """The game's hours: it runs from ``start`` until ``end`` (at ``end`` it is over); dice from ``dice_from``
    (variant B: the dice rules bind from ``dice_forced_from``, the first roll is at ``dice_from``).
    ``bounded`` is False for the pseudo-game ``none`` (the whole feed, no hours)."""

    start: int
    dice_from: int
    end: int
    dice_forced_from: int | None = None
    bounded: bool = True

    def over(self, t: int) -> bool:
        """True from the game's end on: every obligation has ended, nothing more is offered."""
        return self.bounded and t >= self.end

    def in_game(self, t: int) -> bool:
        """True while the game runs: ``start <= t < end``."""
        return not self.bounded or self.start <= t < self.end

    def in_game_mask(self, t):
        """:meth:`in_game` over an array of times (numpy)."""
        return (t >= self.start) & (t < self.end) if self.bounded else t == t

    def before_dice(self, t: int) -> bool:
        """True before dice time (no roll yet; variant B's forced dice may bind already)."""
        return self.bounded and t < self.dice_from

    def check_asked(self, t: int) -> None:
        """A time a group asks about may be the end itself (the answer: the game is over), not after it."""
        if self.bounded and t > self.end:
            raise InputError(_("time {time} is after the end of the game ({end})").format(time=fmt_clock(t),
                                                                                          end=fmt_clock(self.end)))

    def cap(self, t: int) -> int:
        """``t``, or the game's end when it comes first (free time, deadlines: nothing is offered past it)."""
        return min(int(t), self.end) if self.bounded else int(t)

    def dice_bind(self, t: int) -> bool:
        """Do the dice rules bind at ``t`` before the first roll is due (variant B's forced dice)?"""
        return self.bounded and self.dice_forced_from is not None and self.dice_forced_from <= t < self.dice_from


@dataclass(frozen=True)
class Deadline:
    """What the change window asks of a group that got off: board a train departing by ``time`` (the
    window's end), or, ``forced``, the first train after it, which leaves at ``time``."""

    time: int
    forced: bool


@dataclass(frozen=True)
class ChangeWindow:
    """Variant A §4.2 ("29-minute rule"): after getting off at ``a``, a group boards a train departing in
    ``[a + change time, a + minutes]``; when none does, the first boardable train after it (any of that minute)."""

    minutes: int

    @property
    def seconds(self) -> int:
        """The window's length in seconds (what the routing scans take)."""
        return self.minutes * 60

    @property
    def label(self) -> str:
        """The rule's name as players say it ("29-minute rule")."""
        return _("{minutes}-minute rule").format(minutes=self.minutes)

    def closes(self, got_off: int) -> int:
        """The window's last second for a group that got off at ``got_off``."""
        return int(got_off) + self.seconds

    def deadline(self, got_off: int, departures: Sequence[int]) -> Deadline | None:
        """The deadline for a group that got off at ``got_off``, given the departure times it may board
        (ascending; from :func:`planner.game.zugzwang.boardable`): the window's end when one of them leaves in
        it, else the first one after it (forced); None when no train leaves any more."""
        closes = self.closes(got_off)
        if not len(departures):
            return None
        first = int(departures[0])
        return Deadline(closes, False) if first <= closes else Deadline(first, True)


@dataclass(frozen=True)
class JailRule:
    """§17 (both variants; docs/rules.md §3 "Real time"): at the first stop where the train the group sits in
    arrives ``delay_minutes`` or more late, the group gets off and is in jail there for ``minutes`` (once per
    train). Paying out of it is a ledger rule (``ledger.parking_payments.jail``, variant A only)."""

    delay_minutes: int = 5
    minutes: int = 30

    def jails(self, delay_seconds: int | None) -> bool:
        """True when an arrival this late (seconds; None: unknown) puts the group in jail."""
        return delay_seconds is not None and delay_seconds >= self.delay_minutes * 60

    def release(self, arrival: int) -> int:
        """When a group jailed on arriving at ``arrival`` is free again."""
        return int(arrival) + self.minutes * 60


@dataclass(frozen=True)
class DiceTarget:
    """One dice number's targets: stations, or a toll line / tunnel (variant B)."""

    number: int
    stations: tuple[str, ...] = ()
    toll_line: str | None = None
    tunnel: str | None = None


@dataclass(frozen=True)
class DiceRules:
    """The dice table (variant A §4.4-4.6, variant B §4.3-4.4)."""

    count: int  # 1 die, or 2 (white = tens, coloured = ones)
    targets: tuple[DiceTarget, ...]
    free_numbers: frozenset[int]
    free_minutes: int = 60
    admissible_extra_minutes: int = 0  # variant B: any way at most this much slower is allowed
    reroll_before_minutes: int = 0  # variant B: roll again this long before reaching the target
    skip_targeted: bool = True  # variant A: a target already targeted is skipped

    def validate(self, roll: int) -> int:
        """``roll`` if it can be rolled with these dice, else a one-line InputError."""
        if self.count == 1:
            if not 1 <= roll <= 6:
                raise InputError(_("roll {roll}: one die shows 1 to 6").format(roll=roll))
        else:
            white, col = divmod(roll, 10)
            if not (1 <= white <= 6 and 1 <= col <= 6):
                raise InputError(_("roll {roll}: two dice give 11 to 66 (white = tens, coloured = ones, each 1-6)").format(
                    roll=roll))
        return roll

    def skips(self, was_targeted: bool) -> bool:
        """True when a target of a rolled number is out of play because the group had to head for it once
        already (variant A §4.6: it takes the fastest one not yet targeted)."""
        return self.skip_targeted and was_targeted

    def target_for(self, number: int) -> DiceTarget | None:
        """The table's entry for a number, or None."""
        return next((t for t in self.targets if t.number == number), None)

    def free_until(self, t: int, clock: Clock) -> int:
        """End of the free movement that starts at ``t`` (not past the game's end)."""
        return clock.cap(int(t) + self.free_minutes * 60)

    def reroll_at(self, arrival: int, clock: Clock, rolled: int | None = None) -> int | None:
        """Variant B: when the group rolls again on its way to a target it reaches at ``arrival`` (None without the
        rule, or when that is not before the game's end: nothing is offered past it). A target less than that
        far from the roll (``rolled``): at once, never before the roll."""
        if not self.reroll_before_minutes:
            return None
        t = arrival - self.reroll_before_minutes * 60
        if rolled is not None:
            t = max(t, int(rolled))
        return None if clock.over(t) else t

    def names(self) -> dict[str, str]:
        """Every target name (stations, toll lines, tunnels), folded -> as written."""
        return {fold(n): n for t in self.targets for n in (*t.stations, t.toll_line or "", t.tunnel or "") if n}


@dataclass(frozen=True)
class BonusRule:
    """The full-hour fee (§6): ``base_fee`` at every full hour of the game, ``bonus_fee`` when the group's train
    arrives or departs in one of ``minutes`` of that hour (variant A: :00; variant B: :00 or :01)."""

    base_fee: int = 4000
    bonus_fee: int = 8000
    minutes: tuple[int, ...] = (0,)
    event: str = "seated"  # "seated": the train the group sits in; "any": any departure or arrival of the group
    # variant B §6 "effektiv oder nach Fahrplan": a real (predicted) time in a bonus minute earns it too
    effective: bool = False

    @property
    def pays_more(self) -> bool:
        """False when the bonus earns nothing over the base fee (nothing to look for)."""
        return bool(self.minutes) and self.bonus_fee > self.base_fee

    def is_bonus_time(self, t: int, clock: Clock) -> bool:
        """True when ``t`` falls in a bonus minute of a full hour that lies within the game's hours."""
        return (t // 60) % 60 in self.minutes and clock.in_game(t - t % 3600)

    def hour_counts(self, hour: int, clock: Clock) -> bool:
        """True when the full hour ``hour`` (seconds) pays the full-hour fee: it lies within the game."""
        return clock.in_game(hour)

    def time_between(self, lo: int, hi: int, clock: Clock) -> bool:
        """True when some second of ``[lo, hi]`` is a bonus time (else no journey then can earn the bonus)."""
        if hi < lo or not self.minutes:
            return False
        for hour in range(lo - lo % 3600, hi + 1, 3600):
            if self.hour_counts(hour, clock) and any(
                    hour + 60 * m <= hi and lo <= hour + 60 * m + 59 for m in self.minutes):
                return True
        return False


SERVICE_CATEGORIES = ("IC", "fast", "regional")
DEFAULT_HOUSE_FEES = (0.25, 1.0, 2.5, 3.0, 4.0, 5.0)


@dataclass(frozen=True)
class PriceRule:
    """Station prices (variant A §9 by the best train stopping; variant B §9.1 by an explicit list).

    ``classify`` names a station's price class, ``price`` gives its price: the class always explains the price
    (variant B's "listed" IR/IC stations are not called "regional" because a regional train stops there)."""

    rule: str = "category"  # "category" | "explicit"
    ic: int = 4000
    fast: int = 2000
    regional: int = 1000
    listed: int = 4000
    listed_stations: frozenset[str] = frozenset()  # folded names
    station: int = 2000
    bus_stop: int = 1000
    overrides: Mapping[str, int] = field(default_factory=dict)  # folded name -> price
    category_overrides: Mapping[str, str] = field(default_factory=dict)  # folded name -> IC/fast/regional
    house_fee_multipliers: tuple[float, ...] = DEFAULT_HOUSE_FEES

    def service_category(self, name: str, served: str) -> str:
        """The station's category (``IC``/``fast``/``regional`` or a mode) after the game's overrides."""
        return self.category_overrides.get(fold(name), served)

    def classify(self, name: str, served: str) -> str:
        """The price class: ``IC``/``fast``/``regional`` (by category) or ``listed``/``station``/``bus stop``
        (explicit list). A station whose price the game file sets itself (``overrides``) keeps its class."""
        category = self.service_category(name, served)
        if self.rule == "explicit":
            if fold(name) in self.listed_stations:
                return "listed"
            return "station" if category in SERVICE_CATEGORIES else "bus stop"
        return category if category in SERVICE_CATEGORIES else "regional"

    def price(self, name: str, served: str) -> int:
        """The purchase price of station ``name`` whose best service is ``served``."""
        if fold(name) in self.overrides:
            return int(self.overrides[fold(name)])
        return {"IC": self.ic, "fast": self.fast, "regional": self.regional, "listed": self.listed,
                "station": self.station, "bus stop": self.bus_stop}[self.classify(name, served)]
