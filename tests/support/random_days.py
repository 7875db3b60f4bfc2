"""Whole random game days played through the service layer, held against an independent model of the day (played by
tests/service/test_whole_day_property.py on days written there, and by tests/ingest/test_synthetic_area.py on the
SYNTHETIC whole board).

Each day (a seed) has two or three groups of one game. Step by step they report positions (at a station, or in a
train leaving from where they are), roll (6s and repeated numbers included), undo, buy stations and pay what they
owe, until the game's end and past it. After every step:

* every itinerary handed out (a roll's answer, ``next``) passes the change window's own check (``zugzwang
  --check``), and leaves no earlier than it was asked (but for the ride the group sits in); none of its legs has
  zero length, and its changes are counted as its legs show;
* a group's times never run backwards, and the day's obligation is what the independent model says (may it roll,
  must it head for a target, is it over);
* the targeted targets are the model's (variant A skips the targeted ones of a number);
* the fees of an itinerary are exactly the stops at other groups' stations on it;
* they also draw cards, pay taxes, roll for the free parking, sell stations to each other and settle dice-offs;
* a stop's fee, once listed as due, stays listed until the group pays it, and is never paid before its stop;
* money is conserved (the groups' cash, the free parking and the bank add up to nothing made or lost).

A failure names its seed: ``pytest tests/service/test_whole_day_property.py -k "seed_<variant>_<n>"`` (the whole
board: ``tests/ingest/test_synthetic_area.py -k seed_area_<n>``) replays it (the days of a test are its seeds
``range(start, start + DAYS_PER_TEST)``; ``PLANNER_DAY_SEED=N`` plays that one day only).
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field

import pytest

from planner.errors import InputError
from planner.game.zugzwang import check_legs
from planner.ledger.apply import fee_due
from planner.ledger.model import STATION, TUNNEL
from planner.service import (
    GameDay,
    PlaceRequest,
    Play,
    RollRequest,
    implicit_record,
    next_step,
    roll,
    set_position,
)
from planner.service import status as group_status
from planner.service import undo as undo_entry
from planner.service.change.ledger_events import LedgerRequest, record_event
from planner.service.questions.ledger_now import ledger_now
from planner.store.state import State
from planner.util.timefmt import parse_clock as T
from tests.support.answers import plain

DAYS_PER_TEST = 25
STEPS = 16


@dataclass
class ModelGroup:
    """What the independent model knows of one group: its entries, replayed for its state."""

    name: str
    entries: list[tuple] = field(default_factory=list)  # ("roll", time, answer) | ("pos", time)

    @property
    def clock(self) -> int:
        return max((e[1] for e in self.entries), default=0)

    def targeted(self) -> list[str]:
        out: list[str] = []
        for e in self.entries:
            if e[0] == "roll" and e[2]["kind"] == "target" and e[2]["target"] not in out:
                out.append(e[2]["target"])
        return out

    def seated_since_last_roll(self) -> bool:
        last = next((i for i in range(len(self.entries) - 1, -1, -1) if self.entries[i][0] == "roll"), None)
        return last is not None and any(e[0] == "seated" for e in self.entries[last + 1:])

    def last_roll(self) -> dict | None:
        rolls = [e[2] for e in self.entries if e[0] == "roll"]
        return rolls[-1] if rolls else None

    def heading_until(self, day: GameDay) -> int | None:
        """When the group may roll again after its last target roll (arrival, variant B: 5 minutes before), unless
        it reported itself at the target since."""
        last = self.last_roll()
        if last is None or last["kind"] != "target" or last["arrival"] is None or not last["legs"]:
            return None
        t_roll = T(last["rolled_at"])
        for e in self.entries:
            if e[0] == "pos" and e[1] > t_roll and e[2] == last["target"]:
                return None
        return T(last["reroll_at"]) if last.get("reroll_at") else T(last["arrival"])


def _legs(day: GameDay, answer: dict) -> list[dict]:
    tt = day.timetable
    out = []
    for i, leg in enumerate(answer["legs"]):
        if leg.get("route") == "walk":
            a, b = day.station(leg["from"]), day.station(leg["to"])
            out.append({"from_station": a, "to_station": b, "departure": T(leg["departure"]),
                        "arrival": T(leg["arrival"]), "line": i, "from_stop": -1, "to_stop": -1})
            continue
        trip = tt.trip_index[leg["trip_id"]]
        rows = tt.trip_stop_times(trip)
        dep, arr = T(leg["departure"]), T(leg["arrival"])
        board = next(r for r in rows if tt.station_name[tt.stop_station[tt.st_stop[r]]] == leg["from"]
                     and dep in (int(tt.st_dep[r]), int(tt.st_arr[r])))
        alight = next(r for r in rows if r >= board and tt.station_name[tt.stop_station[tt.st_stop[r]]] == leg["to"]
                      and int(tt.st_arr[r]) == arr)
        out.append({"from_station": day.station(leg["from"]), "to_station": day.station(leg["to"]),
                    "departure": dep, "arrival": arr, "line": i, "from_stop": int(tt.st_stop[board]),
                    "to_stop": int(tt.st_stop[alight]), "rows": (trip, board, alight)})
    return out


def _check_itinerary(day: GameDay, answer: dict, asked: int, seed: int) -> None:
    if not answer.get("legs"):
        return
    for leg in answer["legs"]:  # a ride or walk goes somewhere; getting off where the train is now is no leg
        assert leg["from"] != leg["to"], (seed, "a leg of zero length", leg)
    rides = [leg for leg in answer["legs"] if leg["route"] != "walk"]
    assert answer["changes"] == max(0, len(rides) - 1), (seed, "changes not as the legs show", answer)
    assert all(not leg.get("seated") for leg in answer["legs"][1:]), (seed, "seated in a later leg")
    legs = _legs(day, answer)
    first = 1 if answer["legs"][0].get("seated") else 0  # the ride the group sits in left before it asked
    if first < len(legs):
        assert legs[first]["departure"] >= asked - 60 or answer.get("train"), (seed, "leaves before it was asked")
    z = answer.get("zugzwang") or {}
    start = (T(z["since"]), asked) if z.get("since") else None
    assert check_legs(day.network, legs, day.window, start=start) == [], (seed, answer["legs"])


def _check_fees(play: Play, group: str, answer: dict, seed: int, seated: bool) -> int:
    """The itinerary's station fees are exactly the stops at other groups' stations on it; returns how many."""
    if "fees" not in answer or not answer.get("legs"):
        return 0
    day = play.day
    tt = day.timetable
    rules = day.ledger_rules
    state = play.state.ledger.state(rules, play.id)
    want = []
    for i, leg in enumerate(_legs(day, answer)):
        if "rows" not in leg:
            # seated in a train at or approaching its last stop, the group walks on from there: the ride is no leg
            # (it goes nowhere), the stop counts
            rows = [leg["from_station"]] if i == 0 and seated else []
        else:
            _trip, board, alight = leg["rows"]
            # seated: the stop its train is at or approaching counts (the leg shown from the stop before, if any)
            at_start = i == 0 and seated and not answer["legs"][0].get("seated")
            rows = [int(tt.stop_station[tt.st_stop[r]]) for r in range(board if at_start else board + 1, alight + 1)
                    if tt.st_pickup[r] or tt.st_dropoff[r] or r == alight]
        for s in rows:
            name = tt.station_name[s]
            h = state.holding(STATION, name)
            if h is not None and h.owner != group and not h.mortgaged and name not in state.disputes:
                want.append((name, h.owner, rules.station_fee(h.price, h.level)))
    got = [(f["name"], f["owner"], f["amount"]) for f in answer["fees"] if f["kind"] == STATION]
    assert got == want, (seed, got, want)
    assert all(fee_due(rules, state, group, STATION, n) is not None for n, _o, _a in got)
    return len(got)


def _check_next(play: Play, group: str, t: int, seed: int, stats: dict[str, int]) -> None:
    """``next``: its itinerary (the rest of the roll's, or a new one) is legal and costs what its stops cost, and
    none of its fees can be paid before its stop."""
    nxt = next_step(play, group, t)
    if nxt.itinerary is not None and nxt.itinerary.legs:
        it = plain(nxt.itinerary)
        _check_itinerary(play.day, it | {"zugzwang": None}, nxt.status.state.time, seed)
        stats["fees"] += _check_fees(play, group, it, seed, seated=nxt.status.state.position.seated)
        _not_before_its_stop(play, group, it, nxt.status.state.time, stats, seed)
        stats["itineraries"] += 1


def _conserved(play: Play, seed: int) -> None:
    rules = play.day.ledger_rules
    st = play.state.ledger.state(rules, play.id)
    assert sum(st.cash.values()) + st.parking + st.bank == 0, (seed, st.cash, st.parking, st.bank)


def _roll_value(day: GameDay, rnd: random.Random, last: dict | None) -> int:
    dice = day.game.dice
    if last is not None and rnd.random() < 0.25:
        return int(last["roll"])  # the same number again
    if dice.count == 1:
        return rnd.choice([1, 2, 3, 4, 5, 6, 6])
    return rnd.randint(1, 6) * 10 + rnd.randint(1, 6)


@dataclass
class Dues:
    """The fees each group was told are due (by stop), and what it paid: a listed fee stays listed until paid."""

    listed: dict[str, set[tuple]] = field(default_factory=dict)
    paid: dict[str, set[tuple]] = field(default_factory=dict)
    seen: dict[str, int] = field(default_factory=dict)  # when each group's list was read

    def forget(self, group: str | None = None, before: int | None = None) -> None:
        """A group undid an entry of its day (its stops changed), or an event decided before a group's list was
        read was recorded after it (another group's clock is behind: owners at its stops may have changed)."""
        for g in [group] if group else list(self.listed):
            if before is None or self.seen.get(g, 0) > before:
                self.listed.pop(g, None)


def _record(play: Play, req: LedgerRequest, dues: Dues):
    res = record_event(play, req).answer()
    dues.forget(before=None if res.undoes else req.time)
    return res


def _check_dues(play: Play, g: ModelGroup, t: int, rnd: random.Random, dues: Dues, stats: dict[str, int],
                seed: int) -> None:
    """Every fee listed before and not paid is listed still; none lies after ``t``; some are paid (once)."""
    now = ledger_now(play, g.name, t)
    listed = {(f.kind, f.name, f.time, f.owner) for f in now.fees_due}
    at = T(now.time)
    assert all(T(f.time) <= at for f in now.fees_due), (seed, "a fee due before its stop", now.fees_due)
    if at >= dues.seen.get(g.name, 0):  # (a step may ask about an earlier time than the last one asked)
        missing = dues.listed.get(g.name, set()) - listed - dues.paid.get(g.name, set())
        assert not missing, (seed, g.name, "a fee due vanished unpaid", missing, listed)
        dues.listed[g.name], dues.seen[g.name] = listed, at
    for f in now.fees_due:
        if rnd.random() < 0.5:
            continue
        dice = (rnd.randint(1, 6), rnd.randint(1, 6)) if f.kind == TUNNEL else ()
        paid = _record(play, LedgerRequest(g.name, "pay", T(f.time), dice=dice, now=t, **{f.kind: f.name}), dues)
        assert paid.time == f.time and (f.amount is None or paid.amount == f.amount), (seed, f, paid)
        dues.paid.setdefault(g.name, set()).add((f.kind, f.name, f.time, f.owner))
        with pytest.raises(InputError, match="paid once"):  # the group's other phone
            record_event(play, LedgerRequest(g.name, "pay", T(f.time), dice=dice, now=t, **{f.kind: f.name}))
        stats["fees_due_paid"] += 1
    left = {(f.kind, f.name, f.time, f.owner) for f in ledger_now(play, g.name, t).fees_due}
    assert not left & dues.paid.get(g.name, set()), (seed, "a paid fee still listed", left)


def _not_before_its_stop(play: Play, group: str, ans: dict, t: int, stats: dict[str, int], seed: int) -> None:
    """A fee of the itinerary just handed out whose stop lies ahead cannot be paid yet."""
    for f in ans.get("fees", []):
        if f.get("time") and T(f["time"]) > t + 60:
            with pytest.raises(InputError, match="cannot be paid before"):
                record_event(play, LedgerRequest(group, "pay", T(f["time"]), now=t, **{f["kind"]: f["name"]}))
            stats["early_fees"] += 1
            return


def _diceoff(play: Play, g: ModelGroup, o: ModelGroup, where: str, t: int, rnd: random.Random, dues: Dues,
             stats: dict[str, int]) -> None:
    """Two groups decide to buy one station in the same minute (§7.2): each rolls until one wins."""
    set_position(play, o.name, PlaceRequest(where), t)
    o.entries.append(("pos", t, where))
    _record(play, LedgerRequest(g.name, "buy", t, station=where, now=t), dues)
    if not _record(play, LedgerRequest(o.name, "buy", t, station=where, now=t), dues).pending:
        return
    rules = play.day.ledger_rules
    for _ in range(20):
        d = play.state.ledger.view(rules, play.id).disputes.get(where)
        if d is None:
            stats["diceoffs"] += 1
            return
        roller = next(x for x in d.rolling if x not in d.rolls)
        _record(play, LedgerRequest(roller, "diceoff", t, station=where, dice=(rnd.randint(1, 6),
                                                                                 rnd.randint(1, 6))), dues)
    raise AssertionError("a dice-off that never ends")


MONEY_MOVES = ("draw", "tax", "parking", "sell", "diceoff", "visit")


def _more_money(play: Play, groups: list[ModelGroup], g: ModelGroup, st, t: int, rnd: random.Random, dues: Dues,
                stats: dict[str, int], what: str) -> None:
    """Cards, taxes, the free parking, a sale between groups, a dice-off, a visit to another group's station:
    through the service layer."""
    rules = play.day.ledger_rules
    ledger = play.state.ledger.view(rules, play.id)
    if what == "visit":  # to a station another group owns: a stop whose fee is due
        theirs = [h.name for h in ledger.holdings.values() if h.kind == STATION and h.owner != g.name]
        if theirs and (st.position is None or not st.position.seated):
            where = rnd.choice(theirs)
            set_position(play, g.name, PlaceRequest(where), t)
            g.entries.append(("pos", t, where))
            stats["visits"] += 1
    elif what == "draw":
        card = _record(play, LedgerRequest(g.name, "draw", t, deck=rnd.choice(list(rules.decks)), now=t), dues)
        stats["draws"] += 1
        stats["kept"] += rules.cards[card.card].kept
    elif what == "tax":
        _record(play, LedgerRequest(g.name, "tax", t, reason=rnd.choice(list(rules.taxes)), now=t), dues)
        stats["taxes"] += 1
    elif what == "parking":  # half of the rolls hit the game's sum: the free parking is emptied often enough
        hit = rules.parking_empty_sum - 1
        dice = (1, hit) if rnd.random() < 0.5 else (rnd.randint(1, 6), rnd.randint(1, 6))
        before = ledger.parking
        got = _record(play, LedgerRequest(g.name, "parking_empty", t, dice=dice, now=t), dues)
        # (what the parking held at the roll's time: payments decided later, by groups further ahead, come after)
        assert got.amount >= 0 and (got.amount == 0 or sum(dice) == rules.parking_empty_sum), (got, before)
        stats["parking_emptied"] += sum(dice) == rules.parking_empty_sum
    elif what == "sell":  # a group that owns a station offers it to another one, which mostly accepts
        sellers = [x for x in groups if x.name not in ledger.out
                   and any(not h.mortgaged for h in ledger.owned(x.name, STATION))]
        if not sellers:
            return
        seller = g if g in sellers else rnd.choice(sellers)
        buyers = [o for o in groups if o is not seller and o.name not in ledger.out]
        if not buyers:
            return
        o = rnd.choice(buyers)
        station = rnd.choice([h.name for h in ledger.owned(seller.name, STATION) if not h.mortgaged])
        offer = _record(play, LedgerRequest(seller.name, "sell", t, station=station, to=o.name,
                                            amount=rnd.randrange(0, 6000, 500), now=t), dues)
        if rnd.random() < 0.8:
            _record(play, LedgerRequest(o.name, "accept", t, offer=offer.seq, now=t), dues)
            stats["sales"] += 1
    else:
        pos = st.position
        others = [o for o in groups if o is not g and o.clock <= t and o.name not in ledger.out]
        if pos is not None and not pos.seated and others:
            _diceoff(play, g, rnd.choice(others), play.day.timetable.station_name[pos.station], t, rnd, dues, stats)


def play_day(day: GameDay, seed: int, stats: dict[str, int]) -> None:
    """Play one random day, counting in ``stats`` what it did (every step checked)."""
    rnd = random.Random(seed)
    state = State(":memory:")
    play = Play(day, implicit_record(state, day, day.game.name), state)
    clock = day.game.clock
    tt = day.timetable
    stations = [tt.station_name[s] for s in range(tt.n_stations)]
    groups = [ModelGroup(n) for n in ("Rot", "Blau", "Gelb")[:rnd.randint(2, 3)]]
    dues = Dues()
    t0 = rnd.randrange(clock.start, clock.dice_from + 2 * 3600, 60)  # mornings and afternoons
    for g in groups:
        set_position(play, g.name, PlaceRequest(rnd.choice(stations)), t0)
        g.entries.append(("pos", t0, None))
    for _ in range(STEPS):
        g = rnd.choice(groups)
        entries = {o.name: len(o.entries) for o in groups}
        t = g.clock + rnd.randrange(60, 60 * 60, 60)
        if rnd.random() < 0.08:
            t = clock.end + rnd.randrange(0, 1800, 60)  # the end, and past it
        t = min(t, 23 * 3600)
        stats["steps"] += 1
        act = rnd.random()
        st = group_status(play, g.name, max(t, g.clock)).state
        assert st.time >= g.clock, (seed, "time ran backwards")
        if clock.over(t):
            assert st.obligation.kind == "ended", (seed, st.obligation)
            with pytest.raises(InputError):
                roll(play, RollRequest(g.name, _roll_value(day, rnd, None), t))
            stats["after_end"] += 1
            continue
        heading = g.heading_until(day)
        if act < 0.4:  # a roll
            value = _roll_value(day, rnd, g.last_roll())
            # a train reported since the roll may reach the target before the planned arrival: then either is right
            sure = not g.seated_since_last_roll()
            may = t >= clock.dice_from and (heading is None or t >= heading)
            try:
                ans = roll(play, RollRequest(g.name, value, t)).to_json()
            except InputError as exc:
                assert not (may and sure), (seed, "refused although allowed", str(exc))
                stats["refused"] += 1
                continue
            assert may or not sure, (seed, "a roll the model refuses was recorded", ans)
            before = g.targeted()
            if ans["kind"] == "target":
                assert ans["target"] not in before or not day.game.dice.skip_targeted, (seed, ans["target"], before)
            assert ans["targeted"] == before + ([ans["target"]] if ans["kind"] == "target" and ans["target"]
                                               not in before else []), (seed, ans["targeted"], before)
            g.entries.append(("roll", t, ans))
            _check_itinerary(day, ans, T(ans["plan_from"]), seed)
            stats["fees"] += _check_fees(play, g.name, ans, seed, seated=bool(ans.get("train")))
            _not_before_its_stop(play, g.name, ans, t, stats, seed)
            stats["rolls"] += 1
        elif act < 0.58:  # where we are: a station, or a train leaving from where the day has the group
            pos = st.position
            if pos is not None and not pos.seated and rnd.random() < 0.5:
                net = day.network
                first = net.first_connection_at(t)
                deps = [c for c in range(first, min(first + 4000, net.n_connections))
                        if int(net.stop_station[net.c_from[c]]) == pos.station and net.c_pick[c]
                        and not clock.over(int(net.c_dep[c]))][:5]
                if deps:
                    c = rnd.choice(deps)
                    trip = tt.trip_id[int(day.network.c_trip[c])]
                    t_train = int(day.network.c_dep[c])
                    if t_train >= g.clock:
                        set_position(play, g.name, PlaceRequest(tt.station_name[pos.station], None, trip), t_train)
                        g.entries.append(("seated", t_train, None))
                        stats["trains"] += 1
                        continue
            at = rnd.choice(stations)
            set_position(play, g.name, PlaceRequest(at), t)
            g.entries.append(("pos", t, tt.station_name[day.station(at)]))
            stats["positions"] += 1
        elif act < 0.64:  # a mistyped entry undone (the group's first report stays: it needs a position)
            if len(g.entries) < 2:
                continue
            res = undo_entry(play, g.name)
            dues.forget(g.name)
            kind = g.entries.pop()[0]
            assert (res.removed is not None) == (kind == "roll"), (seed, res, kind)
            stats["undos"] += 1
        elif act < 0.78:  # money: buy where it stands, often at a station on another group's way (a fee to come)
            pos = st.position
            ways = [leg["to"] for o in groups if o is not g and (last := o.last_roll()) for leg in last["legs"]]
            if ways and rnd.random() < 0.6:
                where = rnd.choice(ways)
                set_position(play, g.name, PlaceRequest(where), t)
                g.entries.append(("pos", t, where))
            elif pos is None or pos.seated:
                continue
            else:
                where = tt.station_name[pos.station]
            try:
                _record(play, LedgerRequest(g.name, "buy", t, station=where), dues)
                stats["buys"] += 1
                for o in groups:  # the others ask what their way costs now
                    if o is not g and not clock.over(max(t, o.clock)):
                        _check_next(play, o.name, max(t, o.clock), seed, stats)
            except InputError:
                stats["refused"] += 1  # owned already, no cash, or its day has it elsewhere: refused with a reason
        elif act < 0.9:  # cards, taxes, the free parking, sales, dice-offs, a visit to another group's station
            for what in rnd.sample(MONEY_MOVES, 2):
                try:
                    _more_money(play, groups, g, st, t, rnd, dues, stats, what)
                except InputError:
                    stats["refused"] += 1  # in a bus (no such tax), in a train between stops, no cash, ...
        else:  # what now?
            _check_next(play, g.name, t, seed, stats)
        for o in groups:  # a day told anew from a time before its list was read: its stops since may differ
            if len(o.entries) > entries[o.name]:
                dues.forget(o.name, before=min(e[1] for e in o.entries[entries[o.name]:]))
        _check_dues(play, g, max(t, g.clock), rnd, dues, stats, seed)
        _conserved(play, seed)
    stats["days"] += 1
    state.close()


def _seeds(start: int) -> list[int]:
    one = os.environ.get("PLANNER_DAY_SEED")
    return [int(one)] if one else list(range(start, start + DAYS_PER_TEST))


def played(day: GameDay, start: int) -> dict[str, int]:
    stats: dict[str, int] = dict.fromkeys(("days", "steps", "rolls", "positions", "trains", "undos", "buys",
                                           "itineraries", "refused", "after_end", "fees", "draws", "kept", "taxes",
                                           "parking_emptied", "sales", "diceoffs", "visits", "fees_due_paid",
                                           "early_fees"), 0)
    for seed in _seeds(start):
        play_day(day, seed, stats)
    print(f"played {stats}")  # shown with -s: how many days and steps the test played
    return stats


def real_days(stats: dict[str, int]) -> None:
    """The days were real days: every kind of step happened."""
    if "PLANNER_DAY_SEED" in os.environ:
        return
    assert stats["days"] == DAYS_PER_TEST and stats["steps"] == DAYS_PER_TEST * STEPS
    assert min(stats[k] for k in ("rolls", "positions", "trains", "undos", "buys", "fees", "draws", "taxes",
                                  "parking_emptied", "sales", "diceoffs", "fees_due_paid", "early_fees")) > 0, stats
