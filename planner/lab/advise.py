"""``advise``: during a real game, the stations a group may buy on its way, ranked by the fee income they are
expected to bring until the end against their price (issue 21).

Candidates are the stations the group will be at, as its day has it (:class:`~planner.game.day.GroupDay` through
the service's use cases): where it stands, the stops of the itinerary it must follow while a target binds it
(``next``'s, :func:`~planner.service.questions.next_step.way_on`), and only while it moves freely (before the dice, free time)
the stops of the trains it may take now; that nobody owns and that it can afford. A station's expected income is
its fee times the stops the *other* groups are expected to make there before the end: the stops on their own
itineraries (certain), and after those, the rate at which groups stop there hour by hour (:mod:`planner.lab.rates`:
a kept ``planner simulate`` run of this game day, else a timetable estimate). The time asked is read as ``next``
reads it: an earlier time than the group's latest entry gives its latest state.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from planner.errors import InputError
from planner.game.day import GroupState
from planner.lab.moves import Along, Board, along, rides_from
from planner.lab.rates import Basis, load_rates
from planner.ledger.model import STATION
from planner.service import Play, next_json, next_step
from planner.service.answers.group_status import AdviseAnswer, NextAnswer, StationAdvice
from planner.service.change.group_day import status_and_model
from planner.service.questions.next_step import Way, way_on
from planner.service.read.ledger_views import playing
from planner.service.setup.playing import GameDay
from planner.util.i18n import _
from planner.util.timefmt import fmt_clock

NEAR_SECONDS = 30 * 60  # "near": the stops of the trains it may take now, within half an hour


@dataclass(frozen=True)
class Advice:
    """One station to buy: where and when the group is there, its price and expected fee income."""

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

    @property
    def pays_back(self) -> bool:
        """True when the expected income covers the price before the end."""
        return self.expected_income >= self.price


@dataclass
class AdviceAnswer:
    """The advice for ``group`` at ``time`` (its state's time): the ranked stations, what the expectation rests
    on (``rates``), what the group is doing (its obligation's kind) and where advice looked (``scope``: ``way``,
    where it stands and its itinerary; ``free``, where it stands and the trains it may take; ``here``, where it
    stands; ``unknown``, where the group is is not known yet: no position reported; ``over``, the game is over)."""

    group: str
    time: int
    cash: int
    rates: Basis
    doing: str
    scope: str
    stations: list[Advice] = field(default_factory=list)


def _stops(day: GameDay, state: GroupState, way: Way | None) -> list[Along]:
    """The stations a group is at on its way on (none without one)."""
    if way is None or way.journey is None or not way.journey.legs:
        return []
    pos = state.position
    return [a for a in along(day, way.journey.legs, seated=bool(pos is not None and pos.seated))
            if a.kind == STATION]


def _plans(play: Play, t: int) -> dict[str, tuple[list[Along], int]]:
    """Each group's stops from ``t`` on the itinerary it must follow (``next``'s), and when that ends."""
    out = {}
    for g in play.refresh().game.groups:
        st, model = status_and_model(play, g.key, t)
        stops = _stops(play.day, st.state, way_on(play, st, model))
        until = stops[-1].time if stops else st.state.time
        out[st.name] = ([a for a in stops if a.time >= t], until)
    return out


def _candidates(day: GameDay, board: Board, state: GroupState, mine: list[Along]) -> dict[str, tuple[int, str]]:
    """Where the group may buy, with when and why: the stops of its way, where it stands, and while it moves
    freely, the stops of the trains it may board of its own choice within :data:`NEAR_SECONDS`."""
    t, pos, ob = state.time, state.position, state.obligation
    cand: dict[str, tuple[int, str]] = {}
    for a in mine:
        cand.setdefault(a.name, (a.time, _("on your way at {time}").format(time=fmt_clock(a.time))))
    if pos is None or pos.seated:
        return cand
    cand.setdefault(board.names[pos.station], (t, _("where you are")))
    if ob.moves_freely:
        # it got off at ``since`` (as the service's origin_of reads a standing group): the station's shortest change
        # time after it, the window from it, trains leaving from now on
        for r in rides_from(day, pos.station, pos.since, now=t):
            if r.arrival <= t + NEAR_SECONDS and ob.may_board_freely(r.departure):
                cand.setdefault(board.names[r.to_station],
                                (r.arrival, _("a train you may take stops there at {time}").format(
                                    time=fmt_clock(r.arrival))))
    return cand


def _scope(state: GroupState) -> str:
    """Where advice looks for the group in this state (see :class:`AdviceAnswer`)."""
    ob = state.obligation
    if ob.kind == "ended":
        return "over"
    if ob.kind in ("heading", "jail"):
        return "way"
    return "free" if ob.moves_freely else "here"


def advise(play: Play, group: str, t: int, *, top: int = 5) -> AdviceAnswer:
    """The stations to buy for ``group`` at ``t``, best first (see module docstring)."""
    day = play.day
    board = _board(day)
    rules = day.ledger_rules
    end = day.game.clock.end
    st, _model = status_and_model(play, group, t)
    t = st.state.time  # as next reads it: never before the group's latest entry
    name = st.name
    ledger = play.state.ledger.view(rules, play.id)
    cash = ledger.cash.get(name, rules.start_cash)
    rates = load_rates(day, board.names)
    if st.state.obligation.kind == "ended":  # the game is over: nothing more to buy
        return AdviceAnswer(name, t, cash, rates.basis, "ended", "over")
    if st.state.position is None:  # no position reported yet: nowhere to look for a station
        return AdviceAnswer(name, t, cash, rates.basis, st.state.obligation.kind, "unknown")
    plans = _plans(play, t)
    mine = plans.get(name, ([], t))[0]
    out = []
    for station, (when, why) in _candidates(day, board, st.state, mine).items():
        if when >= end or ledger.holding(STATION, station) is not None or station in ledger.disputes:
            continue
        price = board.price[day.station(station)]
        if price > cash:
            continue
        certain, expected = 0, 0.0
        for other, (stops, until) in plans.items():
            if other == name:
                continue
            n = sum(1 for a in stops if a.name == station and a.time > when)
            certain += n
            expected += n + _expected(rates.by_station.get(station, {}), max(when, until), end)
        if expected > 0:
            out.append(Advice(station, price, rules.station_fee(price, 0), when, why, certain, round(expected, 3)))
    out.sort(key=lambda a: (-a.expected_income / a.price, -a.expected_income, a.name))
    return AdviceAnswer(name, t, cash, rates.basis, st.state.obligation.kind, _scope(st.state), out[:top])


def _expected(rates: dict[int, float], start: int, end: int) -> float:
    """Expected stops of one group between ``start`` and ``end`` (seconds) at the hourly ``rates``."""
    total = 0.0
    for h, r in rates.items():
        lo, hi = max(start, h * 3600), min(end, (h + 1) * 3600)
        if hi > lo:
            total += r * (hi - lo) / 3600
    return total


_BOARDS: dict[int, tuple[GameDay, Board]] = {}


def _board(day: GameDay) -> Board:
    """The day's :class:`Board`, built once per loaded day."""
    kept = _BOARDS.get(id(day))
    if kept is None or kept[0] is not day:
        if len(_BOARDS) > 8:
            _BOARDS.clear()
        kept = _BOARDS[id(day)] = (day, Board(day))
    return kept[1]


def advice_json(a: Advice) -> StationAdvice:
    """One station of the advice as answers carry it."""
    return StationAdvice(name=a.name, price=a.price, fee=a.fee, expected_income=a.expected_income,
                         net=a.expected_income - a.price, pays_back=a.pays_back, at=fmt_clock(a.at), why=a.why,
                         certain_stops=a.certain_stops, expected_stops=a.expected_stops)


def advise_json(ans: AdviceAnswer) -> AdviseAnswer:
    """``planner advise``: ``basis`` is the rates' source, ``rates`` all of their basis, ``paying_back`` how many of
    the listed stations pay back their price before the end."""
    return AdviseAnswer(group=ans.group, time=fmt_clock(ans.time), cash=ans.cash, over=ans.scope == "over",
                        doing=ans.doing, scope=ans.scope, basis=ans.rates.source, rates=ans.rates.to_json(),
                        paying_back=sum(1 for a in ans.stations if a.pays_back),
                        stations=[advice_json(a) for a in ans.stations])


def top_advice(play: Play, group: str, t: int) -> StationAdvice | None:
    """The best station to buy now (``next``'s and the phone's ``buy_advice``), or None."""
    if play.day.game.clock.over(t):
        return None  # the game is over (advise would say so): nothing to work out
    try:
        playing(play, play.group(group).name)
    except InputError:
        return None  # §6: a group that is out buys nothing
    ans = advise(play, group, t, top=1)
    return advice_json(ans.stations[0]) if ans.stations else None


def next_with_advice(play: Play, group: str, t: int) -> NextAnswer:
    """``planner next`` (the phone's ``next`` too): the service's answer plus ``buy_advice``, the best station to
    buy now."""
    ans = next_step(play, group, t)
    out = next_json(play.day, ans)
    out.buy_advice = top_advice(play, group, ans.status.state.time)
    return out
