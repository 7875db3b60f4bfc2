"""Station lookup by name (pure): exact, case/accent-insensitive, unique prefix; clear suggestions."""

from __future__ import annotations

import difflib
import unicodedata
from functools import lru_cache

from planner.errors import StationNotFound
from planner.timetable.model import Timetable
from planner.util.i18n import _
from planner.util.text import fold


@lru_cache(maxsize=8)
def _index(names: tuple[str, ...]) -> dict[str, list[int]]:
    idx: dict[str, list[int]] = {}
    for i, n in enumerate(names):
        idx.setdefault(fold(n), []).append(i)
    return idx


@lru_cache(maxsize=8)
def _alphabet(names: tuple[str, ...]) -> frozenset[str]:
    """Every character of any station name, both cases (a query using a sign outside it names no station)."""
    return frozenset("".join(names).lower() + "".join(names).upper())


def _clean(query: str) -> str:
    """The query without invisible format characters (zero-width spaces, BOM, directional marks)."""
    return " ".join("".join(c for c in query if unicodedata.category(c) != "Cf").split())


def exact_station(tt: Timetable, name: str) -> int | None:
    """Station index of a name matched exactly up to case, accents and ``ue``/``ü`` (no prefixes, no
    guessing: what game-file names need), or None; the first of duplicates."""
    hits = _names_index(tt).get(fold(name))
    return hits[0] if hits else None


def _names_index(tt: Timetable) -> dict[str, list[int]]:
    """:func:`_index` of ``tt``'s names, kept on the timetable while its name list is the same one (a dice roll
    looks up its four targets: copying and hashing a large day's names each time cost 50 us a name)."""
    names = tt.station_name
    kept = tt.__dict__.get("_exact_index")
    if kept is None or kept[0] is not names or kept[1] != len(names):
        kept = (names, len(names), _index(tuple(names)))
        tt.__dict__["_exact_index"] = kept
    return kept[2]


def find_station(tt: Timetable, query: str) -> int:
    """Resolve a user's station name (or station id) to a station index.

    Order: exact name; station id (UIC); folded name (case, accents, ``ue``=``ü``); unique folded prefix;
    unique folded word-prefix match. Unknown or ambiguous names raise :class:`StationNotFound` listing
    the closest names.
    """
    q = _clean(query or "")
    if not q:
        raise StationNotFound(_("empty station name"))
    if not any(c.isalnum() for c in q):
        raise StationNotFound(_("station name {name} has no letters or digits").format(name=repr(query)))
    names = tuple(tt.station_name)
    if q in tt.station_index:
        return tt.station_index[q]
    foreign = [c for c in q if not (c.isalnum() or c.isspace() or c in _alphabet(names))]
    if foreign:
        # "%s%n" must not be read as the word prefixes "s n" (Sempach-Neuenkirch): a sign no station
        # name has makes the query unknown, with suggestions only when they are close.
        raise _unknown(tt, query, _index(names), cutoff=0.8)
    for i, n in enumerate(names):
        if n == q:
            return i
    if q in tt.station_index:
        return tt.station_index[q]
    idx = _index(names)
    f = fold(q)
    hits = idx.get(f, [])
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        raise _ambiguous(tt, query, hits)
    pref = sorted({i for k, v in idx.items() if k.startswith(f) for i in v})
    if len(pref) == 1:
        return pref[0]
    if len(pref) > 1:
        # "Zug" should find "Zug", not be ambiguous with "Zug, Metalli": exact word match wins
        exact_first = [i for i in pref if fold(names[i]).split(" ")[: len(f.split(" "))] == f.split(" ")]
        if len(exact_first) == 1:
            return exact_first[0]
        raise _ambiguous(tt, query, pref)
    words = f.split(" ")
    multi = sorted({i for k, v in idx.items() if all(any(w2.startswith(w) for w2 in k.split(" ")) for w in words)
                    for i in v})
    if len(multi) == 1:
        return multi[0]
    if len(multi) > 1:
        raise _ambiguous(tt, query, multi)
    raise _unknown(tt, query, idx)


def _unknown(tt: Timetable, query: str, idx: dict[str, list[int]], cutoff: float = 0.6) -> StationNotFound:
    close = difflib.get_close_matches(fold(_clean(query)), list(idx), n=5, cutoff=cutoff)
    sugg = [tt.station_name[idx[c][0]] for c in close]
    shown = repr(query if len(query) <= 80 else query[:80] + "...")
    if sugg:
        return StationNotFound(_("unknown station {station}; did you mean: {names}?").format(
            station=shown, names=", ".join(sugg)), sugg)
    return StationNotFound(_("unknown station {station} (not served in the area on that day?)").format(
        station=shown), sugg)


def _ambiguous(tt: Timetable, query: str, hits: list[int]) -> StationNotFound:
    names = sorted({tt.station_name[i] for i in hits})
    if len(names) > 8:
        return StationNotFound(_("station {station} is ambiguous: {names} (+{n} more)").format(
            station=repr(query), names=", ".join(names[:8]), n=len(names) - 8), names[:8])
    return StationNotFound(_("station {station} is ambiguous: {names}").format(
        station=repr(query), names=", ".join(names)), names[:8])
