"""The state database as one object: one connection, the games, the groups' days and the ledger on it.

A process (or a thread of the server) opens one :class:`State` and passes it to the use cases, which read and write
through its three stores; the parts' tables are created on the first write (:func:`planner.store.parts.ensure_part`).
A read of a file that does not exist yet returns nothing and creates nothing; a state opened ``read_only`` (the
commands that only read) is never written, so it may lie in a folder they cannot write.
"""

from __future__ import annotations

from pathlib import Path

from planner.store.db import DEFAULT_TIMEOUT, StateDB
from planner.store.games import GameStore
from planner.store.groups import GroupStore
from planner.store.ledger import LedgerStore
from planner.store.parts import ensure_part, part_ready
from planner.store.tables import GAME_DDL, GAME_PART, GAME_VERSION, LEDGER_DDL, LEDGER_PART, LEDGER_VERSION


class State:
    """The state file at ``path`` (default ``$PLANNER_STATE``); one object per thread and process."""

    def __init__(self, path: str | Path | None = None, *, timeout: float = DEFAULT_TIMEOUT, read_only: bool = False):
        self.db = StateDB(path, timeout=timeout, read_only=read_only)
        self.path = self.db.path
        self._ready = False
        self.games = GameStore(self.db, self._ensure)
        self.groups = GroupStore(self.db, self._ensure)
        self.ledger = LedgerStore(self.db, self._ensure)

    def _ensure(self, create: bool = True) -> bool:
        """True when the tables exist (created now with ``create``); False for a read of a missing file."""
        if self._ready:
            return True
        if not create and not self.db.exists():
            return False
        if self.db.read_only:  # a command that only reads: nothing recorded yet is an empty answer, never a write
            self._ready = all(part_ready(self.db, part, version) for part, version in
                              ((GAME_PART, GAME_VERSION), (LEDGER_PART, LEDGER_VERSION)))
            return self._ready
        ensure_part(self.db, GAME_PART, GAME_VERSION, GAME_DDL)
        ensure_part(self.db, LEDGER_PART, LEDGER_VERSION, LEDGER_DDL)
        self._ready = True
        return True

    def __enter__(self) -> State:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection (reopened on next use)."""
        self.db.close()
        self._ready = False
