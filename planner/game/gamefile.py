"""Game files: one TOML per game (variants are data, not code). Parsing and validation.

``load_game`` accepts a shipped game name (``sbb-monopoly``, ``nordwestschweiz``), a path to a TOML file,
or ``none`` (whole feed, all modes). Every error names the file and the key.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from planner.errors import GameFileError
from planner.util.timefmt import parse_clock

MODES = ("rail", "bus", "tram", "boat", "cable", "metro", "other")


@dataclass(frozen=True)
class RingPoint:
    """A station on the area's ring (name, UIC number, WGS84)."""

    name: str
    uic: str
    lat: float
    lon: float


@dataclass(frozen=True)
class DiceTarget:
    """One dice number's targets: stations, or a toll line / tunnel (variant B)."""

    number: int
    stations: tuple[str, ...] = ()
    toll_line: str | None = None
    tunnel: str | None = None


@dataclass(frozen=True)
class Crossing:
    """A toll line or tunnel: the physical stretch between two named operating points."""

    name: str
    kind: str  # "toll_line" | "tunnel"
    between: tuple[str, str]
    via: tuple[str, ...] = ()
    price: int = 0


@dataclass(frozen=True)
class Game:
    """Everything the planner knows about one game variant."""

    name: str
    title: str
    source: str  # file path or "builtin:<name>"
    digest: str  # sha256 of the file content (cache key)
    start: int  # seconds
    end: int
    dice_from: int
    dice_forced_from: int | None
    ring: tuple[RingPoint, ...]
    polygon: tuple[tuple[float, float], ...]  # (lat, lon)
    ring_tolerance_m: float
    modes: frozenset[str]
    exclude_routes: tuple[tuple[str, str], ...]  # (agency name, route short name)
    walking_links: str  # "none" | "feed"
    max_walk_minutes: int
    default_change_minutes: float
    dice_count: int
    free_minutes: int
    free_numbers: frozenset[int]
    admissible_extra_minutes: int
    reroll_before_minutes: int
    skip_targeted: bool
    targets: tuple[DiceTarget, ...]
    bonus_base_fee: int
    bonus_fee: int
    bonus_minutes: tuple[int, ...]
    bonus_event: str  # "seated" | "any"
    toll_fees: tuple[int, ...]
    tunnel_multipliers: tuple[int, ...]
    toll_lines: tuple[Crossing, ...]
    tunnels: tuple[Crossing, ...]
    prices: dict[str, Any] = field(default_factory=dict)
    letter_group_size: int = 3
    letter_group_bonus: int = 2000
    zugzwang_minutes: int | None = None  # the change rule's window (variant A §4.2: 29); None = no rule

    @property
    def has_area(self) -> bool:
        """False for the pseudo-game ``none`` (whole feed)."""
        return bool(self.polygon)

    def target_for(self, number: int) -> DiceTarget | None:
        """The dice-table entry of a number, or None."""
        return next((t for t in self.targets if t.number == number), None)

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
    if spec_s == "none":
        return whole_feed_game()
    path = Path(spec_s)
    if path.suffix == ".toml" or path.exists():
        if not path.is_file():
            raise GameFileError(f"game file {spec_s}: not found")
        data = path.read_bytes()
        source = str(path)
    else:
        res = resources.files("planner") / "games" / f"{spec_s}.toml"
        if not res.is_file():
            raise GameFileError(
                f"unknown game {spec_s!r}: use one of {', '.join(builtin_games())}, 'none', or a path to a .toml file"
            )
        data = res.read_bytes()
        source = f"builtin:{spec_s}"
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise GameFileError(f"game file {source}: not valid TOML: {exc}") from None
    return parse_game(doc, source=source, digest=hashlib.sha256(data).hexdigest())


def whole_feed_game() -> Game:
    """The pseudo-game ``none``: whole feed, all modes, no walking between stations, no rules."""
    return Game(
        name="none", title="whole feed", source="builtin:none", digest="none", start=0, end=48 * 3600,
        dice_from=0, dice_forced_from=None, ring=(), polygon=(), ring_tolerance_m=0.0,
        modes=frozenset(MODES), exclude_routes=(), walking_links="none", max_walk_minutes=0,
        default_change_minutes=2, dice_count=1, free_minutes=60, free_numbers=frozenset({6}),
        admissible_extra_minutes=0, reroll_before_minutes=0, skip_targeted=True, targets=(), bonus_base_fee=0, bonus_fee=0,
        bonus_minutes=(0,), bonus_event="seated", toll_fees=(), tunnel_multipliers=(), toll_lines=(),
        tunnels=(),
    )


# ---- parsing with precise errors ---------------------------------------------------------------

_SCHEMA: dict[str, set[str]] = {
    "game": {"name", "title", "description"},
    "clock": {"start", "end", "dice_from", "dice_forced_from"},
    "area": {"ring", "polygon", "ring_tolerance_m"},
    "modes": {"allowed", "exclude_routes", "walking_links", "max_walk_minutes"},
    "transfers": {"default_minutes"},
    "dice": {"dice", "free_minutes", "admissible_extra_minutes", "reroll_before_minutes", "targets", "free_numbers",
             "skip_targeted"},
    "bonus": {"base_fee", "bonus_fee", "minutes", "event"},
    "toll_fees": {"by_owner_count"},
    "tunnel_fees": {"multiplier_by_owner_count"},
    "toll_lines": {"name", "between", "via", "price"},
    "tunnels": {"name", "between", "via", "price"},
    "prices": {"rule", "IC", "fast", "regional", "overrides", "listed", "listed_stations", "station", "bus_stop",
               "house_fee_multipliers"},
    "letters": {"group_size", "group_bonus"},
    "zugzwang": {"applies", "minutes"},
}
_REQUIRED = ("game", "clock", "area", "modes", "dice")


class _Ctx:
    def __init__(self, source: str):
        self.source = source

    def fail(self, key: str, msg: str) -> GameFileError:
        return GameFileError(f"game file {self.source}: key '{key}': {msg}")

    def get(self, table: dict, key: str, typ: type | tuple[type, ...], where: str, default: Any = ...) -> Any:
        if key not in table:
            if default is ...:
                raise self.fail(f"{where}.{key}", "missing")
            return default
        val = table[key]
        if isinstance(val, bool) and typ in (int, float, (int, float)):
            raise self.fail(f"{where}.{key}", f"expected a number, got {val!r}")
        if not isinstance(val, typ):
            want = typ.__name__ if isinstance(typ, type) else " or ".join(t.__name__ for t in typ)
            raise self.fail(f"{where}.{key}", f"expected {want}, got {type(val).__name__} {val!r}")
        return val

    def clock(self, table: dict, key: str, default: Any = ...) -> int | None:
        val = self.get(table, key, str, "clock", default)
        if val is None:
            return None
        try:
            return parse_clock(val)
        except Exception:
            raise self.fail(f"clock.{key}", f"{val!r} is not a time HH:MM") from None


def parse_game(doc: dict, *, source: str = "<memory>", digest: str = "") -> Game:
    """Validate a parsed TOML document and build a :class:`Game` (errors name file and key)."""
    c = _Ctx(source)
    for key, val in doc.items():
        if key not in _SCHEMA:
            raise c.fail(key, f"unknown section (known: {', '.join(sorted(_SCHEMA))})")
        rows = val if isinstance(val, list) else [val]
        for row in rows:
            if not isinstance(row, dict):
                raise c.fail(key, "expected a table")
            for sub in row:
                if sub not in _SCHEMA[key]:
                    raise c.fail(f"{key}.{sub}", f"unknown key (known: {', '.join(sorted(_SCHEMA[key]))})")
    for key in _REQUIRED:
        if key not in doc:
            raise c.fail(key, "missing section")
    g, clock, area, modes, dice = (doc[k] for k in _REQUIRED)
    name = c.get(g, "name", str, "game")
    start, end = c.clock(clock, "start"), c.clock(clock, "end")
    if end <= start:
        raise c.fail("clock.end", "must be after clock.start")
    dice_from = c.clock(clock, "dice_from")
    forced = c.clock(clock, "dice_forced_from", None)

    ring: list[RingPoint] = []
    for i, p in enumerate(c.get(area, "ring", list, "area", [])):
        where = f"area.ring[{i}]"
        if not isinstance(p, dict):
            raise c.fail(where, "expected {name, uic, lat, lon}")
        ring.append(RingPoint(c.get(p, "name", str, where), str(c.get(p, "uic", (str, int), where, "")),
                              float(c.get(p, "lat", (int, float), where)), float(c.get(p, "lon", (int, float), where))))
    polygon = [(r.lat, r.lon) for r in ring]
    for i, p in enumerate(c.get(area, "polygon", list, "area", [])):
        if not (isinstance(p, list) and len(p) == 2 and all(isinstance(x, int | float) for x in p)):
            raise c.fail(f"area.polygon[{i}]", "expected [lat, lon]")
        polygon.append((float(p[0]), float(p[1])))
    if len(polygon) < 3:
        raise c.fail("area", "needs a ring or a polygon of at least 3 points")
    for lat, lon in polygon:
        if not (45.0 <= lat <= 48.5 and 5.0 <= lon <= 11.5):
            raise c.fail("area", f"point ({lat}, {lon}) is not in or near Switzerland (lat, lon order?)")

    allowed = c.get(modes, "allowed", list, "modes")
    for m in allowed:
        if m not in MODES:
            raise c.fail("modes.allowed", f"unknown mode {m!r} (known: {', '.join(MODES)})")
    excl = []
    for i, e in enumerate(c.get(modes, "exclude_routes", list, "modes", [])):
        where = f"modes.exclude_routes[{i}]"
        if not isinstance(e, dict):
            raise c.fail(where, "expected {agency, route}")
        excl.append((c.get(e, "agency", str, where), str(c.get(e, "route", (str, int), where))))
    walking = c.get(modes, "walking_links", str, "modes", "none")
    if walking not in ("none", "feed"):
        raise c.fail("modes.walking_links", "expected 'none' or 'feed'")

    targets = []
    seen: set[int] = set()
    toll_lines = _crossings(c, doc.get("toll_lines", []), "toll_line")
    tunnels = _crossings(c, doc.get("tunnels", []), "tunnel")
    names = {x.name for x in (*toll_lines, *tunnels)}
    for i, t in enumerate(c.get(dice, "targets", list, "dice")):
        where = f"dice.targets[{i}]"
        if not isinstance(t, dict):
            raise c.fail(where, "expected a table")
        extra = set(t) - {"number", "stations", "toll_line", "tunnel"}
        if extra:
            raise c.fail(f"{where}.{sorted(extra)[0]}", "unknown key (known: number, stations, toll_line, tunnel)")
        num = c.get(t, "number", int, where)
        if num in seen:
            raise c.fail(f"{where}.number", f"number {num} appears twice")
        seen.add(num)
        st = tuple(c.get(t, "stations", list, where, []))
        tl, tu = t.get("toll_line"), t.get("tunnel")
        if sum(bool(x) for x in (st, tl, tu)) != 1:
            raise c.fail(where, "give exactly one of stations, toll_line, tunnel")
        for ref in (tl, tu):
            if ref is not None and ref not in names:
                raise c.fail(where, f"{ref!r} is not a toll line or tunnel of this game")
        targets.append(DiceTarget(num, st, tl, tu))
    dice_count = c.get(dice, "dice", int, "dice", 1)
    if dice_count not in (1, 2):
        raise c.fail("dice.dice", "expected 1 or 2")

    bonus = doc.get("bonus", {})
    event = c.get(bonus, "event", str, "bonus", "seated")
    if event not in ("seated", "any"):
        raise c.fail("bonus.event", "expected 'seated' or 'any'")
    prices = dict(doc.get("prices", {"rule": "category", "IC": 4000, "fast": 2000, "regional": 1000}))
    if prices.get("rule", "category") not in ("category", "explicit"):
        raise c.fail("prices.rule", "expected 'category' or 'explicit'")
    letters = doc.get("letters", {})
    zz = doc.get("zugzwang", {})
    zz_minutes = c.get(zz, "minutes", int, "zugzwang", 29) if c.get(zz, "applies", bool, "zugzwang", False) else None
    if zz_minutes is not None and not 1 <= zz_minutes <= 240:
        raise c.fail("zugzwang.minutes", f"{zz_minutes}: expected 1 to 240 minutes")
    return Game(
        name=name, title=c.get(g, "title", str, "game", name), source=source, digest=digest,
        start=start, end=end, dice_from=dice_from, dice_forced_from=forced,
        ring=tuple(ring), polygon=tuple(polygon),
        ring_tolerance_m=float(c.get(area, "ring_tolerance_m", (int, float), "area", 300)),
        modes=frozenset(allowed), exclude_routes=tuple(excl), walking_links=walking,
        max_walk_minutes=c.get(modes, "max_walk_minutes", int, "modes", 10),
        default_change_minutes=float(c.get(doc.get("transfers", {}), "default_minutes", (int, float), "transfers", 2)),
        dice_count=dice_count, free_minutes=c.get(dice, "free_minutes", int, "dice", 60),
        free_numbers=frozenset(c.get(dice, "free_numbers", list, "dice", [6])),
        admissible_extra_minutes=c.get(dice, "admissible_extra_minutes", int, "dice", 0),
        reroll_before_minutes=c.get(dice, "reroll_before_minutes", int, "dice", 0),
        skip_targeted=c.get(dice, "skip_targeted", bool, "dice", True),
        targets=tuple(targets),
        bonus_base_fee=c.get(bonus, "base_fee", int, "bonus", 4000),
        bonus_fee=c.get(bonus, "bonus_fee", int, "bonus", 8000),
        bonus_minutes=tuple(c.get(bonus, "minutes", list, "bonus", [0])), bonus_event=event,
        toll_fees=tuple(c.get(doc.get("toll_fees", {}), "by_owner_count", list, "toll_fees", [500, 1000, 2000, 4000])),
        tunnel_multipliers=tuple(
            c.get(doc.get("tunnel_fees", {}), "multiplier_by_owner_count", list, "tunnel_fees", [80, 200])),
        toll_lines=toll_lines, tunnels=tunnels, prices=prices,
        letter_group_size=c.get(letters, "group_size", int, "letters", 3),
        letter_group_bonus=c.get(letters, "group_bonus", int, "letters", 2000),
        zugzwang_minutes=zz_minutes,
    )


def _crossings(c: _Ctx, rows: list, kind: str) -> tuple[Crossing, ...]:
    out = []
    section = "toll_lines" if kind == "toll_line" else "tunnels"
    for i, r in enumerate(rows):
        where = f"{section}[{i}]"
        between = c.get(r, "between", list, where)
        if len(between) != 2 or not all(isinstance(x, str) for x in between):
            raise c.fail(f"{where}.between", "expected two station names")
        out.append(Crossing(c.get(r, "name", str, where), kind, (between[0], between[1]),
                            tuple(c.get(r, "via", list, where, [])), c.get(r, "price", int, where, 0)))
    return tuple(out)
