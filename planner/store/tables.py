"""The tables of the state database (SQLite): one game is the aggregate of its groups, their days and their money.

Part ``game``: the games (created by ``planner game new``, or implicit: made by the first command-line entry of a
game file and day), their groups (by folded name and by number), the access tokens (only their SHA-256), and each
group's day (rolls, position reports). Part ``ledger``: the money events, append-only. Every row names its game by
id: two games never share a group, and a group is the same group on its phones, on the command line and in the
ledger.
"""

from __future__ import annotations

GAME_PART, GAME_VERSION = "game", 1
LEDGER_PART, LEDGER_VERSION = "ledger", 2

GAME_DDL = """
CREATE TABLE IF NOT EXISTS games (
    id          TEXT PRIMARY KEY,              -- 8 hex digits (game new), or '<game name>@<date>' (implicit)
    name        TEXT NOT NULL,
    feed        TEXT,                          -- the feed it is played on (NULL: as every command)
    game        TEXT NOT NULL,                 -- the game file: a shipped name or a path
    date        TEXT NOT NULL,                 -- the game day, YYYY-MM-DD
    implicit    INTEGER NOT NULL DEFAULT 0 CHECK (implicit IN (0, 1)),
    created_at  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS groups (
    game_id     TEXT    NOT NULL REFERENCES games(id),
    grp         TEXT    NOT NULL,              -- the folded name (planner.store.records.group_key)
    number      INTEGER NOT NULL CHECK (number >= 1),
    name        TEXT    NOT NULL,              -- as the organiser (or the first command) wrote it
    version     INTEGER NOT NULL DEFAULT 0,    -- +1 on every change of the group's day
    PRIMARY KEY (game_id, grp),
    UNIQUE (game_id, number)
);
CREATE TABLE IF NOT EXISTS tokens (
    token_hash  TEXT PRIMARY KEY,              -- sha256 hex of the token (the token itself is never stored)
    game_id     TEXT NOT NULL REFERENCES games(id),
    grp         TEXT                           -- the group's key; NULL for the organiser
);
CREATE TABLE IF NOT EXISTS rolls (
    id          INTEGER PRIMARY KEY,
    game_id     TEXT    NOT NULL REFERENCES games(id),
    grp         TEXT    NOT NULL,
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    time_s      INTEGER NOT NULL,              -- time of day of the roll, seconds after midnight
    dice        TEXT    NOT NULL,              -- JSON list of ints, one per die
    kind        TEXT    NOT NULL CHECK (kind IN ('target', 'free')),
    target      TEXT,
    free_until  INTEGER,
    position    TEXT,
    created_at  TEXT    NOT NULL,              -- UTC ISO 8601
    roll_id     TEXT,                          -- client id: a retried roll is recorded once (per group)
    request     TEXT,                          -- canonical inputs (a reused roll id must match them)
    answer      TEXT,                          -- the answer text given (a retry gets it byte for byte)
    plan        TEXT,                          -- JSON itinerary, for the group's day model
    UNIQUE (game_id, grp, seq),
    UNIQUE (game_id, grp, roll_id),
    CHECK (kind = 'free' OR target IS NOT NULL),
    CHECK (kind = 'target' OR free_until IS NOT NULL)
);
CREATE TABLE IF NOT EXISTS positions (
    id          INTEGER PRIMARY KEY,
    game_id     TEXT    NOT NULL REFERENCES games(id),
    grp         TEXT    NOT NULL,
    time_s      INTEGER NOT NULL,              -- when it was reported
    since_s     INTEGER NOT NULL,              -- standing: since when (its change window starts then)
    station     TEXT    NOT NULL,              -- station id (standing there, or the stop approached)
    trip_id     TEXT,                          -- seated in this trip ...
    stop_offset INTEGER,                       -- ... at/approaching its stop number (0 = first)
    label       TEXT,                          -- what the group typed, for the history
    created_at  TEXT    NOT NULL
);
"""

LEDGER_DDL = """
CREATE TABLE IF NOT EXISTS ledger_events (
    id          INTEGER PRIMARY KEY,
    game_id     TEXT    NOT NULL REFERENCES games(id),
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    grp         TEXT    NOT NULL,              -- the group's key
    kind        TEXT    NOT NULL,
    time_s      INTEGER NOT NULL,
    event       TEXT    NOT NULL,              -- JSON of planner.ledger.model.Event
    amount      INTEGER NOT NULL,
    message     TEXT    NOT NULL,
    tell        TEXT    NOT NULL,              -- '*' all other groups, a group, '' nobody
    pending     INTEGER NOT NULL DEFAULT 0,    -- a §7.2 dice-off, not (yet) a purchase
    transfers   TEXT    NOT NULL,              -- JSON [[payer, payee, amount], ...]
    created_at  TEXT    NOT NULL,
    event_id    TEXT,                          -- client id: a retried event is recorded once (per group)
    request     TEXT,                          -- canonical inputs (a reused event id must match them)
    UNIQUE (game_id, seq),
    UNIQUE (game_id, grp, event_id)
);
CREATE TRIGGER IF NOT EXISTS ledger_events_no_update BEFORE UPDATE ON ledger_events
BEGIN SELECT RAISE(ABORT, 'ledger events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS ledger_events_no_delete BEFORE DELETE ON ledger_events
BEGIN SELECT RAISE(ABORT, 'ledger events are append-only'); END;
"""
