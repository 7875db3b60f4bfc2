"""``advise``: during a real game, the stations on or near a group's way worth buying now, ranked by the fee income
they are expected to bring until the end against their price (issue 21).

Candidates are the stations the group will be at (the rest of its itinerary) or can be at soon (where it stands,
the stops of the trains it may take now), that nobody owns and that it can afford. A station's expected income
is its fee times the stops the *other* groups are expected to make there before the end: the stops on their own
planned itineraries (certain), and after those, the rate at which groups stop there hour by hour, as a lab run of
this game day measured it (``basis: "lab"``, written by ``planner simulate`` into the cache), else a timetable
estimate: groups stop at a station in proportion to the trains calling there (``basis: "timetable"``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from planner import config
from planner.lab.moves import Board, along, rides_from
from planner.ledger.model import STATION
from planner.service import Play, next_json, next_step
from planner.service.gameday import GameDay
from planner.service.group import status_and_model
from planner.util.atomic import atomic_write_text
from planner.util.timefmt import fmt_clock

# Stops a group makes per hour of play (at stations its train calls at), as the lab measured on the Zug game day
# (planner simulate --days 200: 7.5-8.5 for every strategy); the timetable estimate spreads them over stations.
STOPS_PER_GROUP_HOUR = 8.0
NEAR_SECONDS = 30 * 60  # "near": the stops of the trains it may take now, within half an hour


@dataclass(frozen=True)
class Advice:
    """One station worth buying: where and when the group is there, its price and expected fee income."""

    name: str
    price: int
    fee: int
    at: int
    why: str
    certain_stops: int
    expected_stops: float

    @property
    def expected_income(self) -> int:
        """Fee income expected until the end (the fee times the other groups' expected stops)."""
        return int(round(self.fee * self.expected_stops))


@dataclass
class AdviceAnswer:
    """The advice for ``group`` at ``time``: the ranked stations and what the expectation is based on."""

    group: str
    time: int
    cash: int
    basis: str
    stations: list[Advice] = field(default_factory=list)


def _stats_path(day: GameDay) -> Path:
    feed = Path(day.feed)
    try:
        st = feed.stat()
        ident = f"{feed.resolve()}:{st.st_size}:{st.st_mtime_ns}"
    except OSError:
        ident = str(day.feed)
    key = hashlib.sha256(f"{ident}|{day.game.digest}|{day.date}|{day.min_transfer_minutes}".encode()).hexdigest()
    return config.cache_root() / "lab" / f"{day.game.name}-{day.date}-{key[:16]}.json"


def save_rates(day: GameDay, rep: dict) -> Path | None:
    """Keep a lab report's stop rates for ``advise`` on this day (in the cache; a read-only cache is skipped)."""
    groups = max(1, int(rep["meta"]["groups"]))
    rates = {s["name"]: {h: n / groups for h, n in s["stops_by_hour"].items()} for s in rep["stations"]}
    path = _stats_path(day)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, json.dumps({"days": rep["meta"]["days"], "rates": rates}, sort_keys=True))
    except OSError:
        return None
    return path


def _rates(day: GameDay, board: Board) -> tuple[str, dict[str, dict[int, float]]]:
    """Stops per group and hour at each station: the lab's (when a run of this day is kept), else the timetable's."""
    path = _stats_path(day)
    if path.is_file():
        try:
            doc = json.loads(path.read_text("utf-8"))
            return "lab", {n: {int(h): float(x) for h, x in r.items()} for n, r in doc["rates"].items()}
        except (OSError, ValueError, KeyError, TypeError):
            pass  # a damaged file: the timetable estimate answers
    net = day.network
    calls = np.zeros((day.timetable.n_stations, 48))
    arr_station = net.stop_station[net.c_to]
    hours = np.minimum(net.c_arr // 3600, 47)
    np.add.at(calls, (arr_station[net.c_drop], hours[net.c_drop]), 1)
    total = calls.sum(axis=0)
    share = np.divide(calls, total, out=np.zeros_like(calls), where=total > 0)
    return "timetable", {board.names[s]: {h: float(STOPS_PER_GROUP_HOUR * share[s, h]) for h in range(48)
                                          if share[s, h]} for s in range(len(board.names))}


def _expected(rates: dict[int, float], start: int, end: int) -> float:
    """Expected stops of one group between ``start`` and ``end`` (seconds) at the hourly ``rates``."""
    total = 0.0
    for h, r in rates.items():
        lo, hi = max(start, h * 3600), min(end, (h + 1) * 3600)
        if hi > lo:
            total += r * (hi - lo) / 3600
    return total


def _plans(play: Play, t: int) -> dict[str, tuple[list, int]]:
    """Each group's planned stops from ``t`` (its itinerary's rest) and when that plan ends."""
    out = {}
    day = play.day
    for g in play.refresh().game.groups:
        st, model = status_and_model(play, g.key, t)
        roll = model.last_roll(st.state.time)
        legs = ()
        if st.state.obligation.kind == "heading" and roll is not None and model.on_plan(roll, st.state.time):
            legs = model.rest_of_plan(roll, st.state.time)
        pos = st.state.position
        stops = along(day, legs, seated=bool(pos is not None and pos.seated)) if legs else []
        until = stops[-1].time if stops else st.state.time
        out[st.name] = ([a for a in stops if a.kind == STATION and a.time >= t], until)
    return out


def advise(play: Play, group: str, t: int, *, top: int = 5) -> AdviceAnswer:
    """The stations worth buying now for ``group`` at ``t`` (see module docstring)."""
    day = play.day
    board = _board(day)
    rules = day.ledger_rules
    end = day.game.clock.end
    st, _model = status_and_model(play, group, t)
    name = st.name
    ledger = play.state.ledger.view(rules, play.id)
    cash = ledger.cash.get(name, rules.start_cash)
    plans = _plans(play, t)
    basis, rates = _rates(day, board)
    cand: dict[str, tuple[int, str]] = {}
    for a in plans.get(name, ([], t))[0]:
        cand.setdefault(a.name, (a.time, f"on your way at {fmt_clock(a.time)}"))
    pos = st.state.position
    if pos is not None and not pos.seated:
        cand.setdefault(board.names[pos.station], (t, "where you are"))
        for r in rides_from(day, pos.station, t, since=pos.since):
            if r.arrival <= t + NEAR_SECONDS:
                cand.setdefault(board.names[r.to_station], (r.arrival, f"a train you may take stops there at "
                                                                      f"{fmt_clock(r.arrival)}"))
    out = []
    for station, (when, why) in cand.items():
        if when >= end or ledger.holding(STATION, station) is not None or station in ledger.disputes:
            continue
        price = board.price[day.station(station)]
        if price > cash:
            continue
        certain, expected = 0, 0.0
        for other, (stops, until) in plans.items():
            if other == name:
                continue
            mine = sum(1 for a in stops if a.name == station and a.time > when)
            certain += mine
            expected += mine + _expected(rates.get(station, {}), max(when, until), end)
        if expected > 0:
            out.append(Advice(station, price, rules.station_fee(price, 0), when, why, certain, round(expected, 3)))
    out.sort(key=lambda a: (-a.expected_income / a.price, -a.expected_income, a.name))
    return AdviceAnswer(name, t, cash, basis, out[:top])


_BOARDS: dict[int, tuple[GameDay, Board]] = {}


def _board(day: GameDay) -> Board:
    """The day's :class:`Board`, built once per loaded day."""
    kept = _BOARDS.get(id(day))
    if kept is None or kept[0] is not day:
        if len(_BOARDS) > 8:
            _BOARDS.clear()
        kept = _BOARDS[id(day)] = (day, Board(day))
    return kept[1]


def advice_json(a: Advice) -> dict:
    """One station of the advice as JSON."""
    return {"name": a.name, "price": a.price, "fee": a.fee, "expected_income": a.expected_income,
            "net": a.expected_income - a.price, "pays_back": a.expected_income >= a.price, "at": fmt_clock(a.at),
            "why": a.why, "certain_stops": a.certain_stops, "expected_stops": a.expected_stops}


def advise_json(ans: AdviceAnswer) -> dict:
    """``planner advise --json``."""
    return {"group": ans.group, "time": fmt_clock(ans.time), "cash": ans.cash, "basis": ans.basis,
            "stations": [advice_json(a) for a in ans.stations]}


def top_advice(play: Play, group: str, t: int) -> dict | None:
    """The best station to buy now (``next``'s and the phone's ``buy_advice``), or None."""
    if play.day.game.clock.over(t):
        return None
    ans = advise(play, group, t, top=1)
    return advice_json(ans.stations[0]) if ans.stations else None


def next_with_advice(play: Play, group: str, t: int) -> dict:
    """``planner next --json`` (the phone's ``next`` too): the service's answer plus ``buy_advice``, the best
    station to buy now."""
    ans = next_step(play, group, t)
    return next_json(play.day, ans) | {"buy_advice": top_advice(play, group, ans.status.state.time)}
