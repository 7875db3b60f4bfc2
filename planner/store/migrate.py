"""State files of planner 0.1 (file version 1: rolls only; version 2: game files by name and date, web games
apart) to version 3.

Version 2 kept a group's day under (game file, date, folded name), the phone app's groups under the key
``<web game id>:<number>`` with positions and answers of their own, and the ledger under (game file, date).
Version 3 names every row by its game (:mod:`planner.store.tables`): a command-line day becomes the implicit game
``<game file>@<date>``, a web game keeps its id, and its groups' rolls move to their names. The web's own copies
of positions and answers are dropped (the rolls hold the answers, the positions table the positions).
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3

from planner.store.records import group_key, implicit_id
from planner.store.tables import GAME_DDL, GAME_PART, GAME_VERSION, LEDGER_DDL, LEDGER_PART, LEDGER_VERSION

OLD_TABLES = ("rolls", "positions", "groups", "ledger_events", "web_games", "web_groups", "web_tokens",
              "web_positions", "web_answers")  # referred-to tables before the ones that refer to them


def migrate_to_3(conn: sqlite3.Connection, statements, *, default_game: str, default_date: str | None) -> None:
    """Rewrite a version-1 (rolls only) or version-2 file in place (inside the caller's write transaction).
    ``statements`` splits DDL; ``default_game``/``default_date`` fill a web game created without them (as
    ``planner serve`` did)."""
    have = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    for trigger in ("ledger_events_no_update", "ledger_events_no_delete"):  # they would follow the rename
        conn.execute(f"DROP TRIGGER IF EXISTS {trigger}")
    for t in OLD_TABLES:
        if t in have:
            conn.execute(f"ALTER TABLE {t} RENAME TO old_{t}")
    for ddl in (GAME_DDL, LEDGER_DDL):
        for stmt in statements(ddl):
            conn.execute(stmt)
    m = _Migration(conn)
    if "web_games" in have:
        m.web(default_game, default_date)
    if "groups" in have:
        m.names = {(g, d, k): n for g, d, k, n, _v in conn.execute("SELECT * FROM old_groups").fetchall()}
    if "rolls" in have:
        m.rolls()
    if "positions" in have:
        m.positions()
    for (game, date, grp), name in m.names.items():  # groups with a name but no entry left
        m.owner(game, date, grp, name)
    if "ledger_events" in have:
        m.ledger()
    for t in reversed(OLD_TABLES):  # the web's tables that refer to web_games first
        if t in have:
            conn.execute(f"DROP TABLE old_{t}")
    conn.execute("DELETE FROM planner_parts")
    conn.executemany("INSERT INTO planner_parts VALUES (?, ?)",
                     [(GAME_PART, GAME_VERSION), (LEDGER_PART, LEDGER_VERSION)])


class _Migration:
    """The copying of the old tables' rows into the new ones, each to its game and group."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn
        self.now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        self.web_numbers: dict[tuple[str, int], str] = {}  # (web game id, number) -> group name
        self.names: dict[tuple[str, str, str], str] = {}  # (game file, date, key) -> name as first written

    def game(self, gid: str, name: str, feed, game, date, implicit: int) -> None:
        self.conn.execute("INSERT OR IGNORE INTO games VALUES (?, ?, ?, ?, ?, ?, ?)",
                          (gid, name, feed, game, date, implicit, self.now))

    def group(self, gid: str, name: str, number: int | None = None) -> str:
        key = group_key(name)
        if self.conn.execute("SELECT 1 FROM groups WHERE game_id = ? AND grp = ?", (gid, key)).fetchone() is None:
            if number is None:
                number = self.conn.execute("SELECT COALESCE(MAX(number), 0) + 1 FROM groups WHERE game_id = ?",
                                           (gid,)).fetchone()[0]
            self.conn.execute("INSERT INTO groups VALUES (?, ?, ?, ?, 1)", (gid, key, number, name))
        return key

    def owner(self, game: str, date: str, grp: str, name: str | None) -> tuple[str, str]:
        """(game id, group key) of an old row: a web group's key names its web game and number."""
        web, _, number = grp.rpartition(":")
        if web and number.isdigit() and (web, int(number)) in self.web_numbers:
            return web, group_key(self.web_numbers[(web, int(number))])
        gid = implicit_id(game, date)
        self.game(gid, f"{game} {date}", None, game, date, 1)
        return gid, self.group(gid, name or grp)

    def web(self, default_game: str, default_date: str | None) -> None:
        c = self.conn
        for gid, name, feed, game, date, _created in c.execute("SELECT * FROM old_web_games").fetchall():
            self.game(gid, name, feed, game or default_game, date or default_date or "", 0)
        for gid, number, name in c.execute("SELECT game_id, number, name FROM old_web_groups").fetchall():
            self.group(gid, name, number)
            self.web_numbers[(gid, int(number))] = name
        for token_hash, gid, number in c.execute("SELECT * FROM old_web_tokens").fetchall():
            key = None if number is None else group_key(self.web_numbers[(gid, int(number))])
            c.execute("INSERT INTO tokens VALUES (?, ?, ?)", (token_hash, gid, key))

    def rolls(self) -> None:
        cols = {r[1] for r in self.conn.execute("PRAGMA table_info(old_rolls)")}
        extra = ", ".join(c if c in cols else "NULL" for c in ("request", "answer", "plan"))  # not in version 1
        rows = self.conn.execute("SELECT game, date, grp, seq, time_s, dice, kind, target, free_until, position, "
                                 f"created_at, roll_id, {extra} FROM old_rolls ORDER BY id").fetchall()
        for game, date, grp, *rest in rows:
            gid, key = self.owner(game, date, grp, self.names.get((game, date, grp)))
            self.conn.execute("INSERT INTO rolls (game_id, grp, seq, time_s, dice, kind, target, free_until, "
                              "position, created_at, roll_id, request, answer, plan) "
                              "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (gid, key, *rest))

    def positions(self) -> None:
        rows = self.conn.execute("SELECT game, date, grp, time_s, station, trip_id, stop_offset, label, created_at "
                                 "FROM old_positions ORDER BY id").fetchall()
        for game, date, grp, time_s, *rest in rows:
            gid, key = self.owner(game, date, grp, self.names.get((game, date, grp)))
            self.conn.execute("INSERT INTO positions (game_id, grp, time_s, since_s, station, trip_id, stop_offset, "
                              "label, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                              (gid, key, time_s, time_s, *rest))

    def ledger(self) -> None:
        rows = self.conn.execute("SELECT game, date, seq, grp, kind, time_s, event, amount, message, tell, pending, "
                                 "transfers, created_at, event_id FROM old_ledger_events ORDER BY game, date, seq"
                                 ).fetchall()
        for game, date, seq, grp, kind, time_s, event, *rest in rows:
            gid, key = self.owner(game, date, grp, json.loads(event).get("group", grp))
            self.conn.execute("INSERT INTO ledger_events (game_id, seq, grp, kind, time_s, event, amount, message, "
                              "tell, pending, transfers, created_at, event_id, request) VALUES "
                              "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)",
                              (gid, seq, key, kind, time_s, event, *rest))
