"""Games, their groups and access tokens in the state database (part ``game``, :mod:`planner.store.tables`).

A game is the aggregate every group belongs to: ``planner game new`` creates one with its groups and one token
per group and for the organiser; a command-line day without it is the implicit game ``<game>@<date>``, whose
groups appear with their first entry. Tokens are ``secrets.token_urlsafe(32)`` (256 random bits); only their
SHA-256 is stored, so a copy of the database lets nobody in.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from dataclasses import dataclass

from planner.errors import InputError
from planner.store.db import StateDB
from planner.store.records import group_key
from planner.util.i18n import _
from planner.util.text import fold

MAX_GROUPS = 40
MAX_NAME = 60


def token_hash(token: str) -> str:
    """SHA-256 hex of a token (what the database keeps)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class GameGroup:
    """A group of a game: its key (folded name), number (1, 2, ...) and name as written."""

    key: str
    number: int
    name: str


@dataclass(frozen=True)
class GameRecord:
    """A game: what it is played on (feed, game file, day) and its groups."""

    id: str
    name: str
    feed: str | None
    game: str
    date: str
    implicit: bool
    groups: tuple[GameGroup, ...]

    def group(self, ref: str | int) -> GameGroup | None:
        """The group named (case, accents and spacing do not matter) or, in a created game, numbered ``ref``
        (its names are never numbers; an implicit game's groups are named, "1" included), or None."""
        text = str(ref).strip()
        key = fold(text)
        for g in self.groups:
            if g.key == key:
                return g
        if text.isdigit() and not self.implicit:
            return next((g for g in self.groups if g.number == int(text)), None)
        return None

    def require_group(self, ref: str | int) -> GameGroup:
        """:meth:`group`, or a one-line error naming the game's groups."""
        g = self.group(ref)
        if g is None:
            names = ", ".join(x.name for x in self.groups) or _("none yet")
            raise InputError(_("game {game} has no group {group!r} (its groups: {names})").format(
                game=self.id, group=str(ref), names=names))
        return g


@dataclass(frozen=True)
class Access:
    """Whom a token opens: a group of a game (its key), or the game's organiser (``group`` None)."""

    game_id: str
    group: str | None


@dataclass(frozen=True)
class NewGame:
    """A created game with its (only ever shown once) tokens, one per group in the game's order."""

    game: GameRecord
    organiser_token: str
    group_tokens: tuple[str, ...]


def parse_group_names(text: str) -> list[str]:
    """``"Rot,Blau,Gelb"`` -> names (trimmed, non-empty, distinct as groups, printable, at most MAX_GROUPS)."""
    names = [n.strip() for n in str(text).split(",") if n.strip()]
    if not names:
        raise InputError(_("--groups: give at least one group name, e.g. \"Rot,Blau,Gelb\""))
    if len(names) > MAX_GROUPS:
        raise InputError(_("--groups: at most {most} groups, got {n}").format(most=MAX_GROUPS, n=len(names)))
    seen: dict[str, str] = {}
    for n in names:
        check_name(n, _("--groups: group name"))
        if n.isdigit():
            raise InputError(_("--groups: group name {name!r} is a number (groups are also addressed by number)").format(
                name=n))
        if group_key(n) in seen:
            raise InputError(_("--groups: group names {first!r} and {second!r} are the same group").format(
                first=seen[group_key(n)], second=n))
        seen[group_key(n)] = n
    return names


def check_name(name: str, what: str) -> str:
    """A name a person typed: 1..MAX_NAME printable characters (no control characters)."""
    if not name or len(name) > MAX_NAME:
        raise InputError(_("{what}: give 1 to {most} characters").format(what=what, most=MAX_NAME))
    if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in name):
        raise InputError(_("{what} {name!r} contains control characters").format(what=what, name=name[:20]))
    return name


class GameStore:
    """Games, groups and tokens on one state database connection (see module docstring)."""

    def __init__(self, db: StateDB, ready):
        self.db = db
        self._ready = ready  # creates the tables on first use (planner.store.state.State)

    # ---- writes ------------------------------------------------------------------------------------
    def create(self, name: str, groups: list[str], *, feed: str | None, game: str, date: str) -> NewGame:
        """Create a game with one token per group and one for the organiser; returns the tokens (once)."""
        name = check_name(str(name).strip(), "--name")
        org = secrets.token_urlsafe(32)
        toks = [secrets.token_urlsafe(32) for _ in groups]
        self._ready()
        with self.db.write() as conn:
            game_id = secrets.token_hex(4)
            while conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone():
                game_id = secrets.token_hex(4)
            conn.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, 0, ?)", (game_id, name, feed, game, date, _now()))
            conn.execute("INSERT INTO tokens VALUES (?, ?, NULL)", (token_hash(org), game_id))
            for i, (g, t) in enumerate(zip(groups, toks, strict=True), start=1):
                conn.execute("INSERT INTO groups (game_id, grp, number, name) VALUES (?, ?, ?, ?)",
                             (game_id, group_key(g), i, g))
                conn.execute("INSERT INTO tokens VALUES (?, ?, ?)", (token_hash(t), game_id, group_key(g)))
        rec = self.get(game_id)
        assert rec is not None
        return NewGame(rec, org, tuple(toks))

    # ---- reads -------------------------------------------------------------------------------------
    def get(self, game_id: str) -> GameRecord | None:
        """One game, or None."""
        rows = self._read("SELECT id, name, feed, game, date, implicit FROM games WHERE id = ?", (game_id,))
        return self._record(rows[0]) if rows else None

    def games(self, *, implicit: bool = False) -> list[GameRecord]:
        """Every created game (and with ``implicit`` the implicit ones), oldest first."""
        rows = self._read("SELECT id, name, feed, game, date, implicit FROM games "
                          + ("" if implicit else "WHERE implicit = 0 ") + "ORDER BY created_at, id")
        return [self._record(r) for r in rows]

    def access(self, token: str) -> Access | None:
        """Whom ``token`` opens, or None for an unknown token."""
        rows = self._read("SELECT game_id, grp FROM tokens WHERE token_hash = ?", (token_hash(token),))
        return Access(rows[0][0], rows[0][1]) if rows else None

    def changes(self, game_id: str) -> int:
        """A count that grows with every change of the game (a roll, report or undo of a group's day bumps its
        version; every ledger event, void and sent mark is a new row): equal counts, nothing changed between."""
        rows = self._read("SELECT (SELECT COALESCE(SUM(version), 0) FROM groups WHERE game_id = ?) + "
                          "(SELECT COALESCE(MAX(seq), 0) FROM ledger_events WHERE game_id = ?)", (game_id, game_id))
        return int(rows[0][0]) if rows else 0

    def _record(self, row: tuple) -> GameRecord:
        groups = tuple(GameGroup(k, int(n), nm) for k, n, nm in self._read(
            "SELECT grp, number, name FROM groups WHERE game_id = ? ORDER BY number", (row[0],)))
        return GameRecord(row[0], row[1], row[2], row[3], row[4], bool(row[5]), groups)

    def _read(self, sql: str, params: tuple = ()) -> list[tuple]:
        if not self._ready(create=False):
            return []
        return self.db.read(sql, params)


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
