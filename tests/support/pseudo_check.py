"""The pseudo-locale check (tests/languages/test_pseudo_locale.py): what of a text shown to a user did not pass
through the catalog.

In the pseudo-locale (:mod:`planner.util.pseudo`) every catalog text has no plain ASCII letter left. What remains
in plain letters is either data (a station's, line's, group's or game file's name, an option name, a path, a
number or a time) or a text that never passed through the catalog: :func:`untranslated` lists the latter.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from functools import cache
from pathlib import Path

from tests.support import ROOT, ZUG

# spans of data, removed before the words are looked at: a metavar of the command line's grammar (ACTION, STATION),
# a command quoted or shown for the reader, a quoted value,
# option names, paths and file names, URLs, train and line names (letters with digits), a name cut short in a
# table, the program's name heading its lines
_DATA = re.compile(r"\b[A-Z][A-Z_]+\b|'planner[^']*'|'[\w.:-]*'|^planner:|\bplanner [a-z][a-z-]*|\w+…|https?://\S+|--?[A-Za-z][\w-]*|\S*[/\\]\S*|\S+\.(?:toml|zip|"
                   r"csv|sqlite|pdf|png|html|json|po|mo|txt)\b|\b\w*\d\w*\b")
_WORD = re.compile(r"[^\W\d_]+")
_ASCII = re.compile(r"[A-Za-z]")


@cache
def feed_words(feed: str | Path = ZUG) -> frozenset[str]:
    """Every word of the (zipped) feed's stop names, route names, headsigns and agencies (the Zug extract's unless
    given): data, shown as the feed spells it."""
    words: set[str] = set()
    with zipfile.ZipFile(feed) as z:
        for name, columns in (("stops.txt", ("stop_name",)), ("trips.txt", ("trip_headsign", "trip_short_name")),
                              ("routes.txt", ("route_short_name", "route_long_name")),
                              ("agency.txt", ("agency_name",))):
            if name not in z.namelist():
                continue
            with z.open(name) as f:
                for row in csv.DictReader(io.TextIOWrapper(f, "utf-8-sig")):
                    for c in columns:
                        words.update(_WORD.findall(row.get(c) or ""))
    return frozenset(words)


@cache
def game_words() -> frozenset[str]:
    """Every word of the shipped game files' texts (group names, deck titles, taxes: the game file's own words,
    in its language) and of the rail network's names."""
    words: set[str] = set()
    for toml in (ROOT / "planner" / "games").glob("*.toml"):
        words.update(_WORD.findall(toml.stem))  # the game's name (--game sbb-monopoly)
        for line in toml.read_text(encoding="utf-8").splitlines():
            if not line.lstrip().startswith("#"):
                for quoted in re.findall(r'"([^"]*)"', line):
                    if " " in quoted.strip() or quoted[:1].isupper():  # a name or a text, not a key ("station")
                        words.update(_WORD.findall(quoted))
    return frozenset(words)


def untranslated(text: str, allowed: frozenset[str] | set[str] = frozenset(), feed: str | Path = ZUG) -> list[str]:
    """The words of ``text`` (shown in the pseudo-locale) that came from no catalog text and are no data: plain
    ASCII words of two letters or more that are neither a name of ``feed`` (zipped) or of a game file nor in
    ``allowed``."""
    rest = _DATA.sub(" ", text)
    known = feed_words(str(feed)) | game_words() | set(allowed)
    return [w for w in _WORD.findall(rest) if len(w) > 1 and _ASCII.search(w) and w not in known]
