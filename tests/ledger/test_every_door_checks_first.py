"""Every event is checked against the rules before anything is written, and a refused one leaves nothing behind
(issue 41): a roll with a card the group does not hold, a message marked sent outside the game, a tax or a card
draw tapped on two phones, a group that is out, free-parking rolls without a known position, a toll line or a
station the group's day cannot put it at, and a fee paid late (it counts at its stop).

The rules are specified on the demo day written here (tests/support/inline_day.py: S1 Baar :01 - Zug :06 - Zug
Schutzengel :07 - Cham :12 - Rotkreuz :19, IR70 Zug :29 - Rotkreuz :37 - Luzern :50, S26, S9, both ways all day;
the toll line Luzern–Rotkreuz decided on Zug's piece of the SBB line data, written here too); the roll with a card
on a day of variant B (nordwestschweiz, whose cards it plays) written here: the S3 Basel SBB - Liestal. The use cases are the ones both doors
call; tests/web/test_web_refuses_before_writing.py drives the same cases through the phone's API and the command
line.
"""

from __future__ import annotations

import pytest

from planner.errors import InputError
from planner.service import GameDay, PlaceRequest, Play, implicit_record, set_position
from planner.service.change.group_day import RollRequest, roll
from planner.service.change.ledger_events import LedgerRequest, mark_sent, record_event
from planner.service.questions.ledger_now import ledger_now
from planner.service.questions.next_step import next_step
from planner.store.state import State
from planner.util.timefmt import parse_clock as T
from tests.support.inline_day import demo_day, line_service, nws_lines_day, write_lines


@pytest.fixture(scope="module", autouse=True)
def _zug_lines(tmp_path_factory):
    """The line data the days' crossings are decided on: Zug's piece of it, written here."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PLANNER_RAIL_CSV", str(write_lines(tmp_path_factory.mktemp("lines"))))
        yield


@pytest.fixture(scope="module")
def demo(tmp_path_factory, session_cache):
    with pytest.MonkeyPatch.context() as mp:  # (module fixtures come before the tests' own cache)
        mp.setenv("PLANNER_CACHE", str(session_cache))
        return demo_day(tmp_path_factory.mktemp("guard-day"))


@pytest.fixture(scope="module")
def nws_day(tmp_path_factory, session_cache) -> GameDay:
    s3 = line_service("S3", [("Basel SBB", 0), ("Muttenz", 5), ("Pratteln", 9), ("Liestal", 16)],
                      [f"{h:02d}:{m:02d}" for h in range(9, 16) for m in (9, 39)])
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PLANNER_CACHE", str(session_cache))
        return nws_lines_day(tmp_path_factory.mktemp("nws-guard-day"), [s3])


def _play(day: GameDay):
    state = State(":memory:")
    return Play(day, implicit_record(state, day, day.game.name), state)


@pytest.fixture
def play(demo):
    p = _play(demo)
    yield p
    p.state.close()


@pytest.fixture
def nws(nws_day):
    p = _play(nws_day)
    yield p
    p.state.close()


def ledger_rows(play: Play) -> list:
    return [r for r in play.state.ledger.events(play.day.ledger_rules, play.id) if r.event.kind != "join"]


def rolls_of(play: Play, group: str) -> tuple:
    return play.state.groups.snapshot(play.id, play.group(group)).rolls


# ---- a roll and its card -------------------------------------------------------------------------------------

def test_a_roll_with_a_card_not_held_records_nothing(nws):
    for rid in (None, "blau-roll-1"):  # with a roll id too (a retry's), which skipped the check before
        with pytest.raises(InputError, match="holds no card 'chance-freiheit'"):
            roll(nws, RollRequest("Blau", 23, T("11:30"), PlaceRequest("Liestal"), rid, "chance-freiheit"))
    assert rolls_of(nws, "Blau") == () and ledger_rows(nws) == []


def _hold_the_six(play: Play, group: str) -> None:
    """Draw Chance cards (one a minute) until the group holds "Freiheit vor dem Würfelziel"."""
    set_position(play, group, PlaceRequest("Liestal"), T("10:00"))
    for i in range(10):
        record_event(play, LedgerRequest(group, "draw", T("10:01") + 60 * i, deck="Chance"))
        if "chance-freiheit" in play.state.ledger.view(play.day.ledger_rules, play.id).held.get(group, []):
            return
    raise AssertionError("the Chance pile has the card")


def test_a_roll_stopped_before_its_card_is_played_leaves_neither(nws, monkeypatch):
    _hold_the_six(nws, "Blau")
    before = len(rolls_of(nws, "Blau"))

    def stopped(*_a, **_k):  # the process dies between the roll and the card's play
        raise KeyboardInterrupt

    monkeypatch.setattr("planner.service.change.group_day.play_card", stopped)
    with pytest.raises(KeyboardInterrupt):
        roll(nws, RollRequest("Blau", 23, T("11:30"), PlaceRequest("Liestal"), "blau-roll-1", "chance-freiheit"))
    assert len(rolls_of(nws, "Blau")) == before
    assert "chance-freiheit" in nws.state.ledger.view(nws.day.ledger_rules, nws.id).held["Blau"]
    monkeypatch.undo()
    res = roll(nws, RollRequest("Blau", 23, T("11:30"), PlaceRequest("Liestal"), "blau-roll-1",
                                "chance-freiheit"))  # the retry records both, once
    assert res.answer.roll == 63 and res.answer.card.kind == "play" and res.answer.card.card == "chance-freiheit"
    assert len(rolls_of(nws, "Blau")) == before + 1
    assert "chance-freiheit" not in nws.state.ledger.view(nws.day.ledger_rules, nws.id).held["Blau"]


# ---- times, taxes, draws, free parking ----------------------------------------------------------------------

@pytest.mark.parametrize("when", ["47:59", "25:00", "05:00"])
def test_a_message_marked_sent_outside_the_game_is_refused(play, when):
    set_position(play, "Rot", PlaceRequest("Zug"), T("09:00"))
    buy = record_event(play, LedgerRequest("Rot", "buy", T("09:01"), station="Zug")).rows[-1]
    with pytest.raises(InputError, match="outside the game"):
        mark_sent(play, "Rot", buy.seq, T(when))
    assert [r.sent for r in ledger_rows(play)] == [None]


def test_one_tax_tapped_on_two_phones_is_charged_once(play):
    set_position(play, "Rot", PlaceRequest(None, None, "S1 09:01 Rotkreuz"), T("09:03"))
    record_event(play, LedgerRequest("Rot", "tax", T("09:04"), reason="unscheduled_stop", event_id="phone-one-tax"))
    with pytest.raises(InputError, match="once"):
        record_event(play, LedgerRequest("Rot", "tax", T("09:04"), reason="unscheduled_stop",
                                         event_id="phone-two-tax"))
    assert [r.event.reason for r in ledger_rows(play)] == ["unscheduled_stop"]
    # a second unscheduled stop of the same train (another minute) is a second tax (§16.1)
    record_event(play, LedgerRequest("Rot", "tax", T("09:09"), reason="unscheduled_stop"))
    assert len(ledger_rows(play)) == 2


def test_one_card_draw_tapped_on_two_phones_draws_once(play):
    set_position(play, "Rot", PlaceRequest("Zug"), T("09:00"))
    record_event(play, LedgerRequest("Rot", "draw", T("09:10"), deck="Chance", event_id="phone-one-draw"))
    with pytest.raises(InputError, match="already"):
        record_event(play, LedgerRequest("Rot", "draw", T("09:10"), deck="Chance", event_id="phone-two-draw"))
    assert [r.event.kind for r in ledger_rows(play)] == ["draw"]


def test_free_parking_is_rolled_for_once_a_minute_when_the_position_is_unknown(play):
    record_event(play, LedgerRequest("Gelb", "parking_empty", T("10:00"), dice=(1, 2)))
    for dice in ((3, 1), (2, 2)):  # the sum that empties it, twice more in that minute
        with pytest.raises(InputError, match="once per change"):
            record_event(play, LedgerRequest("Gelb", "parking_empty", T("10:00"), dice=dice))
    assert len(ledger_rows(play)) == 1


# ---- a group that is out -------------------------------------------------------------------------------------

def test_a_group_that_is_out_is_refused_everywhere(play):
    set_position(play, "Blau", PlaceRequest(None, None, "S1 09:01 Rotkreuz"), T("09:02"))
    for minute in range(6):  # 6 x 4000 from 20000: out (nothing to mortgage)
        record_event(play, LedgerRequest("Blau", "tax", T("09:03") + 60 * minute, reason="unscheduled_stop"))
    assert "Blau" in play.state.ledger.view(play.day.ledger_rules, play.id).out
    rows = len(ledger_rows(play))
    with pytest.raises(InputError, match="out since 09:08"):
        roll(play, RollRequest("Blau", 3, T("09:20"), PlaceRequest("Rotkreuz")))
    with pytest.raises(InputError, match="out since 09:08"):
        set_position(play, "Blau", PlaceRequest("Rotkreuz"), T("09:21"))
    with pytest.raises(InputError, match="out since 09:08"):
        next_step(play, "Blau", T("09:22"))
    with pytest.raises(InputError, match="out since 09:08"):
        record_event(play, LedgerRequest("Blau", "income", T("10:00")))
    assert len(ledger_rows(play)) == rows and len(rolls_of(play, "Blau")) == 0
    assert ledger_now(play, "Blau", T("09:30")).out is True


# ---- what may be bought where --------------------------------------------------------------------------------

def test_a_toll_line_the_groups_day_did_not_cross_is_refused(play):
    set_position(play, "Rot", PlaceRequest("Baar"), T("17:00"))
    with pytest.raises(InputError, match="no train through it"):
        record_event(play, LedgerRequest("Rot", "buy", T("17:20"), toll_line="Luzern–Rotkreuz"))
    assert ledger_rows(play) == []
    # in the IR70 from Zug, reported long before it crosses: its day crosses it, and the page offers it
    set_position(play, "Blau", PlaceRequest("Zug"), T("17:20"))
    set_position(play, "Blau", PlaceRequest(None, None, "IR70 17:29"), T("17:28"))
    offers = [(o.kind, o.name) for o in ledger_now(play, "Blau", T("17:50")).buy_offers]
    assert ("toll_line", "Luzern–Rotkreuz") in offers
    assert record_event(play, LedgerRequest("Blau", "buy", T("17:50"), toll_line="Luzern–Rotkreuz")).rows[-1].amount


def test_a_station_the_groups_day_cannot_reach_in_time_is_refused(play):
    set_position(play, "Rot", PlaceRequest("Zug"), T("09:00"))
    assert [o.name for o in ledger_now(play, "Rot", T("09:05")).buy_offers] == ["Zug"]
    with pytest.raises(InputError, match="Luzern at 09:05"):
        record_event(play, LedgerRequest("Rot", "buy", T("09:05"), station="Luzern"))
    assert ledger_rows(play) == []
    record_event(play, LedgerRequest("Rot", "buy", T("09:05"), station="Zug"))  # what the page offers is taken


def test_a_fee_paid_late_counts_at_its_stop_and_the_next_purchase_stands(play):
    set_position(play, "Rot", PlaceRequest("Zug"), T("09:00"))
    record_event(play, LedgerRequest("Rot", "buy", T("09:01"), station="Zug"))
    set_position(play, "Blau", PlaceRequest("Baar"), T("09:25"))
    set_position(play, "Blau", PlaceRequest(None, None, "S1 09:31 Rotkreuz"), T("09:31"))  # Zug 09:36, Rotkreuz 09:49
    assert [(f.name, f.time) for f in ledger_now(play, "Blau", T("09:45")).fees_due] == [("Zug", "09:36")]
    fee = record_event(play, LedgerRequest("Blau", "pay", T("09:45"), station="Zug", now=T("09:45"))).rows[-1]
    assert fee.event.time == T("09:36") and fee.amount > 0
    assert ledger_now(play, "Blau", T("09:46")).fees_due == []
    record_event(play, LedgerRequest("Blau", "buy", T("09:49"), station="Rotkreuz"))  # not refused by the tap's time


def test_a_fee_for_a_stop_still_ahead_is_refused(play):
    set_position(play, "Rot", PlaceRequest("Zug"), T("09:00"))
    record_event(play, LedgerRequest("Rot", "buy", T("09:01"), station="Zug"))
    set_position(play, "Blau", PlaceRequest(None, None, "S1 09:31 Rotkreuz"), T("09:31"))
    with pytest.raises(InputError, match="cannot be paid before"):
        record_event(play, LedgerRequest("Blau", "pay", T("09:36"), station="Zug", now=T("09:33")))
    assert [r.event.kind for r in ledger_rows(play)] == ["buy"]


def test_a_station_off_the_train_the_group_said_it_sits_in_is_refused(play):
    # in the S1 (Zug 09:36, Cham 09:42, Rotkreuz 09:49): Luzern at 09:45 is out of its reach, Cham on its way
    set_position(play, "Gelb", PlaceRequest(None, None, "S1 09:31 Rotkreuz"), T("09:31"))
    with pytest.raises(InputError, match="Luzern at 09:45"):
        record_event(play, LedgerRequest("Gelb", "buy", T("09:45"), station="Luzern"))
    assert ledger_rows(play) == []
    record_event(play, LedgerRequest("Gelb", "buy", T("09:42"), station="Cham"))
