"""Where the rules meet in a group's day (sbb-monopoly), through the service layer: free movement and the change
window, "since" on every path, the forced train as the board-by time, the game's end, the bonus before dice time,
fees of a seated group, and the fee-aware choice among equally fast ways.

The day is written here: the real-time demo's lines (tests/support/inline_day.py: S1 Baar :01 - Zug :06 - Cham :12 -
Rotkreuz :19, S26 Rotkreuz :23 - Wohlen AG :50, IR70 Zug :29 - Rotkreuz :37 - Luzern :50, S9 Zug :04 - Wohlen AG)
and the IR75 Basel SBB :30 - Olten :56 - Emmenbrücke :16 - Luzern, a slow S2 Olten :37 - Emmenbrücke :19, the S5
Zug :10 - Knonau - Affoltern am Albis :30 and back at :52, the IC1 Arth-Goldau :44 - Zug :00 - Zürich HB, 06:00 to
21:59 (the IR75 and the IC1 both ways)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from planner.game.alternatives import equally_fast_ways
from planner.game.zugzwang import check_legs, journey_log
from planner.gamefile.rules import ChangeWindow
from planner.ledger.model import Event
from planner.routing.journey import Journey, Leg
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
from planner.service.change.group_day import status_and_model
from planner.service.change.ledger_events import LedgerRequest, record_event
from planner.service.questions.bonus_trains import bonus_answer, group_bonus
from planner.service.questions.routes import place_origin
from planner.service.questions.target import target_answer
from planner.service.read.pricing import Pricing, cheapest
from planner.store.state import State
from planner.util.timefmt import parse_clock as T
from tests.support.answers import plain
from tests.support.inline_day import DEMO_ROUTES, STATIONS, demo_lines, line_service, lines_day


@pytest.fixture(scope="module")
def day(tmp_path_factory, session_cache) -> GameDay:
    hours = range(6, 22)
    lines = [*demo_lines(),
             line_service("IR75", [("Basel SBB", 0), ("Olten", 25), ("Emmenbrücke", 46), ("Luzern", 51)],
                          [f"{h:02d}:30" for h in hours]),
             line_service("S2", [("Olten", 0), ("Emmenbrücke", 42)], [f"{h:02d}:37" for h in hours], both_ways=False),
             line_service("S5", [("Zug", 0), ("Knonau", 12), ("Affoltern am Albis", 20)],
                          [f"{h:02d}:10" for h in hours], both_ways=False),
             line_service("S5", [("Affoltern am Albis", 0), ("Knonau", 8), ("Zug", 20)],
                          [f"{h:02d}:52" for h in hours], both_ways=False),
             line_service("IC1", [("Arth-Goldau", 0), ("Zug", 16), ("Zürich HB", 40)], [f"{h:02d}:44" for h in hours])]
    with pytest.MonkeyPatch.context() as mp:  # (module fixtures come before the tests' own cache)
        mp.setenv("PLANNER_CACHE", str(session_cache))
        return lines_day(tmp_path_factory.mktemp("meet-day"), lines,
                         routes=DEMO_ROUTES + "S5,sbb,S5,,S-Bahn,106\nIR75,sbb,IR75,,InterRegio,103\n")


@pytest.fixture
def play(day, tmp_path):
    state = State(tmp_path / "state.sqlite")
    yield Play(day, implicit_record(state, day, "sbb-monopoly"), state)
    state.close()


def _legal(day: GameDay, answer: dict, since: int, asked: int) -> None:
    rows = [{"from_station": day.station(leg["from"]), "to_station": day.station(leg["to"]),
             "departure": T(leg["departure"]), "arrival": T(leg["arrival"]), "line": i,
             "from_stop": -1, "to_stop": -1} for i, leg in enumerate(answer["legs"])]
    assert check_legs(day.network, rows, day.window, start=(since, asked)) == [], answer["legs"]


def test_a_roll_during_free_movement_obeys_the_window_of_the_station_it_stands_at(play, day):
    # a 6 at Olten at 14:46 (free until 15:46); the group got off at Olten again at 15:21 (window until 15:50) and
    # rolls a 3 at 15:30: the only legal train is the S2 15:37 (arrival at Emmenbrücke 16:19), not the faster IR75
    # 15:56 (16:16) after the window
    roll(play, RollRequest("Rot", 6, T("14:46"), PlaceRequest("Olten")))
    set_position(play, "Rot", PlaceRequest("Olten"), T("15:21"))
    ans = roll(play, RollRequest("Rot", 3, T("15:30"))).to_json()
    assert (ans["target"], ans["legs"][0]["route"], ans["departure"], ans["arrival"]) == \
        ("Emmenbrücke", "S2", "15:37", "16:19")
    assert ans["zugzwang"]["since"] == "15:21" and ans["plan_from"] == "15:30"
    _legal(day, ans, T("15:21"), T("15:30"))
    assert any("during free movement (until 15:46)" in w for w in ans["warnings"])


def test_roll_with_since_is_planned_as_target_with_since(play, day):
    origin, _ = place_origin(day, "Rotkreuz", T("12:30"), None, T("12:06"))
    target = plain(target_answer(day, None, origin, 3)[1])
    rolled = roll(play, RollRequest("Rot", 3, T("12:30"), PlaceRequest("Rotkreuz", since=T("12:06")))).to_json()
    assert (rolled["departure"], rolled["arrival"]) == (target["departure"], target["arrival"])
    assert rolled["zugzwang"]["since"] == target["zugzwang"]["since"] == "12:06"
    _legal(day, rolled, T("12:06"), T("12:30"))


def test_board_by_is_the_forced_train_when_none_leaves_in_the_window(play, day):
    st = set_position(play, "Rot", PlaceRequest("Affoltern am Albis"), T("10:15"))
    ob = st.state.obligation
    # no train can be boarded by 10:44 (the window's end): the rule binds the S5 10:52
    assert (ob.board_by, ob.forced) == (T("10:52"), True)
    nxt = next_step(play, "Rot", T("10:20"))
    from planner.service.questions.next_step import advice

    assert "binds the train leaving at 10:52" in advice(day, nxt)


def test_nothing_is_offered_past_the_games_end(play, day):
    origin, _ = place_origin(day, "Zug", T("17:40"), None)
    out = plain(bonus_answer(day, origin))
    assert out["chances"] == [] and "17:55" in out["note"]  # 18:00 is after the end
    ans = roll(play, RollRequest("Rot", 6, T("17:30"), PlaceRequest("Zug"))).to_json()
    assert ans["kind"] == "free" and ans["free_until"] == "17:55"  # not 18:30
    st = next_step(play, "Rot", T("17:55")).status.state
    assert st.obligation.kind == "ended" and st.obligation.board_by is None


def test_before_dice_time_a_group_gets_every_bonus_chance_it_may_reach(play, day):
    set_position(play, "Rot", PlaceRequest("Arth-Goldau"), T("09:28"))
    mine = plain(group_bonus(play, "Rot", T("09:30")))
    origin, _ = place_origin(day, "Arth-Goldau", T("09:30"), None, T("09:28"))
    every = plain(bonus_answer(day, origin))
    assert mine["obligation"] == "before_dice" and mine["chances"] == every["chances"]
    assert any(c["route"] == "IC1" and c["station"] == "Zug" and c["time"] == "10:00" for c in mine["chances"])


def test_a_seated_group_pays_at_the_station_it_gets_off_to_change(play, day):
    record_event(play, LedgerRequest("Blau", "buy", T("12:00"), station="Rotkreuz"))
    # Rot sits in the S1 from Zug and rolls before Rotkreuz: it changes there for Wohlen AG
    set_position(play, "Rot", PlaceRequest("Zug", None, "S1 12:36 Rotkreuz"), T("12:36"))
    ans = roll(play, RollRequest("Rot", 2, T("12:40"))).to_json()
    assert ans["target"] == "Wohlen AG" and ans["legs"][0]["to"] == "Rotkreuz"
    assert ("Rotkreuz", "Blau") in {(f["name"], f["owner"]) for f in ans["fees"]}
    ahead = next_step(play, "Rot", T("12:42"))
    assert ("Rotkreuz", "Blau") in {(f.name, f.owner) for f in ahead.fees}


def test_next_reads_the_stored_itinerary_of_the_roll(play, day):
    roll(play, RollRequest("Rot", 2, T("12:40"), PlaceRequest("Zug")))
    stored = play.state.groups.snapshot(play.id, play.group("Rot")).rolls[-1]
    import json

    legs = json.loads(stored.answer)["legs"]
    nxt = next_step(play, "Rot", T("13:10"))  # on the way: seated in the first train, or at the change
    got = [(leg.trip_id, leg.to, leg.arrival) for leg in nxt.itinerary.legs]
    assert got == [(leg["trip_id"], leg["to"], leg["arrival"]) for leg in legs][-len(got):]
    # a report off the itinerary: the way is planned again from there
    set_position(play, "Rot", PlaceRequest("Baar"), T("13:20"))
    again = next_step(play, "Rot", T("13:20"))
    assert again.itinerary.legs[0].from_ == "Baar"


def test_the_change_window_and_its_name_come_from_the_game_file(tmp_path, day):
    twenty = dataclasses.replace(day.game, window=ChangeWindow(20))
    d20 = GameDay(day.feed, twenty, day.date)
    state = State(tmp_path / "s.sqlite")
    p20 = Play(d20, implicit_record(state, d20, "sbb-monopoly"), state)
    st = set_position(p20, "Rot", PlaceRequest("Zug"), T("12:30"))
    assert st.state.obligation.board_by == T("12:50")
    nxt = next_step(p20, "Rot", T("12:55"))
    texts = [*nxt.warnings]
    from planner.service.questions.group_states import state_fields
    from planner.service.questions.next_step import advice
    from planner.service.read.decisions import trains_after_getting_off

    texts.append(advice(d20, nxt))
    z = plain(trains_after_getting_off(d20, d20.station("Zug"), T("12:30")))
    assert z["rule"] == "20-minute rule" and z["minutes"] == 20 and z["deadline"] == "12:50"
    assert state_fields(d20, "Rot", nxt.status.state)["obligation"].rule == "20-minute rule"
    assert texts and all("29" not in t for t in texts) and any("20-minute rule" in t for t in texts)
    ans = roll(p20, RollRequest("Rot", 2, T("12:55"))).to_json()
    assert ans["zugzwang"]["minutes"] == 20
    assert all("29" not in w for w in ans["warnings"])
    state.close()


def test_the_fee_aware_choice_is_the_cheapest_of_every_equally_fast_legal_way(day):
    """Random questions on the Zug day: every way found arrives as early and is legal; with a station of the fastest
    way owned by another group, the planner's pick costs no more than any way it compared, and it compared them
    all."""
    rnd = random.Random(18)
    names = [day.timetable.station_name[s] for s in range(day.timetable.n_stations)]
    from planner.ledger.apply import apply
    from planner.ledger.model import LedgerState
    from planner.ledger.money_rules import ledger_rules
    from planner.routing import best_journey

    checked = cheaper = 0
    lr = ledger_rules(day.game)
    for _ in range(60):
        a, b = rnd.sample(names, 2)
        t = T("12:30") + rnd.randrange(0, 4 * 3600, 60)
        origin, _ = place_origin(day, a, t, None)
        j = best_journey(day.network, origin, day.station(b), end_time=day.search_end)
        if j is None or len(j.legs) < 1:
            continue
        ways = equally_fast_ways(day.network, day.window, origin, j.target_station, j)
        for w in ways:
            assert w.arrival(day.timetable) == j.arrival(day.timetable)
            assert not check_legs(day.network, journey_log(day.network, w), day.window,
                                  start=(origin.got_off, origin.time))
        # another group owns a station the fastest way stops at
        tt = day.timetable
        leg = j.legs[0]
        stop = tt.station_name[tt.stop_station[tt.st_stop[leg.alight_row]]]
        state = LedgerState()
        for e in (Event("join", "Blau", lr.start), Event("join", "Rot", lr.start),
                  Event("buy", "Blau", lr.start, target="station", name=stop, price=1000, letter=stop[0])):
            state = apply(lr, state, e).state
        pricing = Pricing("Rot", lr, state)
        pick = cheapest(day, pricing, origin, j)
        note = pricing.notes[pick.signature()]
        assert note["compared"] == len(ways)
        from planner.service.read.pricing import price
        from planner.service.read.views import journey_json

        costs = []
        for w in ways:
            d = plain(journey_json(day, w, origin, w.target_station))
            costs.append(price(day, pricing, w, [ld["crossings"] for ld in d["legs"]])["fees_total"])
        assert note["fees_total"] <= min(costs) or note["bonus_hours"] > 0
        checked += 1
        cheaper += note["fees_total"] < costs[0]
    assert checked >= 30 and cheaper >= 1  # the choice mattered somewhere


def _changes_ok(day: GameDay, legs) -> list[dict]:
    """§4.1 violations of an itinerary's legs, the feed's change times between their platforms included."""
    return check_legs(day.network, journey_log(day.network, Journey(0, 0, 0, tuple(legs))), None)


def test_an_equally_fast_way_never_changes_faster_than_the_feed_allows(tmp_path):
    # A day of its own, at platforms: the S1 Luzern 15:35 (pl. 5) - Rotkreuz 15:49 - Cham - Zug 16:05 (pl. 5), the IR70
    # Rotkreuz 15:52 (pl. 6) - Zug 15:59 (pl. 6), the S5 Zug 16:06 (pl. 7) - Affoltern am Albis 16:22; Zug pl. 5 ->
    # pl. 7 needs 4 minutes (transfers.txt). Rotkreuz is Rot's. Grün, seated in the S1 at Luzern, rolls a 4 (Affoltern
    # am Albis, 16:22): staying in the S1 to Zug (16:05) for the S5 at 16:06 would skip Rot's fee, but the legal way
    # changes at Rotkreuz and at Zug at 15:59
    lines = [line_service("S1", [("Luzern", 0), ("Rotkreuz", 14), ("Cham", 21), ("Zug", 30)], ["15:35"],
                          both_ways=False, platforms=("5", "5")),
             line_service("IR70", [("Rotkreuz", 0), ("Zug", 7)], ["15:52"], both_ways=False, platforms=("6", "6")),
             line_service("S5", [("Zug", 0), ("Affoltern am Albis", 16)], ["16:06"], both_ways=False,
                          platforms=("7", "7"))]
    zug = STATIONS["Zug"][0]
    day = lines_day(tmp_path, lines, routes=DEMO_ROUTES + "S5,sbb,S5,,S-Bahn,106\n",
                    transfers=f"from_stop_id,to_stop_id,transfer_type,min_transfer_time\n{zug}:0:5,{zug}:0:7,2,240\n")
    with State(tmp_path / "platforms.sqlite") as state:
        play = Play(day, implicit_record(state, day, "sbb-monopoly"), state)
        set_position(play, "Rot", PlaceRequest("Rotkreuz"), T("12:00"))
        record_event(play, LedgerRequest("Rot", "buy", T("12:01"), station="Rotkreuz"))
        ans = roll(play, RollRequest("Grün", 4, T("15:36"), PlaceRequest("Luzern", None, "S1-1535"))).to_json()
        assert (ans["target"], ans["arrival"]) == ("Affoltern am Albis", "16:22")
        _, model = status_and_model(play, "Grün", T("15:36"))
        legs = model.last_roll(T("15:36")).legs
        assert _changes_ok(day, legs) == []
        assert [(leg["to"], leg["arrival"]) for leg in ans["legs"]] == [("Rotkreuz", "15:49"), ("Zug", "15:59"),
                                                                        ("Affoltern am Albis", "16:22")]
        # the way it did not take breaks the feed's change time at Zug
        s1 = legs[0]
        to_zug = Leg(s1.trip, s1.board_row, day.timetable.trip_stop_times(s1.trip).stop - 1)
        assert _changes_ok(day, [to_zug, legs[-1]])


def test_a_roll_on_arrival_boards_after_the_change_time(play, day):
    # Gelb got off at Affoltern am Albis at 17:52 and rolls at once: the S5 leaving there at 17:52 cannot be
    # caught (RULES.md "Legal itinerary": a group that got off at a boards from a + change time); a plain
    # "we stand at Affoltern am Albis at 17:52" may take it
    station = day.station("Affoltern am Albis")
    set_position(play, "Gelb", PlaceRequest("Affoltern am Albis"), T("17:52"))
    ans = roll(play, RollRequest("Gelb", 2, T("17:52"))).to_json()
    assert ans["plan_from"] == "17:52" and ans["legs"]
    assert T(ans["departure"]) >= T("17:52") + day.network.min_change(station) > T("17:52")
    plain, _ = place_origin(day, "Affoltern am Albis", T("17:52"), None)
    got_off, _ = place_origin(day, "Affoltern am Albis", T("17:52"), None, T("17:52"))
    assert plain.time == T("17:52") and got_off.time == T("17:52") + day.network.min_change(station)
