"""Owners files (``planner tolls --owners owners.toml``): who owns which toll line, tunnel or station.

The file is ``[owners]`` with ``"name" = "owner"`` lines (the table header may be left out). Names
resolve loosely, as station names do (case, accents, a hyphen and an en dash are the same:
"Luzern-Rotkreuz" is "Luzern–Rotkreuz"), to the game's toll lines and tunnels or the day's stations; a
name that matches none is an error with suggestions, never silently ignored. Owners are text.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from typing import Any

from planner.errors import InputError
from planner.gamefile.game import Game
from planner.util.text import fold

MAX_OWNER = 100  # characters of an owner's name


def resolve_owners(doc: Mapping[str, Any], game: Game, stations: Iterable[str], label: str) -> dict[str, str]:
    """``{canonical name: owner}`` from a parsed owners file; ``label`` ("owners file x.toml") starts
    every error message."""
    table: Any = doc
    if "owners" in doc:
        extra = sorted(set(doc) - {"owners"})
        if extra:
            raise InputError(f"{label}: unknown section {extra[0]!r} (only [owners])")
        table = doc["owners"]
    if not isinstance(table, Mapping):
        raise InputError(f"{label}: [owners] must be a table of \"name\" = \"owner\" lines")
    known: dict[str, str] = {}
    for name in [c.name for c in (*game.toll_lines, *game.tunnels)] + list(stations):
        known.setdefault(fold(name), name)
    out: dict[str, str] = {}
    for key, owner in table.items():
        if not isinstance(owner, str):
            shown = "a table" if isinstance(owner, Mapping) else "a list" if isinstance(owner, list) else repr(owner)
            raise InputError(f"{label}: key {key!r}: the owner must be text in quotes, got {shown}")
        owner = owner.strip()
        if not owner or len(owner) > MAX_OWNER:
            raise InputError(f"{label}: key {key!r}: the owner must be 1 to {MAX_OWNER} characters")
        name = known.get(fold(key))
        if name is None:
            close = difflib.get_close_matches(fold(key), list(known), n=3, cutoff=0.6)
            hint = (f"; did you mean: {', '.join(known[c] for c in close)}?" if close else
                    f" (toll lines and tunnels of {game.title}: "
                    f"{', '.join(c.name for c in (*game.toll_lines, *game.tunnels)) or 'none'})")
            raise InputError(f"{label}: unknown toll line, tunnel or station {key!r}{hint}")
        if name in out and out[name] != owner:
            raise InputError(f"{label}: {name!r} is given twice with different owners")
        out[name] = owner
    return out
