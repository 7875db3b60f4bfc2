"""The fees a group's day owes: a fee belongs to a stop of the day (a reported train's stops count, and the toll line
it crosses, found on the SBB line data: Zug's piece of it, written here), stays due until paid, is paid once
whichever phone pays it and never before its stop, and what the group may buy is only what nobody owns (on the day
of tests/support/ledger_day.py); variant B charges no unscheduled stop tax in a bus (on its day written here: the bus
70 from Liestal, Bahnhof)."""

from __future__ import annotations

import pytest

from planner.errors import InputError
from planner.ledger.apply import AlreadyPaid
from planner.service import PlaceRequest, Play, set_position
from planner.service.change.ledger_events import LedgerRequest, record_event
from planner.service.questions.ledger_now import ledger_now
from planner.store.state import State
from planner.util.timefmt import parse_clock as T
from tests.support.inline_day import line_service, nws_lines_day, write_lines
from tests.support.ledger_day import at, fees, rec, three_groups


@pytest.fixture(autouse=True)
def _zug_lines(tmp_path, monkeypatch):
    """The line data the day's crossings are decided on: Zug's piece of it."""
    monkeypatch.setenv("PLANNER_RAIL_CSV", str(write_lines(tmp_path / "lines")))


@pytest.fixture
def game(tmp_path):
    with three_groups(tmp_path) as play:
        yield play


def test_the_stops_of_a_reported_train_owe_their_fees_until_paid_and_once(game):
    at(game, "Blau", "Zug", "09:00")
    rec(game, "Blau", "buy", "09:05", station="Zug")
    rec(game, "Gelb", "buy", "09:10", toll_line="Luzern–Rotkreuz")
    at(game, "Rot", "Baar", "09:50")
    now = ledger_now(game, "Rot", T("09:51"))
    assert [(o.kind, o.name) for o in now.buy_offers] == [("station", "Baar")] and now.fees_due == []
    at(game, "Rot", "Baar", "09:58", trip="IR75 09:58")  # Baar 09:58, Zug 10:02, Rotkreuz 10:10, Luzern 10:25
    assert fees(game, "Rot", "10:01") == []  # the Zug stop is still ahead
    with pytest.raises(InputError, match="the stop at Zug is at 10:02: its fee cannot be paid before .it is 10:01"):
        rec(game, "Rot", "pay", "10:02", now="10:01", station="Zug")
    assert fees(game, "Rot", "10:05") == [("Zug", "10:02", "Blau", 1000)]
    assert ledger_now(game, "Rot", T("10:05")).buy_offers == []  # between two stops: nothing to buy
    first = rec(game, "Rot", "pay", "10:02", now="10:05", station="Zug", event_id="phone-one-0001")
    assert first.amount == 1000 and first.time == "10:02"
    with pytest.raises(AlreadyPaid, match="paid the fee of Zug at 10:02 already"):  # the other phone
        rec(game, "Rot", "pay", "10:02", now="10:05", station="Zug", event_id="phone-two-0001")
    with pytest.raises(AlreadyPaid):  # a tap on the form a little later: the same stop
        rec(game, "Rot", "pay", "10:06", now="10:06", station="Zug", event_id="phone-two-0002")
    assert fees(game, "Rot", "10:07") == []
    assert fees(game, "Rot", "10:30") == [("Luzern–Rotkreuz", "10:25", "Gelb", 500)]
    at(game, "Rot", "Zug", "11:30")  # elsewhere since: the toll line's fee is still due, and Zug's new stop too
    assert fees(game, "Rot", "11:31") == [("Luzern–Rotkreuz", "10:25", "Gelb", 500), ("Zug", "11:30", "Blau", 1000)]
    assert [o.name for o in ledger_now(game, "Rot", T("11:31")).buy_offers] == []  # Zug is Blau's: a fee, no offer
    assert rec(game, "Rot", "pay", "10:25", now="11:32", toll_line="Luzern–Rotkreuz").amount == 500
    assert fees(game, "Rot", "11:33") == [("Zug", "11:30", "Blau", 1000)]


def test_variant_b_charges_no_unscheduled_stop_tax_in_a_bus(tmp_path):
    from planner.service import implicit_record
    from planner.timetable.model import Mode

    day = nws_lines_day(tmp_path, [line_service("B70", [("Liestal, Bahnhof", 0), ("Ziefen, Zentrum", 12),
                                                        ("Reigoldswil, Dorfplatz", 20)], ["09:43", "10:13"]),
                                   line_service("S3", [("Liestal", 0), ("Sissach", 8)], ["10:05"])])
    nws_game = day.game
    tt = day.timetable
    trip = next(t for t in range(tt.n_trips) if tt.route_mode[tt.trip_route[t]] == Mode.BUS
                and tt.st_dep[tt.trip_stop_times(t).start] >= T("10:00"))
    row = tt.trip_stop_times(trip).start
    board = tt.station_name[tt.stop_station[tt.st_stop[row]]]
    with State(":memory:") as state:
        play = Play(day, implicit_record(state, day, nws_game.name), state)
        t = int(tt.st_dep[row])
        set_position(play, "Rot", PlaceRequest(board, t, tt.trip_id[trip]), t)
        with pytest.raises(InputError, match=r"Unscheduled stop \(§16.1\) does not apply in a bus"):
            record_event(play, LedgerRequest("Rot", "tax", t + 60, reason="unscheduled_stop"))
        assert [x.key for x in ledger_now(play, "Rot", t + 60).taxes] == ["no_free_compartment"]
        paid = record_event(play, LedgerRequest("Rot", "tax", t + 60, reason="no_free_compartment")).answer()
        assert paid.amount == 2000 and paid.message == "RotP 2000 P total 2000"
        with pytest.raises(InputError, match="no tax 'jail' in this game"):
            record_event(play, LedgerRequest("Rot", "tax", t + 60, reason="jail"))
