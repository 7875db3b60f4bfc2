"""Game files: one TOML per game (variants are data, not code). Parsing and validation.

``load_game`` accepts a shipped game name (``sbb-monopoly``, ``nordwestschweiz``), a path to a TOML file,
or ``none`` (whole feed, all modes). Every error names the file and the key.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from planner.errors import GameFileError, InputError
from planner.gamefile import schema
from planner.gamefile.rules import BonusRule, ChangeWindow, Clock, DiceRules, DiceTarget, JailRule, PriceRule
from planner.util import userfiles
from planner.util.i18n import _
from planner.util.text import fold
from planner.util.timefmt import parse_clock

MODES = ("rail", "bus", "tram", "boat", "cable", "metro", "other")
# The rules answers cite by paragraph, with the seeds' variant A numbers for a game file that names none of its
# own ([game] paragraphs; variant B numbers free movement §4.4).
PARAGRAPHS = {"walking": "4.1", "change_window": "4.2", "dice": "4.4", "free_movement": "4.5"}


@dataclass(frozen=True)
class RingPoint:
    """A station on the area's ring (name, UIC number, WGS84)."""

    name: str
    uic: str
    lat: float
    lon: float


@dataclass(frozen=True)
class Crossing:
    """A toll line or tunnel: the physical stretch between two named operating points."""

    name: str
    kind: str  # "toll_line" | "tunnel"
    between: tuple[str, str]
    via: tuple[str, ...] = ()
    price: int = 0


# What of a game the ingest reads (tests/ingest/test_cache.py checks that it reads nothing else).
TIMETABLE_FIELDS = ("name", "ring", "polygon", "ring_tolerance_m", "modes", "exclude_routes", "walking_links",
                    "max_walk_minutes")


@dataclass(frozen=True)
class Game:
    """Everything the planner knows about one game variant: its area and modes (what the ingest keeps) and
    its rules as typed values (:mod:`planner.gamefile.rules`), each with its behaviour."""

    name: str
    title: str
    source: str  # file path or "builtin:<name>"
    digest: str  # sha256 of the file content (the keys of what the whole game shapes)
    clock: Clock
    ring: tuple[RingPoint, ...]
    polygon: tuple[tuple[float, float], ...]  # (lat, lon)
    ring_tolerance_m: float
    modes: frozenset[str]
    exclude_routes: tuple[tuple[str, str], ...]  # (agency name, route short name)
    walking_links: str  # "none" | "feed"
    max_walk_minutes: int
    default_change_minutes: float
    dice: DiceRules
    bonus: BonusRule
    toll_fees: tuple[int, ...]
    tunnel_multipliers: tuple[int, ...]
    toll_lines: tuple[Crossing, ...]
    tunnels: tuple[Crossing, ...]
    prices: PriceRule
    letter_group_size: int = 3
    letter_group_bonus: int = 2000
    # §4.2 (docs/rules.md §3 "Legal itinerary"): None when the game has no such rule (variant B).
    window: ChangeWindow | None = None
    jail: JailRule = JailRule()  # §17, read on real-time data only
    # The money side, as the schema declares it (planner/ledger/money_rules.py builds the ledger's rules from it).
    ledger: schema.LedgerSection = schema.LedgerSection()
    language: str | None = None  # [game] language: the answers' language unless a user chooses another
    paragraphs: tuple[tuple[str, str], ...] = ()  # [game] paragraphs: the § numbers of this game's own rules

    def paragraph(self, rule: str) -> str:
        """The § number of ``rule`` (a key of :data:`PARAGRAPHS`) in this game's rules, as its answers cite it."""
        return dict(self.paragraphs).get(rule, PARAGRAPHS[rule])

    @property
    def timetable_digest(self) -> str:
        """sha256 of what shapes the game day's timetable (:data:`TIMETABLE_FIELDS`: the area, the modes, the
        walking links), the timetable cache's key: a game file edited in its dice table, prices or messages
        keeps its cached day (an ingest of the national feed takes minutes)."""
        parts = []
        for name in TIMETABLE_FIELDS:
            value = getattr(self, name)
            parts.append(f"{name}={sorted(value) if isinstance(value, frozenset) else value!r}")
        return hashlib.sha256("\0".join(parts).encode()).hexdigest()

    @property
    def has_area(self) -> bool:
        """False for the pseudo-game ``none`` (whole feed)."""
        return bool(self.polygon)

    def crossing(self, name: str) -> Crossing | None:
        """Toll line or tunnel by name."""
        return next((c for c in (*self.toll_lines, *self.tunnels) if c.name == name), None)


def builtin_games() -> list[str]:
    """Names of the games shipped in ``planner/games``."""
    root = resources.files("planner") / "games"
    return sorted(p.name[:-5] for p in root.iterdir() if p.name.endswith(".toml"))


def load_game(spec: str | Path) -> Game:
    """Load a game by shipped name, by path, or ``none`` for the whole feed."""
    spec_s = str(spec)
    if not spec_s.strip():
        raise GameFileError(_("--game: empty value (a game name, a path to a .toml file, or {none})").format(
            none="'none'"))
    if spec_s == "none":
        return whole_feed_game()
    path = Path(spec_s)
    if path.suffix == ".toml" or userfiles.file_kind(path) != "missing":
        try:
            data = userfiles.read_bytes(path, _("game file"), limit=1 << 20)
        except InputError as exc:
            raise GameFileError(str(exc)) from None
        source = str(path)
    else:
        res = resources.files("planner") / "games" / f"{spec_s}.toml"
        if not res.is_file():
            raise GameFileError(_("unknown game {game}: use one of {games}, {none}, or a path to a .toml file").format(
                game=repr(spec_s), games=", ".join(builtin_games()), none="'none'"))
        data = res.read_bytes()
        source = f"builtin:{spec_s}"
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise GameFileError(_("game file {file}: not UTF-8 text (at byte {byte})").format(
            file=source, byte=exc.start)) from None
    try:
        doc = userfiles.parse_toml(text, _("game file {path}").format(path=source))
    except InputError as exc:
        raise GameFileError(str(exc)) from None
    return parse_game(doc, source=source, digest=hashlib.sha256(data).hexdigest())


def whole_feed_game() -> Game:
    """The pseudo-game ``none``: whole feed, all modes, no walking between stations, no rules."""
    return Game(
        name="none", title="whole feed", source="builtin:none", digest="none",
        clock=Clock(start=0, dice_from=0, end=48 * 3600, bounded=False), ring=(), polygon=(), ring_tolerance_m=0.0,
        modes=frozenset(MODES), exclude_routes=(), walking_links="none", max_walk_minutes=0,
        default_change_minutes=2, dice=DiceRules(count=1, targets=(), free_numbers=frozenset({6})),
        bonus=BonusRule(base_fee=0, bonus_fee=0), toll_fees=(), tunnel_multipliers=(), toll_lines=(), tunnels=(),
        prices=PriceRule(),
    )


# ---- parsing: the declared schema (planner/gamefile/schema.py), then rules between keys -------------

def parse_game(doc: dict, *, source: str = "<memory>", digest: str = "") -> Game:
    """Validate a parsed TOML document and build a :class:`Game` (errors name file and key)."""

    def fail(key: str, msg: str) -> GameFileError:
        return GameFileError(f"game file {source}: key '{key}': {msg}")

    try:
        d = schema.validate(doc)
    except schema.SchemaError as exc:
        raise fail(exc.key, exc.message) from None

    def clock(key: str, text: str | None) -> int | None:
        if text is None:
            return None
        try:
            return parse_clock(text)
        except Exception:  # noqa: BLE001 - any parse failure is the same user error
            raise fail(f"clock.{key}", f"{text!r} is not a time HH:MM") from None

    start, end = clock("start", d.clock.start), clock("end", d.clock.end)
    assert start is not None and end is not None  # required by the schema
    if end <= start:
        raise fail("clock.end", "must be after clock.start")
    dice_from = clock("dice_from", d.clock.dice_from)
    assert dice_from is not None
    if not start <= dice_from <= end:
        raise fail("clock.dice_from", "must be between clock.start and clock.end")
    forced = clock("dice_forced_from", d.clock.dice_forced_from)
    if forced is not None and not start <= forced <= end:
        raise fail("clock.dice_forced_from", "must be between clock.start and clock.end")

    ring = tuple(RingPoint(p.name, str(p.uic), float(p.lat), float(p.lon)) for p in d.area.ring)
    polygon = [(r.lat, r.lon) for r in ring] + [(float(a), float(b)) for a, b in d.area.polygon]
    if len(polygon) < 3:
        raise fail("area", "needs a ring or a polygon of at least 3 points")

    toll_lines = _crossings(d.toll_lines, "toll_line")
    tunnels = _crossings(d.tunnels, "tunnel")
    for section, rows in (("toll_lines", toll_lines), ("tunnels", tunnels)):
        for i, c in enumerate(rows):
            if c.between[0] == c.between[1]:
                raise fail(f"{section}[{i}].between", "names the same station twice")
    targets = _dice_targets(d.dice, {x.name for x in (*toll_lines, *tunnels)}, fail)
    if d.bonus.bonus_fee < d.bonus.base_fee:
        raise fail("bonus.bonus_fee", "must not be below bonus.base_fee")
    return Game(
        name=d.game.name, title=d.game.title or d.game.name, source=source, digest=digest,
        clock=Clock(start=start, dice_from=dice_from, end=end, dice_forced_from=forced),
        ring=ring, polygon=tuple(polygon), ring_tolerance_m=float(d.area.ring_tolerance_m),
        modes=frozenset(d.modes.allowed), exclude_routes=tuple((e.agency, str(e.route)) for e in d.modes.exclude_routes),
        walking_links=d.modes.walking_links, max_walk_minutes=d.modes.max_walk_minutes,
        default_change_minutes=float(d.transfers.default_minutes),
        dice=DiceRules(count=d.dice.dice, targets=targets, free_numbers=frozenset(d.dice.free_numbers),
                       free_minutes=d.dice.free_minutes, admissible_extra_minutes=d.dice.admissible_extra_minutes,
                       reroll_before_minutes=d.dice.reroll_before_minutes, skip_targeted=d.dice.skip_targeted),
        bonus=BonusRule(base_fee=d.bonus.base_fee, bonus_fee=d.bonus.bonus_fee, minutes=tuple(sorted(d.bonus.minutes)),
                        event=d.bonus.event, effective=d.bonus.effective),
        toll_fees=tuple(d.toll_fees.by_owner_count), tunnel_multipliers=tuple(d.tunnel_fees.multiplier_by_owner_count),
        toll_lines=toll_lines, tunnels=tunnels, prices=_price_rule(d.prices),
        letter_group_size=d.letters.group_size, letter_group_bonus=d.letters.group_bonus,
        window=ChangeWindow(d.zugzwang.minutes) if d.zugzwang is not None and d.zugzwang.applies else None,
        jail=JailRule(d.jail.delay_minutes, d.jail.minutes),
        ledger=d.ledger, language=d.game.language, paragraphs=tuple(sorted(d.game.paragraphs.items())),
    )


def _dice_targets(dice: schema.DiceSection, crossings: set[str],
                  fail: Callable[[str, str], GameFileError]) -> tuple[DiceTarget, ...]:
    """The dice table's targets, each number one the game's dice can roll, once, with exactly one kind of target
    (``crossings``: the names of the game's toll lines and tunnels)."""
    targets = []
    seen: set[int] = set()
    lo, hi = (1, 6) if dice.dice == 1 else (11, 66)
    for i, t in enumerate(dice.targets):
        where = f"dice.targets[{i}]"
        if t.number in seen:
            raise fail(f"{where}.number", f"number {t.number} appears twice")
        if not (lo <= t.number <= hi and (dice.dice == 1 or 1 <= t.number % 10 <= 6)):
            raise fail(f"{where}.number", f"{t.number} cannot be rolled with {dice.dice} dice")
        seen.add(t.number)
        if sum(bool(x) for x in (t.stations, t.toll_line, t.tunnel)) != 1:
            raise fail(where, "give exactly one of stations, toll_line, tunnel")
        for ref in (t.toll_line, t.tunnel):
            if ref is not None and ref not in crossings:
                raise fail(where, f"{ref!r} is not a toll line or tunnel of this game")
        targets.append(DiceTarget(t.number, tuple(t.stations), t.toll_line, t.tunnel))
    return tuple(targets)


def _price_rule(p: schema.PricesSection) -> PriceRule:
    return PriceRule(rule=p.rule, ic=p.IC, fast=p.fast, regional=p.regional, listed=p.listed,
                     listed_stations=frozenset(fold(n) for n in p.listed_stations), station=p.station,
                     bus_stop=p.bus_stop, overrides={fold(k): v for k, v in p.overrides.items()},
                     category_overrides={fold(k): v for k, v in p.category_overrides.items()},
                     house_fee_multipliers=tuple(float(m) for m in p.house_fee_multipliers))


def _crossings(rows: list[schema.CrossingEntry], kind: str) -> tuple[Crossing, ...]:
    return tuple(Crossing(r.name, kind, (r.between[0], r.between[1]), tuple(r.via), r.price) for r in rows)
