"""Fees of itineraries (pure, hand-written stops), the ledger's game-file keys, and the store's guarantees."""

from __future__ import annotations

import sqlite3

import pytest

from planner.errors import GameFileError
from planner.gamefile.game import load_game, parse_game
from planner.ledger.apply import apply
from planner.ledger.fees import LegStops, itinerary_fees, net_cost
from planner.ledger.model import Event, LedgerState
from planner.ledger.rules import ledger_rules
from planner.store.ledger import LedgerStore

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
    mortgaged = apply(A, s, Event("mortgage", "2", 9 * 3600 + 900, target="station", name="Baar")).state
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
    with LedgerStore(path) as store:
        first = store.record(A, "2021-09-11", buy("1", "Zug", 4000), event_id="phone-1-0001")
        again = store.record(A, "2021-09-11", buy("1", "Zug", 4000), event_id="phone-1-0001")
        assert [r.seq for r in again] == [first[-1].seq]
        assert store.state(A, "2021-09-11").cash == {"1": 16000}
        assert [r.event.kind for r in store.events("sbb-monopoly", "2021-09-11")] == ["join", "buy"]
    conn = sqlite3.connect(path)
    for sql in ("UPDATE ledger_events SET amount = 0", "DELETE FROM ledger_events"):
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            conn.execute(sql)


def test_a_ledger_on_an_open_group_store_shares_its_connection(tmp_path):
    from planner.store.groups import GroupStore

    path = tmp_path / "state.sqlite"
    with LedgerStore(path) as store:
        store.record(A, "2021-09-11", buy("1", "Zug", 4000))
    with GroupStore(path) as groups:
        with LedgerStore(groups=groups) as ledger:
            assert ledger.state(A, "2021-09-11").cash == {"1": 16000}
            conn = groups.db._conn
            assert conn is not None
        assert groups.db._conn is conn  # still open: the ledger did not own it
        assert groups.targeted("sbb-monopoly", "2021-09-11", 1) == []
