"""Fees of itineraries (pure, hand-written stops), the ledger's game-file keys, and the store's guarantees."""

from __future__ import annotations

import sqlite3

import pytest

from planner.errors import GameFileError, InputError
from planner.gamefile.game import load_game, parse_game
from planner.ledger.apply import apply
from planner.ledger.fees import LegStops, itinerary_fees, net_cost
from planner.ledger.model import Event, LedgerState
from planner.ledger.money_rules import ledger_rules
from planner.store.games import GameGroup, GameRecord
from planner.store.records import implicit_id
from planner.store.state import State

A = ledger_rules(load_game("sbb-monopoly"))


def state_with(*events: Event) -> LedgerState:
    s = LedgerState()
    for g in ("1", "2", "3"):
        s = apply(A, s, Event("join", g, A.start)).state
    for e in events:
        s = apply(A, s, e).state
    return s


def buy(g, name, price=1000, **kw):
    return Event("buy", g, 9 * 3600 + 600, target="station", name=name, price=price, letter=name[0], **kw)


def test_every_stop_at_a_foreign_station_costs_and_a_tunnel_carries_its_dice_range():
    s = state_with(buy("2", "Baar", 2000), buy("1", "Zug", 4000),
                   Event("buy", "2", 9 * 3600 + 700, target="tunnel", name="Hauenstein"),
                   Event("buy", "3", 9 * 3600 + 800, target="toll_line", name="Olten–Aarau"))
    legs = [LegStops(("Baar", "Thalwil", "Baar"), times=(1, 2, 3)),  # a train stopping twice pays twice
            LegStops(("Zug", "Olten"), crossings=(("tunnel", "Hauenstein"), ("toll_line", "Olten–Aarau")))]
    out = itinerary_fees(A, s, "1", legs)
    assert out["fees"] == [
        {"kind": "station", "name": "Baar", "owner": "2", "amount": 500, "time": 1},
        {"kind": "station", "name": "Baar", "owner": "2", "amount": 500, "time": 3},
        {"kind": "tunnel", "name": "Hauenstein", "owner": "2", "amount": None, "min": 160, "max": 960,
         "expected": 560},
        {"kind": "toll_line", "name": "Olten–Aarau", "owner": "3", "amount": 500}]
    assert (out["fees_total"], out["fees_min"], out["fees_max"]) == (1500 + 560, 1500 + 160, 1500 + 960)
    assert net_cost(out, 1, A) == 2060 - 4000  # an hour's bonus outweighs these fees
    debt = s.fork()
    debt.cash["2"] = -1  # a fee its cash did not cover (§10)
    mortgaged = apply(A, debt, Event("mortgage", "2", 9 * 3600 + 900, target="station", name="Baar")).state
    assert [f["name"] for f in itinerary_fees(A, mortgaged, "1", legs[:1])["fees"]] == []
    assert itinerary_fees(A, s, "2", legs[:1])["fees"] == []  # its own station


def test_ledger_keys_of_the_game_file_are_checked():
    doc = {"game": {"name": "x"}, "clock": {"start": "09:00", "end": "17:00", "dice_from": "12:00"},
           "area": {"polygon": [[47.0, 7.0], [47.5, 7.0], [47.5, 8.0]]}, "modes": {"allowed": ["rail"]},
           "dice": {"targets": [{"number": 1, "stations": ["Zug"]}]}, "ledger": {"cards": [{"key": "k", "deck": "Chance", "title": "t",
                                                          "effect": "teleport"}]}}
    with pytest.raises(GameFileError, match=r"game file g.toml: key 'ledger.cards\[0\].effect': invalid enum value 'teleport'"):
        parse_game(doc, source="g.toml")
    doc["ledger"] = {"start_kapital": 1}
    with pytest.raises(GameFileError, match="key 'ledger.start_kapital': unknown key"):
        parse_game(doc, source="g.toml")
    doc["ledger"] = {}
    assert ledger_rules(parse_game(doc, source="g.toml")).start_cash == 20000


def test_store_is_append_only_and_a_retried_event_is_recorded_once(tmp_path):
    path = tmp_path / "state.sqlite"
    game = GameRecord(implicit_id("sbb-monopoly", "2021-09-11"), "day", None, "sbb-monopoly", "2021-09-11", True, ())
    one, two = GameGroup("1", 0, "1"), GameGroup("2", 0, "2")
    with State(path) as state:
        first = state.ledger.record(A, game, one, buy("1", "Zug", 4000), event_id="phone-1-0001")
        again = state.ledger.record(A, game, one, buy("1", "Zug", 4000), event_id="phone-1-0001")
        assert [r.seq for r in again] == [first[-1].seq]
        # a retry reported minutes later (the phone was in a tunnel) is the same event, recorded once
        later = state.ledger.record(A, game, one, buy("1", "Zug", 4000, reported=9 * 3600 + 1200),
                                    event_id="phone-1-0001")
        assert [r.seq for r in later] == [first[-1].seq]
        assert state.ledger.state(A, game.id).cash == {"1": 16000}
        assert [r.event.kind for r in state.ledger.events(A, game.id)] == ["join", "buy"]
        # the same id with other content is refused naming the first event; another group's ids are its own
        with pytest.raises(InputError, match=r"already used for event #2 of group 1 \(1K"):
            state.ledger.record(A, game, one, buy("1", "Baar", 2000), event_id="phone-1-0001")
        other = state.ledger.record(A, game, two, buy("2", "Baar", 2000), event_id="phone-1-0001")
        assert other[-1].event.name == "Baar" and state.ledger.state(A, game.id).cash == {"1": 16000, "2": 18000}
        # the stores of one state share its one connection
        conn = state.db.connect()
        state.groups.snapshot(game.id, one)
        assert state.db.connect() is conn
    conn = sqlite3.connect(path)
    for sql in ("UPDATE ledger_events SET amount = 0", "DELETE FROM ledger_events"):
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            conn.execute(sql)
