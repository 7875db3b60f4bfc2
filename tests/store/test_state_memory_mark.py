"""An in-memory state's kept reads (planner/store/db.py ``StateDB.mark``): a group's snapshot and the ledger's
replay are used again without a statement while nothing was written on the connection, and every write, by any
store, even one rolled back, makes the next read look at the rows again."""

from __future__ import annotations

import pytest

from planner.errors import InputError
from planner.gamefile.game import load_game
from planner.ledger.model import Event
from planner.ledger.money_rules import ledger_rules
from planner.store.games import GameGroup, GameRecord
from planner.store.groups import GroupStore
from planner.store.ledger import LedgerStore
from planner.store.records import group_key
from planner.store.state import State
from planner.util.timefmt import parse_clock as T

GAME = GameRecord("g@2021-09-11", "g", None, "sbb-monopoly", "2021-09-11", True, ())
ROT = GameGroup(group_key("Rot"), 0, "Rot")


def _buy(name: str, time: str) -> Event:
    return Event("buy", "Rot", T(time), target="station", name=name, price=2000, letter=name[0])


def test_the_mark_moves_with_every_write_and_never_inside_a_transaction():
    with State(":memory:") as s:
        s.groups.add_position(GAME, ROT, T("10:00"), T("10:00"), "8502204")
        conn = s.db.connect()
        before = s.db.mark(conn)
        s.groups.snapshot(GAME.id, ROT)  # a read changes nothing
        assert before is not None and s.db.mark(conn) == before and s.db.unchanged(conn, before)
        with s.db.write() as c:
            assert s.db.mark(c) is None  # a mark read here could outlive a rollback of what follows
            assert s.db.unchanged(c, before)  # nothing written yet in this transaction
            c.execute("UPDATE groups SET version = version + 1 WHERE grp = ?", (ROT.key,))
            assert not s.db.unchanged(c, before)
        assert s.db.mark(conn) != before


def test_a_file_has_no_mark(tmp_path):
    with State(tmp_path / "s.sqlite") as s:
        s.groups.add_position(GAME, ROT, T("10:00"), T("10:00"), "8502204")
        conn = s.db.connect()
        assert s.db.mark(conn) is None and not s.db.unchanged(conn, (s.db.opened, conn.total_changes))


def test_kept_reads_see_writes_of_other_stores_on_the_same_connection():
    rules = ledger_rules(load_game("sbb-monopoly"))
    with State(":memory:") as s:
        s.groups.add_position(GAME, ROT, T("10:00"), T("10:00"), "8502204")
        s.ledger.record(rules, GAME, ROT, _buy("Zug", "10:01"))
        snap = s.groups.snapshot(GAME.id, ROT)
        assert s.groups.snapshot(GAME.id, ROT) is snap  # kept
        view = s.ledger.view(rules, GAME.id)
        assert s.ledger.view(rules, GAME.id) is view
        # stores of their own on the same connection write behind the kept reads' backs
        GroupStore(s.db, s._ensure).add_position(GAME, ROT, T("10:30"), T("10:30"), "8502213")
        LedgerStore(s.db, s._ensure).record(rules, GAME, ROT, _buy("Baar", "10:31"))
        assert [p.station for p in s.groups.snapshot(GAME.id, ROT).positions] == ["8502204", "8502213"]
        assert {h.name for h in s.ledger.view(rules, GAME.id).owned("Rot")} == {"Zug", "Baar"}


def test_a_read_inside_a_rolled_back_write_is_not_kept_as_the_groups_day():
    with State(":memory:") as s:
        s.groups.add_position(GAME, ROT, T("10:00"), T("10:00"), "8502204")
        s.groups.snapshot(GAME.id, ROT)
        with pytest.raises(InputError), s.db.write() as c:
            c.execute("INSERT INTO positions (game_id, grp, time_s, since_s, station, created_at) "
                      "VALUES (?, ?, ?, ?, ?, '')", (GAME.id, ROT.key, T("11:00"), T("11:00"), "8502213"))
            c.execute("UPDATE groups SET version = version + 1 WHERE grp = ?", (ROT.key,))
            assert len(s.groups.snapshot(GAME.id, ROT).positions) == 2  # the transaction sees its own row
            raise InputError("refused")  # and is rolled back
        assert [p.station for p in s.groups.snapshot(GAME.id, ROT).positions] == ["8502204"]
