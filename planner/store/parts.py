"""The state file's parts (the game, the ledger): each part's tables are created, checked and migrated on
their own, with their version in ``planner_parts``."""

from __future__ import annotations

import sqlite3

from planner.errors import PlannerError
from planner.store.db import Migration, StateDB, newer_schema, sql_statements
from planner.util.i18n import _


def part_ready(db: StateDB, part: str, version: int) -> bool:
    """For a state opened read-only: True when the part's tables are there at ``version`` (False: none yet, nothing
    of it recorded); a part of another version is an error (reading it needs a command that records first)."""
    conn = db.connect()
    try:
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'planner_parts'").fetchone():
            return False
        row = conn.execute("SELECT version FROM planner_parts WHERE part = ?", (part,)).fetchone()
    except sqlite3.Error as exc:
        raise db.fail(exc) from None
    if row is None:
        return False
    if int(row[0]) != version:
        raise PlannerError(_("group state {path}: {part} schema {have}, this planner reads {version}; a command that "
                             "records (a roll, a ledger event) brings it up to date first (or update the planner)")
                           .format(path=db.path, part=part, have=row[0], version=version))
    return True


def ensure_part(db: StateDB, part: str, version: int, ddl: str, migrate: Migration | None = None) -> None:
    """Create (or migrate) the tables of one part of the state, once per file.

    ``ddl`` is the part's ``CREATE TABLE`` statements at ``version``; ``migrate(conn, old)`` upgrades an
    older file. A file with a newer version of the part is an error (an older planner must not write it).
    """
    conn = db.connect()

    def current() -> int | None:
        row = conn.execute("SELECT version FROM planner_parts WHERE part = ?", (part,)).fetchone()
        return None if row is None else int(row[0])

    try:
        have = current()
    except sqlite3.Error as exc:
        raise db.fail(exc) from None
    if have == version:
        return
    with db.write():
        have = current()
        if have is None:
            for stmt in sql_statements(ddl):
                conn.execute(stmt)
        elif have > version:
            raise newer_schema(db.path, have, version, part)
        elif have < version:
            if migrate is None:
                raise PlannerError(_("group state {path}: {part} schema {have} has no migration").format(
                    path=db.path, part=part, have=have))
            migrate(conn, have)
        conn.execute("INSERT OR REPLACE INTO planner_parts VALUES (?, ?)", (part, version))
