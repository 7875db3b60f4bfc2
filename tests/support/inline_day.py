"""A game day from a timetable written in the test as GTFS text (as nigiri's tests do): no ../shared needed.

Example::

    day = inline_day(tmp_path, stops=stops_txt("Zug", "Baar"), stop_times='''
    trip_id,arrival_time,departure_time,stop_id,stop_sequence
    S1a,12:00:00,12:00:00,8502204,1
    S1a,12:05:00,12:05:00,8502206,2
    ''', trips="route_id,service_id,trip_id\\nS1,SA,S1a\\n")
    day.station("Baar")          # a GameDay (planner/service/setup/playing.py) of the shipped game sbb-monopoly
    main(["next", *day_argv(day), ...])   # the same day for the command line

What is not given is filled in: ``agency.txt`` (one agency, SBB), ``calendar.txt`` (service ``SA`` runs on the
test's Saturday :data:`~tests.support.DEMO_DATE`, 2021-09-11) and ``routes.txt`` (:data:`ROUTES`: ``S1``, ``S2``
(S-Bahn), ``IR70`` (InterRegio), ``IC1`` (InterCity), ``B1`` (a bus)); ``transfers.txt`` only when given. Text is
dedented, so it may be indented like the test. The files are zipped into ``tmp_path`` and read through the real
ingest and cache. The cache is the one ``tests/conftest.py`` points ``PLANNER_CACHE`` at (a temporary folder, never
the user's): :func:`inline_day` refuses to run otherwise (a module-scoped fixture sets it to ``session_cache``
first, as tests/robustness/test_faults_state.py does).

Shorter to write: :func:`stop_times_txt` (rows by station name and ``HH:MM``), :func:`line_service` (a line's
trips both ways at given starts), and :func:`demo_day`, the day of the real-time demo (tests/support/rt_fixtures.py)
written as such lines.

The game is the shipped ``sbb-monopoly`` (or ``game=``: a name, a path or a :class:`Game`), so stops must lie in
its area: :func:`stops_txt` writes real stations with their UIC numbers and coordinates (:data:`STATIONS`, from
the Zug extract's stops.txt). A change to the game for this test only is ``game_toml=`` (replacements in the
shipped file's text, a copy written under ``tmp_path``), which the command line reads too (:func:`day_argv` passes
``--game``).
"""

from __future__ import annotations

import datetime as dt
import os
import textwrap
import zipfile
from pathlib import Path

from planner.config import cache_root
from planner.gamefile.game import Game, load_game
from planner.service.setup.playing import GameDay
from tests.support import DEMO_DATE, ROOT

# Real stations inside variant A's area: name -> (UIC number, lat, lon), as the Swiss feed spells them.
STATIONS: dict[str, tuple[str, float, float]] = {
    "Zug": ("8502204", 47.17371, 8.51505),
    "Baar": ("8502206", 47.19536, 8.52327),
    "Zug Oberwil": ("8502231", 47.14768, 8.50994),
    "Walchwil": ("8502205", 47.09869, 8.51693),
    "Arth-Goldau": ("8505004", 47.04904, 8.54945),
    "Sihlbrugg": ("8502207", 47.23843, 8.57706),
    "Thalwil": ("8503202", 47.29598, 8.56477),
    "Zürich HB": ("8503000", 47.37818, 8.54021),
    "Zürich Oerlikon": ("8503006", 47.41153, 8.54414),
    "Cham": ("8502203", 47.17825, 8.45750),
    "Rotkreuz": ("8502202", 47.14176, 8.43049),
    "Wohlen AG": ("8502213", 47.34846, 8.26979),
    "Steinhausen": ("8502227", 47.19458, 8.47843),
    "Baar Neufeld": ("8515992", 47.18849, 8.51778),
    "Emmenbrücke": ("8502021", 47.07060, 8.28257),
    "Muri AG": ("8502215", 47.27667, 8.33982),
    "Zug Schutzengel": ("8516187", 47.17373, 8.50724),
    "Olten": ("8500218", 47.35193, 7.90770),  # (also in variant B's area)
    "Basel SBB": ("8500010", 47.54741, 7.58956),  # (also in variant B's area)
    "Aarau": ("8502113", 47.39136, 8.05128),
    "Luzern": ("8505000", 47.05018, 8.31018),
    "Affoltern am Albis": ("8502224", 47.27607, 8.44660),
    "Hünenberg Zythus": ("8515996", 47.17360, 8.45009),
    # (variant B's area only)
    "Grellingen": ("8500115", 47.44129, 7.59199),
    "Zwingen": ("8500114", 47.43380, 7.53046),
    "Laufen": ("8500113", 47.41935, 7.50264),
    "Bretzwil, Dorf": ("8500753", 47.39873, 7.65326),
    "Liestal": ("8500023", 47.48446, 7.73137),
    "Liestal, Bahnhof": ("8572212", 47.48432, 7.73166),
    "Muttenz": ("8500020", 47.53359, 7.64789),
    "Pratteln": ("8500021", 47.52267, 7.69082),
    "Basel, Dreispitz": ("8500096", 47.53717, 7.60882),
    "Dornach, Bahnhof": ("8500692", 47.48912, 7.61087),
}

AGENCY = """\
agency_id,agency_name,agency_url,agency_timezone
sbb,SBB,https://sbb.invalid,Europe/Zurich
"""
CALENDAR = """\
service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date
SA,0,0,0,0,0,1,0,20210101,20211231
"""
ROUTES = """\
route_id,agency_id,route_short_name,route_long_name,route_desc,route_type
S1,sbb,S1,,S-Bahn,106
S2,sbb,S2,,S-Bahn,106
IR70,sbb,IR70,,InterRegio,103
IC1,sbb,IC1,,InterCity,102
B1,sbb,1,,Bus,700
"""


def _quoted(name: str) -> str:
    """A CSV field of ``name`` (quoted when it holds a comma, as in "Bretzwil, Dorf")."""
    return f'"{name}"' if "," in name else name


def stops_txt(*names: str) -> str:
    """``stops.txt`` of these :data:`STATIONS` (stop_id = the UIC number, one stop per station)."""
    rows = [f"{STATIONS[n][0]},{_quoted(n)},{STATIONS[n][1]},{STATIONS[n][2]}" for n in names]
    return "stop_id,stop_name,stop_lat,stop_lon\n" + "\n".join(rows) + "\n"


def stop_times_txt(*trips: tuple[str, list[tuple[str, str, str]]]) -> str:
    """``stop_times.txt`` of ``(trip_id, [(station name, arrival, departure), ...])``; times ``HH:MM``."""
    out = ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"]
    for trip_id, rows in trips:
        for seq, (name, arr, dep) in enumerate(rows, 1):
            out.append(f"{trip_id},{arr}:00,{dep}:00,{STATIONS[name][0]},{seq}")
    return "\n".join(out) + "\n"


def line_service(route: str, stops: list[tuple[str, int]], starts: list[str], *, both_ways: bool = True,
                 dwell: int = 1) -> tuple[str, str]:
    """Rows of ``trips.txt`` and ``stop_times.txt`` (no headers) for a line: ``stops`` are ``(station name, minutes
    after the first stop)``; one trip leaves the first stop at each of ``starts`` (``HH:MM``), and with
    ``both_ways`` one leaves the last stop then too, the same minutes back. A train stands ``dwell`` minutes at each
    stop between its first and last. Trip ids: ``<route>-<HHMM>`` and ``<route>-<HHMM>-back``.

    Example: ``line_service("S1", [("Zug", 0), ("Baar", 4)], ["10:00", "11:00"])`` is four trips."""
    trips, times = [], []

    def clock(m: int) -> str:
        return f"{m // 60:02d}:{m % 60:02d}:00"

    for start in starts:
        h, m = map(int, start.split(":"))
        for way, seq in (("", stops), ("-back", [(n, stops[-1][1] - t) for n, t in reversed(stops)])):
            if way and not both_ways:
                continue
            trip = f"{route}-{h:02d}{m:02d}{way}"
            trips.append(f"{route},SA,{trip}")
            for i, (name, off) in enumerate(seq, 1):
                arr = h * 60 + m + off
                dep = arr + (dwell if 1 < i < len(seq) else 0)
                times.append(f"{trip},{clock(arr)},{clock(dep)},{STATIONS[name][0]},{i}")
    return "\n".join(trips) + "\n", "\n".join(times) + "\n"


def write_feed(folder: Path, files: dict[str, str]) -> Path:
    """Zip the GTFS ``files`` (name -> text, dedented) as ``folder/feed.zip``; returns its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "feed.zip"
    with zipfile.ZipFile(path, "w") as z:
        for name, text in files.items():
            z.writestr(name, textwrap.dedent(text).lstrip("\n"))
    return path


def inline_day(tmp_path: Path, *, stops: str, stop_times: str, trips: str, routes: str = ROUTES,
               calendar: str = CALENDAR, agency: str = AGENCY, transfers: str | None = None,
               game: str | Path | Game = "sbb-monopoly", game_toml: dict[str, str] | None = None,
               date: dt.date = DEMO_DATE) -> GameDay:
    """The :class:`GameDay` of the feed written from these texts into ``tmp_path / "inline-feed"``.

    ``game_toml``: ``{old: new}`` text replacements in the shipped game file (each must occur), written to
    ``tmp_path / "game.toml"`` and used as the game."""
    cache = Path(os.environ.get("PLANNER_CACHE", ""))
    assert os.environ.get("PLANNER_CACHE") and cache_root() == cache and not cache.is_relative_to(ROOT), (
        "inline_day runs under tests/conftest.py's temporary PLANNER_CACHE, never the user's cache")
    files = {"agency.txt": agency, "calendar.txt": calendar, "routes.txt": routes, "stops.txt": stops,
             "trips.txt": trips, "stop_times.txt": stop_times}
    if transfers is not None:
        files["transfers.txt"] = transfers
    feed = write_feed(tmp_path / "inline-feed", files)
    if game_toml:
        assert isinstance(game, str), "game_toml edits a shipped game by name"
        text = (ROOT / "planner" / "games" / f"{game}.toml").read_text("utf-8")
        for old, new in game_toml.items():
            assert old in text, f"{old!r} is not in {game}.toml"
            text = text.replace(old, new)
        game = tmp_path / "game.toml"
        game.write_text(text, "utf-8")
    g = game if isinstance(game, Game) else load_game(game)
    return GameDay(str(feed), g, date)


def day_argv(day: GameDay) -> list[str]:
    """The command line's ``--feed``, ``--date`` and ``--game`` of ``day`` (its game must come from a file or be
    shipped: a :class:`Game` built in memory cannot be passed)."""
    src = day.game.source
    game = src[len("builtin:"):] if src.startswith("builtin:") else src
    return ["--feed", day.feed, "--date", day.date.isoformat(), "--game", game]


# The real-time demo (tests/support/rt_fixtures.py) on a day written here: a group at Zug at 12:40 heading for
# Wohlen AG takes the S1 13:06 to Rotkreuz (13:19) and changes to the S26 13:23 (Wohlen AG 13:50). The S1 leaves
# Baar at :01 and :31 (Zug :06, Zug Schutzengel :07, Cham :12, Rotkreuz :19), the S26 Rotkreuz at :23 and :53 (Muri AG +13,
# Wohlen AG +27), the IR70 Zug at :29 (Rotkreuz +8, Luzern +21), the S9 Zug at :04 straight to Wohlen AG (+47: a
# minute slower than the S1 and S26, faster than a late S1 and the next S26), all both ways, 06:00 to 21:59.
DEMO_ROUTES = ROUTES + "S26,sbb,S26,,S-Bahn,106\nS9,sbb,S9,,S-Bahn,106\n"


def demo_lines() -> list[tuple[str, str]]:
    """The demo day's lines (:func:`line_service` rows)."""
    hours = range(6, 22)
    return [line_service("S1", [("Baar", 0), ("Zug", 5), ("Zug Schutzengel", 6), ("Cham", 11), ("Rotkreuz", 18)],
                         [f"{h:02d}:{m:02d}" for h in hours for m in (1, 31)], dwell=0),
            line_service("S26", [("Rotkreuz", 0), ("Muri AG", 13), ("Wohlen AG", 27)],
                         [f"{h:02d}:{m:02d}" for h in hours for m in (23, 53)]),
            line_service("IR70", [("Zug", 0), ("Rotkreuz", 8), ("Luzern", 21)], [f"{h:02d}:29" for h in hours]),
            line_service("S9", [("Zug", 0), ("Wohlen AG", 47)], [f"{h:02d}:04" for h in hours])]


def demo_day(tmp_path: Path, **kw) -> GameDay:
    """The real-time demo's day (see above) as :func:`inline_day` writes it (``kw``: its other arguments)."""
    lines = demo_lines()
    return inline_day(tmp_path, routes=DEMO_ROUTES,
                      stops=stops_txt("Baar", "Zug", "Zug Schutzengel", "Cham", "Rotkreuz", "Muri AG", "Wohlen AG",
                                      "Luzern"),
                      trips="route_id,service_id,trip_id\n" + "".join(t for t, _ in lines),
                      stop_times="trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                      + "".join(st for _, st in lines), **kw)
