"""The money rules that need the group's day, through the service layer on a day written here (variant A,
tests/support/ledger_day.py): every group of a game is in the ledger from the start; jail the group reports; the
free parking at a change; a sale; what applies now and what the organiser follows. The fees of a reported train's
stops and of the toll line it crosses: tests/ledger/test_ledger_day_fees_owed.py."""

from __future__ import annotations

import pytest

from planner.errors import InputError
from planner.service import status as group_status
from planner.service.change.jail_reports import report_late
from planner.service.change.ledger_events import mark_sent
from planner.service.questions.ledger_now import ledger_now, organiser_ledger
from planner.util.timefmt import parse_clock as T
from tests.support.ledger_day import at, rec, three_groups


@pytest.fixture
def game(tmp_path):
    with three_groups(tmp_path) as play:
        yield play


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


def test_the_income_of_each_full_hour_is_due_until_recorded(game):
    at(game, "Rot", "Zug", "09:30")
    now = ledger_now(game, "Rot", T("11:05"))
    assert [(i.hour, i.amount, i.bonus) for i in now.income] == [("10:00", 4000, False), ("11:00", 4000, False)]
    rec(game, "Rot", "income", "10:00")
    assert [i.hour for i in ledger_now(game, "Rot", T("11:05")).income] == ["11:00"]
    assert ledger_now(game, "Rot", T("09:40")).income == []  # none before the first full hour after the start


def test_mortgage_and_building_are_offered_only_when_the_rules_allow_them(game):
    at(game, "Rot", "Zug", "09:00")
    rec(game, "Rot", "buy", "09:05", station="Zug")
    now = ledger_now(game, "Rot", T("09:10"))
    assert not now.mortgageable and now.buildable == []  # cash covers everything; no complete letter group


def test_the_answer_now_says_when_it_changes_next_and_a_fee_appears_then(game):
    at(game, "Blau", "Zug", "09:00")
    rec(game, "Blau", "buy", "09:05", station="Zug")
    at(game, "Rot", "Baar", "09:58", trip="IR75 09:58")  # Baar 09:58, Zug 10:02, Rotkreuz 10:10, Luzern 10:25
    before = ledger_now(game, "Rot", T("10:01"))
    assert before.fees_due == [] and before.next_change == "10:02"  # the Zug stop: the page asks again then
    assert before.position.train and before.position.seated and before.obligation.kind
    assert [f.name for f in ledger_now(game, "Rot", T("10:02")).fees_due] == ["Zug"]
    assert ledger_now(game, "Rot", T("10:03")).next_change == "10:10"  # the Rotkreuz stop
    assert ledger_now(game, "Rot", T("10:11")).next_change == "10:25"  # Luzern (and the toll line) is next


def test_what_every_group_is_told_is_in_the_games_language(game):
    """The §7.2 note of a purchase in the same minute and an organiser's correction are sent to every group: in
    the game's language (German), whatever language the organiser's command runs in, naming the voided event by
    the message the groups were sent."""
    from planner.service.change.ledger_events import void
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
