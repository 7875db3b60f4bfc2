"""Who owns a station is decided by the decision's time, not by the order phones report it (§19, RULES.md §3b): a
purchase decided earlier and reported within the §13 minutes takes the station from a later one recorded first
(that one is undone, with its money), decisions in the same minute are a dice-off, a purchase reported later than
the §13 minutes counts from its report, and no fee is due for a stop before the owner's purchase. Recorded on a
real SQLite state; a property plays purchases and fees out of arrival order against a model that sorts them."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planner.gamefile.game import load_game
from planner.ledger.apply import Refused
from planner.ledger.model import Event
from planner.ledger.money_rules import ledger_rules
from planner.store.games import GameGroup, GameRecord
from planner.store.records import group_key
from planner.store.state import State
from planner.util.timefmt import parse_clock as T

A = ledger_rules(load_game("sbb-monopoly"))  # §13: 10 minutes, 10 % penalty
GAME = GameRecord("g@2021-09-11", "g", None, "sbb-monopoly", "2021-09-11", True, ())


def buy(group: str, name: str, time: str, reported: str | None = None, price: int = 2000) -> Event:
    return Event("buy", group, T(time), reported=T(reported) if reported else None, target="station", name=name,
                 price=price, letter=name[0])


def fee(group: str, name: str, time: str) -> Event:
    return Event("fee", group, T(time), target="station", name=name)


def record(state: State, event: Event):
    return state.ledger.record(A, GAME, GameGroup(group_key(event.group), 0, event.group), event)[-1]


def test_an_earlier_decision_reported_in_time_takes_the_station_from_a_later_one_recorded_first():
    with State(":memory:") as s:
        b = record(s, buy("B", "Zug", "10:00", "10:00"))
        a = record(s, buy("A", "Zug", "09:55", "10:02"))  # inside the 10 minutes of §13
        assert a.undoes == (b.seq,)
        st = s.ledger.state(A, GAME.id)
        assert st.holding("station", "Zug").owner == "A" and st.cash == {"A": 18000, "B": 20000}
        rows = {r.seq: r for r in s.ledger.events(A, GAME.id)}
        assert rows[b.seq].undone.startswith("station Zug belongs to group A (bought 09:55)")
        assert rows[b.seq].amount == 0 and rows[b.seq].transfers == ()  # its money is undone with it
        with pytest.raises(Refused, match="belongs to group A itself"):
            record(s, fee("A", "Zug", "09:55"))  # nobody owned anything A could pay for
        assert record(s, fee("B", "Zug", "10:05")).transfers == (("B", "A", 500),)


def test_a_purchase_reported_later_than_the_minutes_counts_from_its_report():
    with State(":memory:") as s:
        b = record(s, buy("B", "Zug", "10:00", "10:00"))
        with pytest.raises(Refused, match="belongs to group B"):  # decided 09:30, told 10:20: valid from 10:20
            record(s, buy("A", "Zug", "09:30", "10:20"))
        assert s.ledger.state(A, GAME.id).holding("station", "Zug").owner == "B"
        late = record(s, buy("A", "Baar", "09:30", "10:20"))  # nobody's: bought, with the §13 penalty
        assert late.transfers == (("A", "bank", 2000), ("A", "parking", 200)) and b.seq < late.seq


def test_decisions_in_the_same_minute_are_a_diceoff_whichever_was_recorded_first():
    with State(":memory:") as s:
        record(s, buy("B", "Zug", "10:00"))
        a = record(s, buy("A", "Zug", "10:00"))
        assert a.pending
        st = s.ledger.state(A, GAME.id)
        assert st.disputes["Zug"].groups == ["B", "A"] and st.cash == {"A": 20000, "B": 18000}
        with pytest.raises(Refused, match="in the dice-off for Zug already"):  # the same group's other phone
            record(s, buy("A", "Zug", "10:00"))
        assert s.ledger.state(A, GAME.id).disputes["Zug"].groups == ["B", "A"]  # each group once


def test_no_fee_is_due_for_a_stop_before_the_purchase():
    with State(":memory:") as s:
        record(s, buy("B", "Zug", "10:00"))
        with pytest.raises(Refused, match="nobody owns station Zug"):
            record(s, fee("A", "Zug", "09:58"))
        assert record(s, fee("A", "Zug", "10:00")).amount == 500  # the same minute counts


# ---- property: arrival order does not matter, the decision's time does ----------------------------------------

STATIONS = ("Zug", "Baar", "Cham")
GROUPS = ("A", "B", "C")
MINUTES = st.integers(0, 8)  # minutes after 10:00: same-minute ties are frequent
# the strategies days() draws from, built once (not one new strategy object per value drawn; the same values)
COUNT, GROUP, STATION = st.integers(1, 14), st.sampled_from(GROUPS), st.sampled_from(STATIONS)
SECOND, BUY, LATE = st.sampled_from([0, 20, 40]), st.integers(0, 2), st.sampled_from([0, 5, 25])


@st.composite
def days(draw):
    """Purchases and fees with decision times, some reported late, recorded in a shuffled order."""
    events = []
    for _ in range(draw(COUNT)):
        g, name, minute = draw(GROUP), draw(STATION), draw(MINUTES)
        second = draw(SECOND)
        t = 10 * 3600 + minute * 60 + second
        if draw(BUY):
            late = draw(LATE)  # 25 minutes: later than §13's 10
            reported = t + late * 60 if late else None
            events.append(Event("buy", g, t, reported=reported, target="station", name=name, price=1000,
                                letter=name[0]))
        else:
            events.append(Event("fee", g, 10 * 3600 + minute * 60, target="station", name=name))
    order = draw(st.permutations(range(len(events))))
    return [events[i] for i in order]


def model(events: list[Event]) -> tuple[dict[str, str], dict[str, int], set[str]]:
    """Owners, cash and pending dice-offs by the rules applied in decision-time order (ties: as recorded)."""
    def decided(e: Event) -> int:
        return e.reported if e.kind == "buy" and e.reported is not None and e.reported - e.time > 600 else e.time

    owner: dict[str, tuple[str, int]] = {}
    disputed: set[str] = set()
    cash = dict.fromkeys(GROUPS, 20000)
    paid: set[tuple[str, str, int]] = set()
    for e in sorted(events, key=lambda e: decided(e)):  # sorted() keeps the recorded order for ties
        held = owner.get(e.name)
        if e.kind == "buy":
            if held is None:
                owner[e.name] = (e.group, decided(e))
                late = e.reported is not None and (e.reported - e.time) // 60 > 10
                cash[e.group] -= 1000 + (100 if late else 0)
            elif held[0] != e.group and held[1] // 60 == decided(e) // 60:
                disputed.add(e.name)
        elif held is not None and held[0] != e.group and e.name not in disputed \
                and (e.group, e.name, e.time // 60) not in paid:
            paid.add((e.group, e.name, e.time // 60))
            cash[e.group] -= 250
            cash[held[0]] += 250
    return {n: o for n, (o, _) in owner.items()}, cash, disputed


SEEN: Counter = Counter()
COMPLETE: dict[str, Counter] = {}  # what the last complete run of the property in this process saw


@settings(max_examples=200, deadline=None, derandomize=True)
@given(days())
def decisions_not_the_arrival(events):
    with State(":memory:") as s:
        for e in events:
            try:
                rec = record(s, e)
            except Refused:
                continue  # refused now (owned, paid, a dice-off already): the model refuses it in its place too
            SEEN[e.kind] += 1
            SEEN["undoes"] += bool(rec.undoes)
            SEEN["pending"] += rec.pending
        st = s.ledger.state(A, GAME.id)
        owners, cash, disputed = model([r.event for r in s.ledger.events(A, GAME.id) if r.event.kind != "join"])
        assert {h.name: h.owner for h in st.holdings.values()} == owners
        assert {g: st.cash.get(g, 20000) for g in GROUPS} == cash
        assert set(st.disputes) == disputed
        assert sum(st.cash.values()) + st.parking + st.bank == 0
        # every event recorded and standing either applies or says why it no longer does
        assert all(r.undone or r.event.kind != "buy" or st.holding("station", r.event.name) is not None
                   for r in s.ledger.events(A, GAME.id))


def test_ownership_fees_and_money_follow_the_decisions_not_the_arrival():
    """The property over its 200 generated days (derandomized: the same days in every run)."""
    SEEN.clear()
    decisions_not_the_arrival()
    COMPLETE["seen"] = Counter(SEEN)


def test_the_generated_days_undo_purchases_and_hold_diceoffs():
    """The property above is only as good as its days: earlier decisions arrive late, minutes tie, fees are paid.
    The days are derandomized, so the counts of the property's own complete run in this process are those of any
    run; the property runs here when it has not run yet (this test alone, or first)."""
    if "seen" not in COMPLETE:
        test_ownership_fees_and_money_follow_the_decisions_not_the_arrival()
    seen = COMPLETE["seen"]
    assert min(seen["buy"], seen["fee"], seen["undoes"], seen["pending"]) > 0, seen


def test_a_log_recorded_under_older_rules_replays_as_it_was_accepted():
    """Events accepted once stay accepted: a mortgage made with cash, one stop's fee paid twice (two phones) and a
    dice-off sum beyond two dice were allowed before; a new event of that kind is refused."""
    from planner.ledger.corrections import Entry, replay_outcomes

    old = [Event("join", g, A.start) for g in ("A", "B")]
    old += [buy("A", "Zug", "09:10", price=4000), Event("mortgage", "A", T("09:20"), target="station", name="Zug"),
            buy("A", "Baar", "09:30"), fee("B", "Baar", "09:40"), fee("B", "Baar", "09:40"),
            buy("A", "Cham", "10:00"), buy("B", "Cham", "10:00"),
            Event("diceoff", "A", T("10:05"), name="Cham", rolls=(("A", 42), ("B", 3)))]
    state, outcomes = replay_outcomes(A, [Entry(i, e) for i, e in enumerate(old, start=1)])
    assert not any(o.undone for o in outcomes.values())
    assert state.cash["B"] == 20000 - 2 * 500 and state.holding("station", "Cham").owner == "A"
    with State(":memory:") as s:
        record(s, buy("A", "Zug", "09:10", price=4000))
        with pytest.raises(Refused, match="mortgaged only when the cash does not cover"):
            record(s, Event("mortgage", "A", T("09:20"), target="station", name="Zug"))
