"""Web games, their groups and access tokens, and each group's position and answers, in the state database.

The tables live in the same SQLite file as the rolls (``$PLANNER_STATE``, :mod:`planner.store.groups`), so one backup
holds a whole game. :mod:`planner.store.db` owns the file (it creates it, 0600, WAL, marks it as ours); this module
registers its tables as the ``web`` part (:func:`~planner.store.db.ensure_part`) and writes each change in one
``BEGIN IMMEDIATE`` transaction (:meth:`~planner.store.db.StateDB.write`).

Tokens are ``secrets.token_urlsafe(32)`` (256 random bits); only their SHA-256 is stored, so a copy of the
database does not let anyone in. A group's rolls are kept under the key ``<game id>:<group number>`` in the
rolls table: two web games on the same game day never share a group.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import secrets
import sqlite3
from contextlib import AbstractContextManager
from dataclasses import dataclass

from planner.errors import InputError
from planner.store.db import StatePart

MAX_GROUPS = 40
MAX_NAME = 60
PART_VERSION = 1  # of the web tables in planner_parts

_SCHEMA = """
CREATE TABLE IF NOT EXISTS web_games (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    feed        TEXT,
    game        TEXT,
    date        TEXT,
    created_at  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS web_groups (
    game_id     TEXT    NOT NULL REFERENCES web_games(id),
    number      INTEGER NOT NULL CHECK (number >= 1),
    name        TEXT    NOT NULL,
    PRIMARY KEY (game_id, number)
);
CREATE TABLE IF NOT EXISTS web_tokens (
    token_hash  TEXT PRIMARY KEY,              -- sha256 hex of the token (the token itself is never stored)
    game_id     TEXT    NOT NULL REFERENCES web_games(id),
    grp         INTEGER                        -- group number, NULL for the organiser
);
CREATE TABLE IF NOT EXISTS web_positions (
    game_id     TEXT    NOT NULL,
    grp         INTEGER NOT NULL,
    position    TEXT    NOT NULL,              -- JSON {at, time, trip}
    updated_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, grp)
);
CREATE TABLE IF NOT EXISTS web_answers (
    game_id     TEXT    NOT NULL,
    grp         INTEGER NOT NULL,
    seq         INTEGER NOT NULL,
    answer      TEXT    NOT NULL,              -- JSON, the full answer of the roll, shown again on every phone
    PRIMARY KEY (game_id, grp, seq)
);
"""


def token_hash(token: str) -> str:
    """SHA-256 hex of a token (what the database keeps)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class WebGame:
    """A game as the organiser created it."""

    id: str
    name: str
    feed: str | None
    game: str | None
    date: str | None
    groups: tuple[str, ...]  # names, group number = index + 1

    def group_key(self, number: int) -> str:
        """The group's key in the rolls table."""
        return f"{self.id}:{number}"


@dataclass(frozen=True)
class Access:
    """Whom a token belongs to: a group of a game, or its organiser (``group`` None)."""

    game_id: str
    group: int | None


@dataclass(frozen=True)
class NewGame:
    """A created game with its (only ever shown once) tokens."""

    game: WebGame
    organiser_token: str
    group_tokens: tuple[str, ...]


def parse_group_names(text: str) -> list[str]:
    """``"Rot,Blau,Gelb"`` -> names (trimmed, non-empty, distinct, at most MAX_GROUPS of MAX_NAME chars)."""
    names = [n.strip() for n in str(text).split(",") if n.strip()]
    if not names:
        raise InputError("--groups: give at least one group name, e.g. \"Rot,Blau,Gelb\"")
    if len(names) > MAX_GROUPS:
        raise InputError(f"--groups: at most {MAX_GROUPS} groups, got {len(names)}")
    for n in names:
        if len(n) > MAX_NAME:
            raise InputError(f"--groups: group name {n[:20]!r}... is longer than {MAX_NAME} characters")
        if not n.isprintable():
            raise InputError("--groups: group names may not contain control characters")
    seen = {}
    for n in names:
        if n.casefold() in seen:
            raise InputError(f"--groups: group name {n!r} appears twice")
        seen[n.casefold()] = n
    return names


class WebStore(StatePart):
    """Games, groups, tokens, positions and answers (one connection; one thread)."""

    PART, VERSION, DDL = "web", PART_VERSION, _SCHEMA

    def __enter__(self) -> WebStore:
        return self

    def _write(self) -> AbstractContextManager[sqlite3.Connection]:
        self._connect(create=True)
        return self.db.write()

    def _read(self, sql: str, params: tuple = ()) -> list[tuple]:
        self._connect()
        return self.db.read(sql, params)

    # ---- games -------------------------------------------------------------------------------------
    def create_game(self, name: str, groups: list[str], *, feed: str | None = None, game: str | None = None,
                    date: str | None = None) -> NewGame:
        """Create a game with one token per group and one for the organiser; returns the tokens (once)."""
        name = str(name).strip()
        if not name or len(name) > MAX_NAME:
            raise InputError(f"--name: give a game name of 1 to {MAX_NAME} characters")
        if not name.isprintable():
            raise InputError("--name: a game name may not contain control characters")
        game_id = secrets.token_hex(4)
        org = secrets.token_urlsafe(32)
        toks = [secrets.token_urlsafe(32) for _ in groups]
        now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        with self._write() as conn:
            while conn.execute("SELECT 1 FROM web_games WHERE id = ?", (game_id,)).fetchone():
                game_id = secrets.token_hex(4)
            conn.execute("INSERT INTO web_games VALUES (?, ?, ?, ?, ?, ?)", (game_id, name, feed, game, date, now))
            conn.execute("INSERT INTO web_tokens VALUES (?, ?, NULL)", (token_hash(org), game_id))
            for i, (g, t) in enumerate(zip(groups, toks, strict=True), start=1):
                conn.execute("INSERT INTO web_groups VALUES (?, ?, ?)", (game_id, i, g))
                conn.execute("INSERT INTO web_tokens VALUES (?, ?, ?)", (token_hash(t), game_id, i))
        return NewGame(WebGame(game_id, name, feed, game, date, tuple(groups)), org, tuple(toks))

    def games(self) -> list[WebGame]:
        """Every game, oldest first."""
        rows = self._read("SELECT id, name, feed, game, date FROM web_games ORDER BY created_at, id")
        return [self._game(r) for r in rows]

    def game(self, game_id: str) -> WebGame | None:
        """One game, or None."""
        rows = self._read("SELECT id, name, feed, game, date FROM web_games WHERE id = ?", (game_id,))
        return self._game(rows[0]) if rows else None

    def _game(self, row: tuple) -> WebGame:
        names = [r[0] for r in self._read("SELECT name FROM web_groups WHERE game_id = ? ORDER BY number",
                                          (row[0],))]
        return WebGame(*row, groups=tuple(names))

    def access(self, token: str) -> Access | None:
        """Whom ``token`` opens, or None for an unknown token."""
        rows = self._read("SELECT game_id, grp FROM web_tokens WHERE token_hash = ?", (token_hash(token),))
        return Access(rows[0][0], rows[0][1]) if rows else None

    # ---- positions and answers ---------------------------------------------------------------------
    def set_position(self, game_id: str, group: int, position: dict) -> None:
        """Remember where the group said it is (the last one wins)."""
        now = dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")
        with self._write() as conn:
            conn.execute("INSERT OR REPLACE INTO web_positions VALUES (?, ?, ?, ?)",
                         (game_id, group, json.dumps(position, ensure_ascii=False), now))

    def position(self, game_id: str, group: int) -> dict | None:
        """The group's last position ``{at, time, trip}``, or None."""
        rows = self._read("SELECT position FROM web_positions WHERE game_id = ? AND grp = ?", (game_id, group))
        return json.loads(rows[0][0]) if rows else None

    def save_answer(self, game_id: str, group: int, seq: int, answer: dict) -> None:
        """Keep a roll's full answer so every phone of the group can show it."""
        with self._write() as conn:
            conn.execute("INSERT OR REPLACE INTO web_answers VALUES (?, ?, ?, ?)",
                         (game_id, group, seq, json.dumps(answer, ensure_ascii=False)))

    def answer(self, game_id: str, group: int, seq: int) -> dict | None:
        """The full answer of roll ``seq``, or None."""
        rows = self._read("SELECT answer FROM web_answers WHERE game_id = ? AND grp = ? AND seq = ?",
                          (game_id, group, seq))
        return json.loads(rows[0][0]) if rows else None
