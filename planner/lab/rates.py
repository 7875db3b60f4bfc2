"""The stop rates ``advise`` expects of a game day (how often a group stops at each station, hour by hour) and
what they rest on (:class:`Basis`).

``planner simulate`` keeps its run's rates in the cache, one file per game day (feed, game file, date, change
time, plain routing). A run takes the place of the kept one only when it simulated at least as many group-days
(days x groups), or when asked to (``replace``): a quick run does not silently replace a long one. Without a kept
run the timetable gives an estimate: groups stop at a station in proportion to the trains calling there.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from planner import config
from planner.service.setup.playing import GameDay
from planner.util.atomic import atomic_write_text
from planner.util.i18n import _, ngettext
from planner.util.keptfiles import DamagedFile, read_kept, set_aside

log = logging.getLogger(__name__)

# Stops a group makes per hour of play (at stations its train calls at), as the lab measured on the Zug game day
# (planner simulate --days 200: 7.5-8.5 for every strategy); the timetable estimate spreads them over stations.
STOPS_PER_GROUP_HOUR = 8.0
FORMAT = 2  # of the kept file; format 1 (before 2026-12) said nothing of its run's groups and is not read


@dataclass(frozen=True)
class Basis:
    """What the rates rest on: ``source`` ``"lab"`` (a simulate run of ``days`` days of ``groups`` groups, with
    ``seed`` and ``strategy``) or ``"timetable"`` (the estimate), for ``game`` on ``date``."""

    source: str
    game: str
    date: str
    days: int = 0
    groups: int = 0
    seed: int | None = None
    strategy: str | None = None
    set_aside: str | None = None  # the timetable's estimate because the kept lab rates were damaged: why

    @property
    def group_days(self) -> int:
        """Simulated group-days (0 for the timetable estimate)."""
        return self.days * self.groups

    def to_json(self) -> dict:
        """The basis as JSON (``advise --json``'s ``rates``, ``simulate --json``'s ``advise_rates``)."""
        out: dict = {"source": self.source, "game": self.game, "date": self.date, "summary": self.describe()}
        if self.source == "lab":
            return out | {"days": self.days, "groups": self.groups, "group_days": self.group_days,
                          "seed": self.seed, "strategy": self.strategy}
        return out | {"stops_per_group_hour": STOPS_PER_GROUP_HOUR, "set_aside": self.set_aside}

    def describe(self) -> str:
        """The basis in words."""
        if self.source == "lab":
            # days and groups are at least 1: one sentence for each of one and more (the same in de, fr, en)
            if self.days == 1:
                said = (_("a lab run of 1 day x 1 group (1 group-day, seed {seed}, strategy {strategy}) of {game} "
                          "on {date}") if self.groups == 1 else
                        _("a lab run of 1 day x {groups} groups ({group_days} group-days, seed {seed}, strategy "
                          "{strategy}) of {game} on {date}"))
            else:
                said = (_("a lab run of {days} days x 1 group ({group_days} group-days, seed {seed}, strategy "
                          "{strategy}) of {game} on {date}") if self.groups == 1 else
                        _("a lab run of {days} days x {groups} groups ({group_days} group-days, seed {seed}, "
                          "strategy {strategy}) of {game} on {date}"))
            return said.format(days=self.days, groups=self.groups, group_days=self.group_days, seed=self.seed,
                               strategy=self.strategy, game=self.game, date=self.date)
        if self.set_aside:
            return _("the timetable's estimate for {game} on {date} (the kept lab rates of this game day were "
                     "damaged and set aside: {reason})").format(game=self.game, date=self.date, reason=self.set_aside)
        return _("the timetable's estimate for {game} on {date} (no lab run of this game day is kept)").format(
            game=self.game, date=self.date)


@dataclass(frozen=True)
class Rates:
    """Stops per group and hour (hour of the day -> stops) at each station (by name), and their basis."""

    basis: Basis
    by_station: dict[str, dict[int, float]]


@dataclass(frozen=True)
class Kept:
    """What :func:`save_rates` did: ``saved`` this run's rates, else it kept those of ``kept`` (a run of more
    group-days; None: the cache could not be written); ``run`` is this run's basis."""

    saved: bool
    run: Basis
    kept: Basis | None = None
    realtime: bool = False  # the run played on real-time data: its rates are not kept

    def to_json(self) -> dict:
        """``simulate --json``'s ``advise_rates``."""
        return {"saved": self.saved, "run": self.run.to_json(),
                "kept": self.kept.to_json() if self.kept is not None else None, "realtime": self.realtime}

    def describe(self) -> str:
        """One line for ``simulate``'s text."""
        if self.realtime:
            return _("advise's fee rates: this run's are not kept (played on real-time data: one moment's delays "
                     "are no basis for a game day's advice)")
        n = self.run.group_days
        if self.saved:
            return ngettext("advise's fee rates from now on: this run's ({n} group-day)",
                            "advise's fee rates from now on: this run's ({n} group-days)", n).format(n=n)
        if self.kept is None:
            return _("advise's fee rates: this run's could not be kept (the cache folder cannot be written)")
        return ngettext("advise keeps the fee rates of {kept}: more than this run's {n} group-day (--replace-rates "
                        "to use this run's)", "advise keeps the fee rates of {kept}: more than this run's {n} "
                        "group-days (--replace-rates to use this run's)", n).format(kept=self.kept.describe(), n=n)


def rates_path(day: GameDay) -> Path:
    """The kept rates of this game day (the cache's ``lab`` folder)."""
    feed = Path(day.feed)
    try:
        st = feed.stat()
        ident = f"{feed.resolve()}:{st.st_size}:{st.st_mtime_ns}"
    except OSError:
        ident = str(day.feed)
    parts = f"{ident}|{day.game.digest}|{day.date}|{day.min_transfer_minutes}|{day.plain_timetable}|{FORMAT}"
    key = hashlib.sha256(parts.encode()).hexdigest()
    return config.cache_root() / "lab" / f"{day.game.name}-{day.date}-{key[:16]}.json"


def run_basis(rep: dict) -> Basis:
    """The basis of a lab report's rates (its ``meta``)."""
    m = rep["meta"]
    return Basis("lab", str(m["game"]), str(m["date"]), int(m["days"]), int(m["groups"]), m.get("seed"),
                 m.get("strategy"))


MAX_FILE = 64 << 20  # bytes of a kept file: the national game day's stations x 48 hours is a few MB
MAX_RATE = 60.0  # stops per group at one station in one hour: one a minute is already more than a train allows
MAX_DAYS = 10**9


class _Damaged(ValueError):
    """The kept file is not what simulate writes (the reason is the message)."""


def _read(path: Path) -> tuple[tuple[Basis, dict] | None, str | None]:
    """The kept file's basis and rates, and None; (None, None) when there is none. A damaged one (a link, a pipe or
    device, too large, not the JSON simulate writes, a rate that is not a finite number of stops) is set aside now,
    so it is reported once: (None, why)."""
    try:
        data = read_kept(path, MAX_FILE)
        return (None if data is None else _parse(data)), None
    except (DamagedFile, _Damaged, UnicodeDecodeError, RecursionError) as exc:
        reason = str(exc) if isinstance(exc, DamagedFile | _Damaged) else "not UTF-8 JSON"
    aside = set_aside(path)
    log.warning("kept lab rates %s are damaged (%s); %s", path, reason,
                f"set aside as {aside.name}" if aside else "not read")
    return None, reason


def _no_constant(text: str) -> float:
    """JSON's NaN and Infinity (which json reads by default) are refused."""
    raise _Damaged(_("{text} is not a number of stops").format(text=text))


def _parse(data: bytes) -> tuple[Basis, dict]:
    """The basis and rates of a kept file's bytes, every value checked."""
    try:
        doc = json.loads(data.decode("utf-8"), parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise _Damaged(_("not JSON ({why} at byte {at})").format(why=exc.msg, at=exc.pos)) from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise _Damaged(_("not the format {format} that simulate writes").format(format=FORMAT))
    b, rates = doc.get("basis"), doc.get("rates")
    if not isinstance(b, dict) or not isinstance(rates, dict):
        raise _Damaged(_("no basis or no rates"))
    days, groups = b.get("days"), b.get("groups")
    if not all(type(x) is int and 1 <= x <= MAX_DAYS for x in (days, groups)):
        raise _Damaged(_("the run's days {days} and groups {groups} are not whole numbers of at least 1").format(
            days=repr(days)[:20], groups=repr(groups)[:20]))
    if not isinstance(b.get("game"), str) or not isinstance(b.get("date"), str):
        raise _Damaged(_("the basis names no game or date"))
    seed, strategy = b.get("seed"), b.get("strategy")
    if not (seed is None or type(seed) is int) or not (strategy is None or isinstance(strategy, str)):
        raise _Damaged(_("the run's seed or strategy is not what simulate writes"))
    basis = Basis("lab", b["game"], b["date"], days, groups, seed, strategy)
    out: dict[str, dict[int, float]] = {}
    for name, hours in rates.items():
        if not isinstance(hours, dict):
            raise _Damaged(_("{station}: not a table of hours").format(station=repr(name)[:60]))
        out[name] = {_hour(name, h): _rate(name, h, x) for h, x in hours.items()}
    return basis, out


def _hour(name: str, h: str) -> int:
    if not (h.isascii() and h.isdigit() and int(h) < 48):
        raise _Damaged(_("{station}: hour {hour} is not 0 to 47").format(station=repr(name)[:60], hour=repr(h[:20])))
    return int(h)


def _rate(name: str, h: str, x: object) -> float:
    if type(x) not in (int, float) or not 0 <= x <= MAX_RATE:  # NaN fails both comparisons
        raise _Damaged(_("{station} hour {hour}: {value} is not a number of stops from 0 to {most}").format(
            station=repr(name)[:60], hour=h, value=str(x)[:20], most=f"{MAX_RATE:g}"))
    return float(x)


def save_rates(day: GameDay, rep: dict, *, replace: bool = False) -> Kept:
    """Keep a lab report's stop rates for ``advise`` on this day, unless the kept ones come from a run of more
    group-days and ``replace`` is not asked, or the run played on real-time data (a read-only cache keeps nothing:
    ``saved`` is False then)."""
    run = run_basis(rep)
    if day.realtime_source:
        return Kept(False, run, realtime=True)
    path = rates_path(day)
    old, _damaged = _read(path)  # a damaged file is replaced (it was set aside)
    if old is not None and not replace and old[0].group_days > run.group_days:
        return Kept(False, run, old[0])
    groups = max(1, run.groups)
    rates = {s["name"]: {h: n / groups for h, n in s["stops_by_hour"].items()} for s in rep["stations"]}
    doc = {"format": FORMAT, "basis": run.to_json(), "rates": rates}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps(doc, sort_keys=True))
    except OSError:
        return Kept(False, run)
    return Kept(True, run)


def load_rates(day: GameDay, names: list[str]) -> Rates:
    """Stops per group and hour at each station (``names``: the day's station names): the kept lab run's, else
    the timetable's estimate."""
    kept, damaged = _read(rates_path(day))
    if kept is not None:
        return Rates(*kept)
    net = day.network
    calls = np.zeros((day.timetable.n_stations, 48))
    arr_station = net.stop_station[net.c_to]
    hours = np.minimum(net.c_arr // 3600, 47)
    np.add.at(calls, (arr_station[net.c_drop], hours[net.c_drop]), 1)
    total = calls.sum(axis=0)
    share = np.divide(calls, total, out=np.zeros_like(calls), where=total > 0)
    est = {names[s]: {h: float(STOPS_PER_GROUP_HOUR * share[s, h]) for h in range(48) if share[s, h]}
           for s in range(len(names))}
    return Rates(Basis("timetable", day.game.name, day.date.isoformat(), set_aside=damaged), est)
