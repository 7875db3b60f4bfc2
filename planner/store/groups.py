"""Each group's day in the state database: rolls and position reports (part ``game``, :mod:`planner.store.tables`).

Groups type ``planner roll --group Rot --dice 4`` or tap Roll on a phone, possibly several at once against one
shared file (:mod:`planner.store.db`). A roll is computed **outside** the write transaction from a
:meth:`GroupStore.snapshot`; :meth:`GroupStore.commit_roll` then only re-checks, under the write lock, that the
group's ``version`` is unchanged (no roll, report or undo came in between) and records. So a process that is still
building a national game day never holds the lock, and two phones never both see "Wohlen AG not yet targeted". A
roll id retried returns the stored answer text byte for byte; the same id with other inputs is an InputError. Roll
ids belong to their group.

The targeted set (docs/rules.md §3 "Targeted") is derived from the rolls, never stored twice: undoing a roll un-targets
its target.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from planner.errors import InputError
from planner.store.db import StateDB
from planner.store.games import GameGroup, GameRecord
from planner.store.records import (
    POSITION_COLUMNS,
    ROLL_COLUMNS,
    GroupSnapshot,
    PositionRecord,
    Roll,
    RollRecord,
    StaleGroup,
    group_numbers,
    position_from_row,
    replay,
    roll_from_row,
    utc_now,
)
from planner.util.i18n import _


@dataclass
class _Kept:
    """A group's snapshot as kept: the connection it was read on, its (version, number) then, and the database's
    mark when it was last seen to be the group's day (None: not known)."""

    opened: int
    numbers: tuple[int, int]
    snap: GroupSnapshot
    mark: tuple[int, int] | None


class GroupStore:
    """The groups' days on one state database connection (see module docstring)."""

    def __init__(self, db: StateDB, ready):
        self.db = db
        self._ready = ready
        # the last snapshot read of each group, used again while its version (bumped by every change) and number
        # are the same on the same connection: a read is then one indexed look-up, or none while the database's
        # mark (StateDB.mark) is the one the snapshot was last seen true at
        self._snaps: dict[tuple[str, str, str], _Kept] = {}

    # ---- writes ------------------------------------------------------------------------------------
    def commit_roll(self, game: GameRecord, group: GameGroup, roll: Roll, expected_version: int) -> RollRecord:
        """Record ``roll``, computed from the snapshot at ``expected_version``; raise :class:`StaleGroup` when the
        group changed since. A roll id recorded before returns the earlier record (same inputs)."""
        self._ready()
        game_id = game.id
        with self.db.write() as conn:
            key, before = self._joined(conn, game, group)
            if roll.roll_id is not None and (old := _find(conn, game_id, key, roll.roll_id)) is not None:
                return replay(old, roll)
            if before[0] != expected_version:
                raise StaleGroup(_("group {group} changed while its roll was computed").format(group=group.name))
            (seq,) = conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM rolls WHERE game_id = ? AND grp = ?",
                                  (game_id, key)).fetchone()
            rec = RollRecord(game_id, key, int(seq), int(roll.time), roll.dice, roll.kind, roll.target,
                             roll.free_until, roll.position, utc_now(), roll.roll_id, roll.request, roll.answer,
                             roll.plan)
            row = (rec.game_id, rec.group, rec.seq, rec.time, json.dumps(list(rec.dice)), rec.kind, rec.target,
                   rec.free_until, rec.position, rec.created_at, rec.roll_id, rec.request, rec.answer, rec.plan)
            conn.execute(f"INSERT INTO rolls ({ROLL_COLUMNS}) VALUES ({', '.join('?' * 14)})", row)
            _bump(conn, game_id, key)
        self._written(conn, game_id, group, before, lambda snap: snap.with_roll(rec, before[1]))
        return rec

    def add_position(self, game: GameRecord, group: GameGroup, time: int, since: int, station: str,
                     trip_id: str | None = None, stop_offset: int | None = None, label: str | None = None, *,
                     expected_version: int | None = None) -> PositionRecord:
        """Record a position report (checked against ``expected_version`` when given)."""
        self._ready()
        game_id = game.id
        with self.db.write() as conn:
            key, before = self._joined(conn, game, group)
            if expected_version is not None and before[0] != expected_version:
                raise StaleGroup(_("group {group} changed while its position was checked").format(group=group.name))
            created = utc_now()
            cur = conn.execute(
                "INSERT INTO positions (game_id, grp, time_s, since_s, station, trip_id, stop_offset, label, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, key, int(time), int(since), station, trip_id, stop_offset, label, created))
            _bump(conn, game_id, key)
        rec = position_from_row((int(cur.lastrowid or 0), int(time), int(since), station, trip_id, stop_offset,
                                 label, created))
        self._written(conn, game_id, group, before, lambda snap: snap.with_position(rec, before[1]))
        return rec

    def _joined(self, conn: sqlite3.Connection, game: GameRecord, group: GameGroup) -> tuple[str, tuple[int, int]]:
        """Inside a write: the group's key (joined on first use, :func:`join_group`) and its (version, number);
        from the kept snapshot while nothing changed since it was seen true (a group with a number is joined)."""
        kept = self._snaps.get((game.id, group.key, group.name))
        if kept is not None and kept.numbers[1] > 0 and self.db.unchanged(conn, kept.mark):
            return group.key, kept.numbers
        key = join_group(conn, game, group)
        return key, _numbers(conn, game.id, key)

    def _written(self, conn: sqlite3.Connection, game_id: str, group: GameGroup, before: tuple[int, int],
                 extend: Callable[[GroupSnapshot], GroupSnapshot]) -> None:
        """After a committed write of one roll or report: the kept snapshot of the group, when it was the
        group's state right before (same version and number), goes on with it, so the next read is a hit. The
        record is the one written (a report through the row parser; a roll as built, equal field by field to what
        the parser gives, whose checks the use case's own validation already made)."""
        k = (game_id, group.key, group.name)
        kept = self._snaps.get(k)
        if kept is None or kept.opened != self.db.opened or kept.numbers != before:
            return
        self._snaps[k] = _Kept(self.db.opened, (before[0] + 1, before[1]), extend(kept.snap), self.db.mark(conn))

    def undo_last(self, game_id: str, group: GameGroup) -> RollRecord | PositionRecord | None:
        """Delete the group's latest entry (a roll: its target is no longer targeted; or a position report) and
        return it; None when it has none."""
        self._ready()
        with self.db.write() as conn:
            key = (game_id, group.key)
            row = conn.execute(f"SELECT {ROLL_COLUMNS} FROM rolls WHERE game_id = ? AND grp = ? "
                               "ORDER BY seq DESC LIMIT 1", key).fetchone()
            prow = conn.execute(f"SELECT {POSITION_COLUMNS} FROM positions WHERE game_id = ? AND grp = ? "
                                "ORDER BY time_s DESC, id DESC LIMIT 1", key).fetchone()
            roll = roll_from_row(row) if row else None
            pos = position_from_row(prow) if prow else None
            if pos is not None and (roll is None or (pos.time, pos.created_at) >= (roll.time, roll.created_at)):
                conn.execute("DELETE FROM positions WHERE id = ?", (pos.id,))
                _bump(conn, *key)
                return pos
            if roll is None:
                return None
            conn.execute("DELETE FROM rolls WHERE game_id = ? AND grp = ? AND seq = ?", (*key, roll.seq))
            _bump(conn, *key)
            return roll

    # ---- reads -------------------------------------------------------------------------------------
    def kept(self, game_id: str, group: GameGroup, version: int) -> GroupSnapshot | None:
        """The kept snapshot of the group at ``version``, when there is one (no read): after a write of this
        connection it is the group's day as written, the object later reads return while nothing changes."""
        kept = self._snaps.get((game_id, group.key, group.name))
        return kept.snap if kept is not None and kept.opened == self.db.opened and kept.numbers[0] == version \
            else None

    def find_roll(self, game_id: str, group: GameGroup, roll_id: str) -> RollRecord | None:
        """The group's roll recorded under a client ``roll_id``, or None."""
        return self._read(lambda c: _find(c, game_id, group.key, roll_id), lambda: None)

    def snapshot(self, game_id: str, group: GameGroup) -> GroupSnapshot:
        """The group's rolls, reports and version, read in one transaction (consistent); while its version and
        number are those of the kept snapshot, that one, after one statement reading them (none while the
        database's mark is unchanged)."""
        key = group.key

        def read(conn: sqlite3.Connection) -> GroupSnapshot:
            kept = self._snaps.get((game_id, key, group.name))
            if kept is not None:
                if self.db.unchanged(conn, kept.mark):
                    return kept.snap
                mark = self.db.mark(conn)
                # one statement reads the version atomically: a kept snapshot of it needs no transaction
                if kept.opened == self.db.opened and kept.numbers == _numbers(conn, game_id, key):
                    if mark is not None:
                        kept.mark = mark
                    return kept.snap
            own = not conn.in_transaction  # inside a write (a ledger check): that transaction is the snapshot
            if own:
                conn.execute("BEGIN")  # one read snapshot under WAL: never waits for a writer
            try:
                version, number = _numbers(conn, game_id, key)
                rolls = [roll_from_row(r) for r in conn.execute(
                    f"SELECT {ROLL_COLUMNS} FROM rolls WHERE game_id = ? AND grp = ? ORDER BY seq",
                    (game_id, key)).fetchall()]
                pos = [position_from_row(r) for r in conn.execute(
                    f"SELECT {POSITION_COLUMNS} FROM positions WHERE game_id = ? AND grp = ? ORDER BY time_s, id",
                    (game_id, key)).fetchall()]
            finally:
                if own:
                    conn.execute("COMMIT")
            snap = GroupSnapshot(key, group.name, version, tuple(rolls), tuple(pos), number)
            if len(self._snaps) > 4096:
                self._snaps.clear()
            self._snaps[(game_id, key, group.name)] = _Kept(self.db.opened, (version, number), snap,
                                                             self.db.mark(conn))
            return snap

        return self._read(read, lambda: GroupSnapshot(key, group.name, 0, (), ()))

    def _read(self, fn: Callable[[sqlite3.Connection], object], empty: Callable[[], object]):
        return self.db.read_part(self._ready, fn, empty)  # no state file (yet): ``empty()``, nothing created


def join_group(conn: sqlite3.Connection, game: GameRecord, group: GameGroup) -> str:
    """The group's key, inside the caller's write transaction. An implicit game is recorded with its first entry
    and a new group joins it; a created game's groups are fixed (an unknown one is an InputError)."""
    if conn.execute("SELECT 1 FROM groups WHERE game_id = ? AND grp = ?", (game.id, group.key)).fetchone():
        return group.key
    if not game.implicit:
        raise InputError(_("game {game} has no group {group!r}").format(game=game.id, group=group.name))
    conn.execute("INSERT OR IGNORE INTO games VALUES (?, ?, NULL, ?, ?, 1, ?)",
                 (game.id, game.name, game.game, game.date, utc_now()))
    (number,) = conn.execute("SELECT COALESCE(MAX(number), 0) + 1 FROM groups WHERE game_id = ?",
                             (game.id,)).fetchone()
    conn.execute("INSERT INTO groups (game_id, grp, number, name) VALUES (?, ?, ?, ?)",
                 (game.id, group.key, number, group.name))
    return group.key


def group_version(conn: sqlite3.Connection, game_id: str, key: str) -> int:
    """The version of the group's day (+1 on every roll, position report and undo; 0 before its first entry): one
    look-up by primary key, what a change of the group's day is seen by (the ledger's position check too)."""
    return _numbers(conn, game_id, key)[0]


def _numbers(conn: sqlite3.Connection, game_id: str, key: str) -> tuple[int, int]:
    """(version, number) of the group, (0, 0) before its first entry, checked (a row edited by hand is damage)."""
    row = conn.execute("SELECT version, number FROM groups WHERE game_id = ? AND grp = ?", (game_id, key)).fetchone()
    return (0, 0) if row is None else group_numbers(row)


def _bump(conn: sqlite3.Connection, game_id: str, key: str) -> None:
    conn.execute("UPDATE groups SET version = version + 1 WHERE game_id = ? AND grp = ?", (game_id, key))


def _find(conn: sqlite3.Connection, game_id: str, key: str, roll_id: str) -> RollRecord | None:
    row = conn.execute(f"SELECT {ROLL_COLUMNS} FROM rolls WHERE game_id = ? AND grp = ? AND roll_id = ?",
                       (game_id, key, roll_id)).fetchone()
    return roll_from_row(row) if row else None
