"""A game day to play on, written here (no ../shared): the real-time demo's lines (tests/support/inline_day.py)
and three more, so that each of variant A's dice numbers 1 to 4 has a target a group at Zug or Baar reaches, and
every stop has its platform (the answers' "Gl." and "Gleis").

* S24 Zug :16/:46 - Baar +4 - Sihlbrugg +11 (target 1) - Thalwil +19 - Zürich HB +29;
* S5 Zug :13 - Steinhausen +5 - Affoltern am Albis +17 (target 4) - Zürich HB +37 - Zürich Oerlikon +44 (target 2,
  later than Wohlen AG from Zug: a roll of 2 there changes at Rotkreuz);
* S6 Zug :35 - Hünenberg Zythus +7 - Rotkreuz +11 - Emmenbrücke +24 (target 3);

all both ways, 06:00 to 21:59, on the test's Saturday 2021-09-11 of the shipped sbb-monopoly. The web tests' and
the command line's fixture is ``play_argv`` (tests/conftest.py).
"""

from __future__ import annotations

from pathlib import Path

from planner.service.setup.playing import GameDay
from tests.support.inline_day import DEMO_ROUTES, STATIONS, demo_lines, inline_day, line_service, stops_txt

ROUTES = DEMO_ROUTES + "S24,sbb,S24,,S-Bahn,106\nS5,sbb,S5,,S-Bahn,106\nS6,sbb,S6,,S-Bahn,106\n"
PLATFORM = "2"  # every train of the day stops at platform 2
# the SBB line network's CSV (planner/rail/loader.py; PLANNER_RAIL_CSV), so that no test of the day reads
# ../shared's: line 660 Zug - Rotkreuz - Luzern (the IR70's way over the toll line Luzern–Rotkreuz), and the
# points variant A's tunnels name (its lines 500 and 650, as the SBB file has them)
RAIL_CSV = """\
Abkuerzung Bahnhof;Name Haltestelle;Linie;KM;Linien Text;Geoposition;Didok-Nummer;BPUIC;Name Haltestelle;lod;sloid
ZG;Zug;660;0.0;Zug - Luzern;47.17371, 8.51505;2204;8502204;Zug;;
RK;Rotkreuz;660;10.6;Zug - Luzern;47.14176, 8.43049;2202;8502202;Rotkreuz;;
LZ;Luzern;660;27.3;Zug - Luzern;47.05018, 8.31018;5000;8505000;Luzern;;
TK;Tecknau;500;28.16;Basel SBB - Olten - Luzern;47.44576, 7.88762;28;8500028;Tecknau;;
HBTS;Hauenstein Sud (Spw);500;34.035;Basel SBB - Olten - Luzern;47.39471, 7.90729;247;8500247;Hauenstein Süd (Spw);;
OL;Olten;500;39.29245;Basel SBB - Olten - Luzern;47.35193, 7.90770;218;8500218;Olten;;
KLWW;Killwangen-Spreitenbach;650;16.51863;Killwangen West - Daniken Ost;47.43529, 8.34965;15450;8515450;Killwangen West (Abzw);;
HBLO;Heitersberglinie Ost (Abzw);650;17.48466;Killwangen West - Daniken Ost;47.43806, 8.33764;15447;8515447;Heitersberglinie Ost (Abzw);;
MELH;Mellingen Heitersberg;650;22.24;Killwangen West - Daniken Ost;47.42808, 8.27636;16219;8516219;Mellingen Heitersberg;;
"""


def rail_csv(folder: Path) -> str:
    """:data:`RAIL_CSV` written into ``folder``; its path (for ``PLANNER_RAIL_CSV``)."""
    path = folder / "rail.csv"
    path.write_text(RAIL_CSV, "utf-8")
    return str(path)


def play_lines() -> list[tuple[str, str]]:
    """The day's lines (:func:`~tests.support.inline_day.line_service` rows)."""
    hours = range(6, 22)
    return [*demo_lines(),
            line_service("S24", [("Zug", 0), ("Baar", 4), ("Sihlbrugg", 11), ("Thalwil", 19), ("Zürich HB", 29)],
                         [f"{h:02d}:{m}" for h in hours for m in ("16", "46")]),
            line_service("S5", [("Zug", 0), ("Steinhausen", 5), ("Affoltern am Albis", 17), ("Zürich HB", 37),
                                ("Zürich Oerlikon", 44)],
                         [f"{h:02d}:13" for h in hours]),
            line_service("S6", [("Zug", 0), ("Hünenberg Zythus", 7), ("Rotkreuz", 11), ("Emmenbrücke", 24)],
                         [f"{h:02d}:35" for h in hours])]


def play_stops() -> str:
    """``stops.txt`` of every station of the day, each with its platform."""
    names = ("Baar", "Zug", "Zug Schutzengel", "Cham", "Rotkreuz", "Muri AG", "Wohlen AG", "Luzern", "Sihlbrugg",
             "Thalwil", "Zürich HB", "Zürich Oerlikon", "Steinhausen", "Affoltern am Albis", "Hünenberg Zythus",
             "Emmenbrücke")
    rows = [f"{STATIONS[n][0]},{n},{STATIONS[n][1]},{STATIONS[n][2]},{PLATFORM}" for n in names]
    return "stop_id,stop_name,stop_lat,stop_lon,platform_code\n" + "\n".join(rows) + "\n"


def play_day(tmp_path: Path, **kw) -> GameDay:
    """The day above as :func:`~tests.support.inline_day.inline_day` writes it (``kw``: its other arguments)."""
    lines = play_lines()
    return inline_day(tmp_path, routes=ROUTES, stops=play_stops(),
                      trips="route_id,service_id,trip_id\n" + "".join(t for t, _ in lines),
                      stop_times="trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                      + "".join(st for _, st in lines), **kw)


def variant_b_day(tmp_path: Path, **kw) -> GameDay:
    """A day of variant B (the shipped nordwestschweiz) on the test's Saturday, 08:00 to 17:59, both ways: an IC
    Basel SBB :00/:30 - Olten +24 - Aarau +34 (dice numbers 15 and 16), an S2 Basel SBB :49 - Olten +12 (at Olten at
    :01: a bonus) and a bus (the feed's "1") Olten :43 - Aarau +17 (at Aarau at :00)."""
    hours = range(8, 18)
    lines = [line_service("IC1", [("Basel SBB", 0), ("Olten", 24), ("Aarau", 34)],
                          [f"{h:02d}:{m}" for h in hours for m in ("00", "30")]),
             line_service("S2", [("Basel SBB", 0), ("Olten", 12)], [f"{h:02d}:49" for h in hours]),
             line_service("B1", [("Olten", 0), ("Aarau", 17)], [f"{h:02d}:43" for h in hours])]
    return inline_day(tmp_path, game="nordwestschweiz", stops=stops_txt("Basel SBB", "Olten", "Aarau"),
                      trips="route_id,service_id,trip_id\n" + "".join(t for t, _ in lines),
                      stop_times="trip_id,arrival_time,departure_time,stop_id,stop_sequence\n"
                      + "".join(st for _, st in lines), **kw)
