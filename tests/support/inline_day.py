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
trips both ways at given starts, at platforms if asked), :func:`lines_day` (the day of such lines, its stops found
from them; :func:`nws_lines_day` for variant B, :data:`NWS_ROUTES`), :func:`walks_txt` (the feed's walks between a
station and the stop in front of it), :func:`demo_day`, the day of the real-time demo (tests/support/rt_fixtures.py)
written as such lines, and :func:`area_day`, a bigger day around Zug with dice targets of 1 to 4.

Toll lines and tunnels are decided on the SBB line data (``PLANNER_RAIL_CSV``, else ../shared's): a test of them
writes its piece of that data with :func:`write_lines` (:data:`ZUG_LINES`: Zug - Rotkreuz - Luzern, the toll line
Luzern–Rotkreuz; :data:`BASEL_LINES`: Basel SBB - Liestal, the toll line Basel SBB–Muttenz and the Adler tunnel) and
points ``PLANNER_RAIL_CSV`` at it before the day's crossings are first read.

The game is the shipped ``sbb-monopoly`` (or ``game=``: a name, a path or a :class:`Game`), so stops must lie in
its area: :func:`stops_txt` writes real stations with their UIC numbers and coordinates (:data:`STATIONS`, from
the Zug extract's stops.txt; variant B's from the ATLAS registry). A change to the game for this test only is ``game_toml=`` (replacements in the
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
    "Hünenberg Zythus": ("8515996", 47.17361, 8.45010),
    "Knonau": ("8502226", 47.22026, 8.46673),
    "Affoltern am Albis": ("8502224", 47.27607, 8.44660),
    "Zürich Enge": ("8503010", 47.36410, 8.53082),
    # variant B's area (nordwestschweiz): no real extract covers it, so these come from the ATLAS registry
    # (../shared/data/stations/atlas-service-points-2025-08-02.csv.zip), rounded to 5 decimals
    "Liestal": ("8500023", 47.48446, 7.73137),
    "Laufen": ("8500113", 47.41935, 7.50264),
    "Sissach": ("8500026", 47.46275, 7.81203),
    "Muttenz": ("8500020", 47.53359, 7.64789),
    "Pratteln": ("8500021", 47.52267, 7.69082),
    "Dornach-Arlesheim": ("8500118", 47.48862, 7.61112),
    "Hölstein, Station": ("8578250", 47.42728, 7.77115),
    "Niederdorf, Station": ("8592307", 47.40391, 7.75147),
    "Waldenburg, Station": ("8572351", 47.38626, 7.74915),
    "Bretzwil, Dorf": ("8500753", 47.39873, 7.65326),
    "Liestal, Bahnhof": ("8572212", 47.48432, 7.73166),
    "Laufen, Bahnhof": ("8572113", 47.41901, 7.50221),
    "Dornach, Bahnhof": ("8500692", 47.48912, 7.61087),
    "Basel, Dreispitz": ("8500096", 47.53717, 7.60882),
    "Basel, Bahnhof SBB": ("8578143", 47.54829, 7.59030),
    "Ziefen, Zentrum": ("8500851", 47.43094, 7.70724),
    "Reigoldswil, Dorfplatz": ("8500852", 47.39740, 7.69184),
    "Grellingen": ("8500115", 47.44129, 7.59199),
    "Zwingen": ("8500114", 47.43380, 7.53046),
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


# Variant B's kinds of line (route_type: the feed's extended types, as tests/support/nws_synthetic.py writes them):
# the S3 and the IR27 (railway), the Waldenburgerbahn 19 (metre gauge, a railway: "R19"), the tram 10 and the buses
# 70, 111 and 93.
NWS_ROUTES = """\
route_id,agency_id,route_short_name,route_long_name,route_desc,route_type
S3,sbb,S3,,S-Bahn,109
IR27,sbb,IR27,,InterRegio,103
R19,sbb,19,,Regio,106
T10,sbb,10,,Tram,900
B70,sbb,70,,Bus,700
B111,sbb,111,,Bus,701
B93,sbb,93,,Bus,700
"""


# The SBB line network around Zug as the line data has it (../shared/data/stations/sbb-linie-mit-betriebspunkten.csv:
# its rows of these points, unchanged): line 660 Thalwil - Zug - Fluhmühle and line 500 at Luzern, which decide the
# toll line Luzern–Rotkreuz (the Zug km jump of line 660 included). Written by :func:`write_lines`.
ZUG_LINES = """\
Abkuerzung Bahnhof;Name Haltestelle;Linie;KM;Linien Text;Geoposition;Didok-Nummer;BPUIC;Name Haltestelle
EBR;Emmenbrucke;500;90.18571;Basel SBB - Olten - Luzern;47.07060149966688, 8.282565368005681;2021;8502021;Emmenbrücke
FMUE;Fluhmuhle (Abzw);500;91.82149;Basel SBB - Olten - Luzern;47.05660071093559, 8.286847621357769;5043;8505043;Fluhmühle (Abzw)
LZ;Luzern;500;95.09297;Basel SBB - Olten - Luzern;47.05017782808568, 8.310183206942789;5000;8505000;Luzern
TW;Thalwil;660;12.09403;Thalwil - Zug - Fluhmuhle;47.29598140717822, 8.564769449072962;3202;8503202;Thalwil
SBG;Sihlbrugg;660;19.91161;Thalwil - Zug - Fluhmuhle;47.238427934631154, 8.577058942977507;2207;8502207;Sihlbrugg
BAA;Baar;660;26.60834;Thalwil - Zug - Fluhmuhle;47.19536403756802, 8.523271537389258;2206;8502206;Baar
BAAN;Baar Neufeld;660;27.56;Thalwil - Zug - Fluhmuhle;47.18849295129772, 8.517780783430128;15992;8515992;Baar Neufeld
ZG;Zug;660;38.82898;Thalwil - Zug - Fluhmuhle;47.17370697768503, 8.51504934096482;2204;8502204;Zug
ZGSE;Zug Schutzengel;660;39.475;Thalwil - Zug - Fluhmuhle;47.17372492169778, 8.507242209320333;16187;8516187;Zug Schutzengel
CHAM;Cham;660;43.57412;Thalwil - Zug - Fluhmuhle;47.17824387740836, 8.457504763732404;2203;8502203;Cham
HUZY;Hunenberg Zythus;660;44.355;Thalwil - Zug - Fluhmuhle;47.17360756726207, 8.450095247059698;15996;8515996;Hünenberg Zythus
RK;Rotkreuz;660;48.9998;Thalwil - Zug - Fluhmuhle;47.14176416722361, 8.430495263903849;2202;8502202;Rotkreuz
FMUE;Fluhmuhle (Abzw);660;64.00891;Thalwil - Zug - Fluhmuhle;47.05660071093559, 8.286847621357769;5043;8505043;Fluhmühle (Abzw)
"""


# The SBB line data between Basel SBB and Liestal (the same file's rows of lines 500 and 501, unchanged): line 500
# by Muttenz and Pratteln, and line 501 from Muttenz Ost through the Adler tunnel to Liestal Nord (the Adlertunnel of
# variant B). The Waldenburgerbahn is not on it: its toll line is decided on its stops.
BASEL_LINES = """\
Abkuerzung Bahnhof;Name Haltestelle;Linie;KM;Linien Text;Geoposition;Didok-Nummer;BPUIC;Name Haltestelle
BS;Basel SBB;500;0.0;Basel SBB - Olten - Luzern;47.54741205505015, 7.589562790156526;10;8500010;Basel SBB
BSO;Basel SBB;500;0.531;Basel SBB - Olten - Luzern;47.5449363682833, 7.595619949621447;15387;8515387;Basel SBB Ost (Abzw)
BSNO;Basel SBB;500;1.13641;Basel SBB - Olten - Luzern;47.54489572553005, 7.603331679856023;15386;8515386;Basel SBB Nordost (Abzw)
GELW;Gellert;500;1.518;Basel SBB - Olten - Luzern;47.54599257870278, 7.608053085121443;15400;8515400;Gellert West (Abzw)
MU;Muttenz;500;4.83872;Basel SBB - Olten - Luzern;47.533591211897104, 7.647894426908635;20;8500020;Muttenz
MUOS;Muttenz;500;5.58634;Basel SBB - Olten - Luzern;47.53075235293776, 7.656897495938625;15984;8515984;Muttenz Ost (Abzw)
PRW;Pratteln;500;6.86115;Basel SBB - Olten - Luzern;47.52562744384223, 7.672040431828736;15422;8515422;Pratteln West
PRUW;Pratteln;500;7.45;Basel SBB - Olten - Luzern;47.52335505715752, 7.679097553056322;15421;8515421;Pratteln Ueberwerfung
PR;Pratteln;500;8.33813;Basel SBB - Olten - Luzern;47.52266863171078, 7.690817304270064;21;8500021;Pratteln
PRO;Pratteln;500;8.7;Basel SBB - Olten - Luzern;47.52260031760089, 7.695621831867436;15420;8515420;Pratteln Ost (Abzw)
FRE;Frenkendorf-Fullinsdorf;500;12.19992;Basel SBB - Olten - Luzern;47.50146999108255, 7.719110531551347;22;8500022;Frenkendorf-Füllinsdorf
LSTN;Liestal;500;13.83314;Basel SBB - Olten - Luzern;47.48788225620893, 7.726230955921419;15272;8515272;Liestal Nord (Abzw)
LST;Liestal;500;14.376;Basel SBB - Olten - Luzern;47.484461172135006, 7.7313674807028185;23;8500023;Liestal
MUOS;Muttenz;501;6.7;Muttenz - Adlertunnel - Liestal;47.53075235293776, 7.656897495938625;15984;8515984;Muttenz Ost (Abzw)
LSTN;Liestal;501;13.83404;Muttenz - Adlertunnel - Liestal;47.48788225620893, 7.726230955921419;15272;8515272;Liestal Nord (Abzw)
"""


def write_lines(folder: Path, text: str = ZUG_LINES) -> Path:
    """The line network's CSV (default :data:`ZUG_LINES`) written as ``folder/lines.csv``; its path (point
    ``PLANNER_RAIL_CSV`` at it before the day's crossings are first read)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "lines.csv"
    path.write_text(textwrap.dedent(text).lstrip("\n"), "utf-8")
    return path


def stops_txt(*names: str) -> str:
    """``stops.txt`` of these :data:`STATIONS` (stop_id = the UIC number, one stop per station)."""
    # (a stop's name may hold a comma, "Liestal, Bahnhof": quoted as the CSV it is)
    rows = [f'{STATIONS[n][0]},"{n}",{STATIONS[n][1]},{STATIONS[n][2]}' for n in names]
    return "stop_id,stop_name,stop_lat,stop_lon\n" + "\n".join(rows) + "\n"


def walks_txt(*walks: tuple[str, str, int]) -> str:
    """``transfers.txt`` of walks ``(station, stop, minutes)`` between :data:`STATIONS`, both ways (variant B's
    ``walking_links = "feed"``: a station and the bus stop in front of it)."""
    rows = [f"{STATIONS[x][0]},{STATIONS[y][0]},2,{m * 60}" for a, b, m in walks for x, y in ((a, b), (b, a))]
    return "from_stop_id,to_stop_id,transfer_type,min_transfer_time\n" + "\n".join(rows) + "\n"


def stop_times_txt(*trips: tuple[str, list[tuple[str, str, str]]]) -> str:
    """``stop_times.txt`` of ``(trip_id, [(station name, arrival, departure), ...])``; times ``HH:MM``."""
    out = ["trip_id,arrival_time,departure_time,stop_id,stop_sequence"]
    for trip_id, rows in trips:
        for seq, (name, arr, dep) in enumerate(rows, 1):
            out.append(f"{trip_id},{arr}:00,{dep}:00,{STATIONS[name][0]},{seq}")
    return "\n".join(out) + "\n"


def line_service(route: str, stops: list[tuple[str, int]], starts: list[str], *, both_ways: bool = True,
                 dwell: int = 1, platforms: tuple[str, str] | None = None) -> tuple[str, str]:
    """Rows of ``trips.txt`` and ``stop_times.txt`` (no headers) for a line: ``stops`` are ``(station name, minutes
    after the first stop)``; one trip leaves the first stop at each of ``starts`` (``HH:MM``), and with
    ``both_ways`` one leaves the last stop then too, the same minutes back. A train stands ``dwell`` minutes at each
    stop between its first and last. Trip ids: ``<route>-<HHMM>`` and ``<route>-<HHMM>-back``.

    With ``platforms`` (there, back) the trips stop at those platforms of each station (stop ids ``<UIC>:0:<p>``,
    as the Swiss feed writes them; :func:`lines_day` writes their stops).

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
            platform = f":0:{platforms[1 if way else 0]}" if platforms else ""
            for i, (name, off) in enumerate(seq, 1):
                arr = h * 60 + m + off
                dep = arr + (dwell if 1 < i < len(seq) else 0)
                times.append(f"{trip},{clock(arr)},{clock(dep)},{STATIONS[name][0]}{platform},{i}")
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


def lines_day(tmp_path: Path, lines: list[tuple[str, str]], *, stops: str | None = None, **kw) -> GameDay:
    """The day of these lines (:func:`line_service` rows): its stops are the :data:`STATIONS` (and platforms) they
    call at, unless ``stops`` (``stops.txt``) is given; ``kw``: :func:`inline_day`'s other arguments (``game=``,
    ``routes=``, ...)."""
    if stops is None:
        by_uic = {uic: name for name, (uic, _lat, _lon) in STATIONS.items()}
        calls = dict.fromkeys(row.split(",")[3] for _, times in lines for row in times.splitlines() if row)
        # a station whose trains stop at platforms is written too (transfers.txt's walks name the station)
        calls = dict.fromkeys(x for sid in calls for x in (sid.split(":")[0], sid))
        stops = "stop_id,stop_name,stop_lat,stop_lon\n" + "".join(
            f'{sid},"{name}",{STATIONS[name][1]},{STATIONS[name][2]}\n'
            for sid in calls for name in [by_uic[sid.split(":")[0]]])
    return inline_day(tmp_path, stops=stops, trips="route_id,service_id,trip_id\n"
                      + "".join(t for t, _ in lines),
                      stop_times="trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                      + "".join(st for _, st in lines), **kw)


def nws_lines_day(tmp_path: Path, lines: list[tuple[str, str]], **kw) -> GameDay:
    """:func:`lines_day` of variant B (the game nordwestschweiz, the lines of :data:`NWS_ROUTES`)."""
    return lines_day(tmp_path, lines, game="nordwestschweiz", routes=NWS_ROUTES, **kw)


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
    return lines_day(tmp_path, demo_lines(), routes=DEMO_ROUTES,
                     stops=stops_txt("Baar", "Zug", "Zug Schutzengel", "Cham", "Rotkreuz", "Muri AG", "Wohlen AG",
                                     "Luzern"), **kw)


# A bigger day around Zug: the demo's lines and dice targets of four numbers more (Sihlbrugg 1, Zürich Oerlikon 2,
# Emmenbrücke 3, Affoltern am Albis 4), every line twice an hour as on the real Zug day: the S2 Zug :26 and :56 -
# Baar :00 (a full hour) - Sihlbrugg - Thalwil - Zürich HB - Zürich Oerlikon and back from Zürich Oerlikon at :00 and
# :30 (Baar :59, Zug :00 the hour after), the S5 Zug :10 and :40 - Steinhausen - Knonau - Affoltern am Albis - Zürich
# HB, the IR75 Luzern :05 and :35 - Emmenbrücke - Olten - Basel SBB (both ways), 06:00 to 21:59.
AREA_ROUTES = DEMO_ROUTES + "S5,sbb,S5,,S-Bahn,106\nIR75,sbb,IR75,,InterRegio,103\n"


def area_lines() -> list[tuple[str, str]]:
    """The bigger day's lines (:func:`line_service` rows): the demo's and the S2, S5 and IR75 above."""
    hours = range(6, 22)
    return [*demo_lines(),
            line_service("S2", [("Zug", 0), ("Baar", 4), ("Sihlbrugg", 12), ("Thalwil", 22), ("Zürich HB", 33),
                                ("Zürich Oerlikon", 40)], [f"{h:02d}:{m}" for h in hours for m in (26, 56)],
                         both_ways=False),
            line_service("S2", [("Zürich Oerlikon", 0), ("Zürich HB", 7), ("Thalwil", 18), ("Sihlbrugg", 26),
                                ("Baar", 29), ("Zug", 30)], [f"{h:02d}:{m:02d}" for h in hours for m in (0, 30)],
                         both_ways=False),
            line_service("S5", [("Zug", 0), ("Steinhausen", 5), ("Knonau", 12), ("Affoltern am Albis", 20),
                                ("Zürich HB", 38)], [f"{h:02d}:{m}" for h in hours for m in (10, 40)]),
            line_service("IR75", [("Luzern", 0), ("Emmenbrücke", 5), ("Olten", 40), ("Basel SBB", 65)],
                         [f"{h:02d}:{m:02d}" for h in hours for m in (5, 35)])]


def area_day(tmp_path: Path, **kw) -> GameDay:
    """The bigger day around Zug (see above) as :func:`inline_day` writes it (``kw``: its other arguments)."""
    return lines_day(tmp_path, area_lines(), routes=AREA_ROUTES, **kw)
