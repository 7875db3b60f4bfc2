"""Buyable stations: category, price and letter group, per the game file (pure)."""

from __future__ import annotations

import unicodedata
from collections import Counter

import numpy as np

from planner.gamefile.game import Game
from planner.timetable.model import Timetable
from planner.util.i18n import N_, _
from planner.util.text import fold


def initial_letter(name: str) -> str:
    """Initial letter of the place name (``Zürich HB`` -> ``Z``, ``Émosson`` -> ``E``)."""
    for ch in name:
        if ch.isalpha():
            base = unicodedata.normalize("NFKD", ch)[0]
            return base.upper()
    return "?"


def game_hour_categories(tt: Timetable, game: Game) -> list[set[str]]:
    """Per station, the categories (``IC``/``fast``/``regional``/mode) of the trains that stop there during
    the game's hours (a train at 01:45 or 24:39 does not make a fast-train station); the whole day for
    the pseudo-game without an area."""
    if not game.has_area:
        return tt.station_categories
    if _CATS.get("tt") is tt and _CATS.get("digest") == game.digest:
        return _CATS["cats"]
    sta = tt.stop_station[tt.st_stop]
    rt = tt.trip_route[tt.st_trip]
    in_hours = game.clock.in_game_mask(tt.st_arr) | game.clock.in_game_mask(tt.st_dep)
    ok = (tt.st_pickup | tt.st_dropoff) & in_hours
    cats: list[set[str]] = [set() for _ in range(tt.n_stations)]
    for s, r in np.unique(np.stack([sta[ok], rt[ok]], axis=1), axis=0):
        cats[int(s)].add(tt.route_category[int(r)])
    _CATS.update(tt=tt, digest=game.digest, cats=cats)
    return cats


_CATS: dict = {}  # the last table computed (station_table and maps ask for every station in turn)


def station_category(tt: Timetable, station: int, game: Game | None = None) -> str:
    """``IC`` / ``fast`` / ``regional`` for rail stations (best service stopping during the game's hours,
    unless the game file's ``prices.category_overrides`` says otherwise), else the mode (``bus``...)."""
    cats = (game_hour_categories(tt, game) if game is not None else tt.station_categories)[station]
    served = next((c for c in ("IC", "fast", "regional", "tram", "bus", "metro", "boat", "cable", "other")
                   if c in cats), None)
    if served is None:
        # served only outside the game's hours: priced as what it is then
        served = station_category(tt, station) if game is not None and tt.station_categories[station] else "regional"
    return game.prices.service_category(tt.station_name[station], served) if game is not None else served


def price_class(game: Game, tt: Timetable, station: int, category: str | None = None) -> str:
    """The station's price class under the game's price rule (:meth:`PriceRule.classify`)."""
    return game.prices.classify(tt.station_name[station], category or station_category(tt, station, game))


def station_price(game: Game, tt: Timetable, station: int, category: str | None = None) -> int:
    """Purchase price of a station under the game's price rule (docs/rules.md §2, §9; :meth:`PriceRule.price`)."""
    return game.prices.price(tt.station_name[station], category or station_category(tt, station, game))


def station_table(tt: Timetable, game: Game) -> list[dict]:
    """The in-area stations served on the day with modes, price class (``category``: what the price follows
    from), price and initial letter."""
    out = []
    for s in range(tt.n_stations):
        cat = station_category(tt, s, game)
        out.append({
            "name": tt.station_name[s],
            "station_id": tt.station_id[s],
            "lat": None if not np.isfinite(tt.station_lat[s]) else round(float(tt.station_lat[s]), 6),
            "lon": None if not np.isfinite(tt.station_lon[s]) else round(float(tt.station_lon[s]), 6),
            "modes": sorted(tt.station_modes[s]),
            "category": price_class(game, tt, s, cat),
            "price": station_price(game, tt, s, cat),
            "letter": initial_letter(tt.station_name[s]),
        })
    out.sort(key=lambda r: (fold(r["name"]), r["station_id"]))
    return out


def letter_groups(rows: list[dict], group_size: int = 3) -> dict[str, dict]:
    """Per initial letter: station count and how many complete building groups it can form."""
    counts = Counter(r["letter"] for r in rows)
    return {
        letter: {"stations": n, "groups": n // group_size, "can_form_group": n >= group_size}
        for letter, n in sorted(counts.items())
    }


CATEGORY_LABELS = {  # translated where shown (category_label)
    "IC": "IC / EC", "fast": N_("IR / RE (fast)"), "regional": N_("regional / S-Bahn"), "metro": N_("metro"),
    "tram": N_("tram"), "bus": N_("bus"), "boat": N_("boat"), "cable": N_("cable car"), "other": N_("other"),
    # the price classes of a game that lists its stations (variant B, planner/gamefile/rules.py PriceRule.classify)
    "listed": N_("listed station"), "station": N_("station"), "bus stop": N_("bus stop"),
}


def category_label(category: str) -> str:
    """A station or line category as legends and popups name it, in the current language."""
    label = CATEGORY_LABELS.get(category)
    return _(label) if label else category
