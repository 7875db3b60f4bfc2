"""The money rules that need the group's day, through the service layer on the real Zug extract (variant A): a
fee belongs to a stop of the day (a reported train's stops count), stays due until paid, is paid once whichever
phone pays it and never before its stop; what the group may buy is only what nobody owns; every group of a game
is in the ledger from the start; jail the group reports; the free parking at a change; a sale; what applies now
and what the organiser follows."""

from __future__ import annotations

import pytest

from planner.errors import InputError
from planner.ledger.apply import AlreadyPaid
from planner.service import PlaceRequest, Play, set_position
from planner.service import status as group_status
from planner.service.games import create_game
from planner.service.ledger import LedgerRequest, mark_sent, record_event
from planner.service.ledger_day import report_late
from planner.service.ledger_now import ledger_now, organiser_ledger
from planner.store.state import State
from planner.util.timefmt import parse_clock as T
from tests.support import DEMO_DATE, ZUG


@pytest.fixture
def game(zug_day):
    with State(":memory:") as state:
        links = create_game(state, "Samstag", "Rot,Blau,Gelb", feed=str(ZUG), game="sbb-monopoly",
                            date=DEMO_DATE.isoformat(), base="http://127.0.0.1:8000")
        yield Play(zug_day, state.games.get(links.game), state)


def rec(play: Play, group: str, kind: str, time: str, now: str | None = None, **kw):
    return record_event(play, LedgerRequest(group, kind, T(time), now=T(now) if now else None, **kw)).answer()


def at(play: Play, group: str, where: str, time: str, trip: str | None = None):
    return set_position(play, group, PlaceRequest(where, T(time), trip), T(time))


def fees(play: Play, group: str, time: str) -> list[tuple]:
    return [(f.name, f.time, f.owner, f.amount) for f in ledger_now(play, group, T(time)).fees_due]


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


def test_every_group_of_a_game_is_in_the_ledger_before_it_acted(game):
    bday = rec(game, "Gelb", "card", "10:00", card="kanzlei-geburtstag")
    assert sorted(bday.transfers) == [("Blau", "Gelb", 1000), ("Rot", "Gelb", 1000)]
    st = game.state.ledger.state(game.day.ledger_rules, game.id)
    assert st.cash == {"Rot": 19000, "Blau": 19000, "Gelb": 22000}


def test_a_group_reports_its_train_late_and_sits_in_jail_until_it_pays_out(game):
    at(game, "Gelb", "Baar", "09:31", trip="S1 09:31")  # Baar 09:31, Zug 09:36
    at(game, "Gelb", "Zug", "09:36")
    late = report_late(game, "Gelb", T("09:36"), 6)
    assert late.jail is not None and (late.jail.station, late.jail.until) == ("Zug", T("10:06"))
    ob = group_status(game, "Gelb", T("09:40")).state.obligation
    assert (ob.kind, ob.until) == ("jail", T("10:06"))
    assert report_late(game, "Gelb", T("09:41"), 9).jail is None  # once per train
    assert ledger_now(game, "Gelb", T("09:41")).jail.pay == 1000
    paid = rec(game, "Gelb", "parking", "09:42", reason="jail")
    assert paid.message == "GelbP 1000 P total 1000"
    assert group_status(game, "Gelb", T("09:43")).state.obligation.kind != "jail"
    assert report_late(game, "Gelb", T("09:44"), 3).why.startswith("3 minutes late: no jail")


def test_the_free_parking_is_rolled_for_once_at_a_change(game):
    rec(game, "Blau", "tax", "09:20", reason="no_free_compartment")
    at(game, "Rot", "Baar", "09:50")
    assert ledger_now(game, "Rot", T("09:55")).parking.possible
    miss = rec(game, "Rot", "parking_empty", "09:55", dice=(1, 1))
    assert miss.amount == 0 and miss.tell == ""
    assert not ledger_now(game, "Rot", T("09:56")).parking.possible
    with pytest.raises(InputError, match="once per change"):
        rec(game, "Rot", "parking_empty", "09:56", dice=(2, 3))
    at(game, "Rot", "Baar", "09:58", trip="IR75 09:58")
    with pytest.raises(InputError, match="rolled for on boarding at a change"):
        rec(game, "Rot", "parking_empty", "10:05", dice=(2, 3))  # between Zug and Rotkreuz
    at(game, "Rot", "Luzern", "10:25")
    assert rec(game, "Rot", "parking_empty", "10:26", dice=(2, 3)).amount == 2000


def test_a_sale_offered_and_accepted_shows_where_each_side_looks(game):
    rec(game, "Blau", "buy", "09:05", station="Zug")
    offer = rec(game, "Blau", "sell", "10:00", station="Zug", to="Rot", amount=3000)
    assert [(s.offer, s.station, s.seller) for s in ledger_now(game, "Rot", T("10:01")).offers] == \
        [(offer.seq, "Zug", "Blau")]
    assert [s.offer for s in ledger_now(game, "Blau", T("10:01")).selling] == [offer.seq]
    with pytest.raises(InputError, match=f"offer #{offer.seq} is made to group Rot, not to group Gelb"):
        rec(game, "Gelb", "accept", "10:02", offer=offer.seq)
    done = rec(game, "Rot", "accept", "10:02", offer=offer.seq)
    assert done.message == "RotK 10.02 Zug von Blau 3000" and done.tell == "*"
    assert [(s.accepted, s.buyer) for s in organiser_ledger(game).sales] == [("10:02", "Rot")]


def test_a_message_sent_late_costs_the_penalty_and_the_organiser_sees_what_is_unsent(game):
    bought = rec(game, "Blau", "buy", "09:05", station="Zug")  # from a phone: not sent yet
    assert [u.seq for u in organiser_ledger(game).unsent] == [bought.seq]
    fee = rec(game, "Rot", "pay", "10:00", station="Zug")
    sent = mark_sent(game, "Rot", fee.seq, T("10:25"))  # 25 minutes later: 10 % of the fee to the owner
    assert sent.sent == "10:25" and ("Rot", "Blau", 100) in sent.transfers
    assert mark_sent(game, "Rot", fee.seq, T("10:40")).sent == "10:25"  # the first time stays
    with pytest.raises(InputError, match=f"event #{fee.seq} is group Rot's, not group Blau's"):
        mark_sent(game, "Blau", fee.seq, T("10:30"))
    assert [u.seq for u in organiser_ledger(game).unsent] == [bought.seq]


def test_variant_b_charges_no_unscheduled_stop_tax_in_a_bus(nws_feed, nws_game, nws_date):
    from planner.service import GameDay, implicit_record
    from planner.timetable.model import Mode

    day = GameDay(str(nws_feed), nws_game, nws_date)
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


def test_what_every_group_is_told_is_in_the_games_language(game):
    """The §7.2 note of a purchase in the same minute and an organiser's correction are sent to every group: in
    the game's language (German), whatever language the organiser's command runs in, naming the voided event by
    the message the groups were sent."""
    from planner.service.ledger import void
    from planner.util.i18n import use_language

    at(game, "Blau", "Zug", "09:00")
    at(game, "Gelb", "Zug", "09:00")
    rec(game, "Blau", "buy", "09:05", station="Zug")
    second = rec(game, "Gelb", "buy", "09:05", station="Zug")
    assert second.message == "GelbK 9.05 Zug (gleiche Minute wie Gruppe Blau: Würfeln um den Bahnhof, §7.2)"
    first = rec(game, "Rot", "income", "10:00")
    with use_language("fr"):
        voided = void(game, first.seq, "doppelt gemeldet", T("10:20"))
    assert voided.message == f"10.20 Korrektur: #{first.seq} {first.message} storniert (doppelt gemeldet)"
    assert not [w for w in ("correction", "voided", "same minute", "dice-off") if w in voided.message + second.message]
