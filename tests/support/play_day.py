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
from tests.support.inline_day import (
    DEMO_ROUTES,
    STATIONS,
    demo_lines,
    line_service,
    lines_day,
    stops_txt,
    write_lines,
)

ROUTES = DEMO_ROUTES + "S24,sbb,S24,,S-Bahn,106\nS5,sbb,S5,,S-Bahn,106\nS6,sbb,S6,,S-Bahn,106\n"
PLATFORM = "2"  # every train of the day stops at platform 2
# the SBB line network's CSV (planner/rail/loader.py; PLANNER_RAIL_CSV), so that no test of the day reads
# ../shared's: line 660 Zug - Rotkreuz - Luzern (the IR70's way over the toll line Luzern–Rotkreuz), the points
# variant A's tunnels name (its lines 500 and 650), line 230 Basel SBB - Laufen (variant B's toll line
# Zwingen–Grellingen) and lines 500 and 501 Basel SBB - Muttenz - Liestal (501: the Adlertunnel), as the SBB file
# has them
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
LFN;Laufen;230;100.60738;Delemont Est - Basel SBB Ost;47.41935, 7.50264;113;8500113;Laufen;;
ZWG;Zwingen;230;103.43933;Delemont Est - Basel SBB Ost;47.43380, 7.53046;114;8500114;Zwingen;;
GREL;Grellingen;230;108.94158;Delemont Est - Basel SBB Ost;47.44129, 7.59199;115;8500115;Grellingen;;
AE;Aesch BL;230;113.00006;Delemont Est - Basel SBB Ost;47.46774, 7.60307;117;8500117;Aesch BL;;
DOR;Dornach-Arlesheim;230;115.45125;Delemont Est - Basel SBB Ost;47.48862, 7.61112;118;8500118;Dornach-Arlesheim;;
BSO;Basel SBB;230;122.46443;Delemont Est - Basel SBB Ost;47.54494, 7.59562;15387;8515387;Basel SBB Ost (Abzw);;
BS;Basel SBB;500;0.0;Basel SBB - Olten - Luzern;47.54741, 7.58956;10;8500010;Basel SBB;;
MU;Muttenz;500;4.83872;Basel SBB - Olten - Luzern;47.53359, 7.64789;20;8500020;Muttenz;;
MUOS;Muttenz;500;5.58634;Basel SBB - Olten - Luzern;47.53075, 7.65690;15984;8515984;Muttenz Ost (Abzw);;
PR;Pratteln;500;8.33813;Basel SBB - Olten - Luzern;47.52267, 7.69082;21;8500021;Pratteln;;
LSTN;Liestal;500;13.83314;Basel SBB - Olten - Luzern;47.48788, 7.72623;15272;8515272;Liestal Nord (Abzw);;
LST;Liestal;500;14.376;Basel SBB - Olten - Luzern;47.48446, 7.73137;23;8500023;Liestal;;
MUOS;Muttenz;501;6.7;Muttenz - Adlertunnel - Liestal;47.53075, 7.65690;15984;8515984;Muttenz Ost (Abzw);;
LSTN;Liestal;501;13.83404;Muttenz - Adlertunnel - Liestal;47.48788, 7.72623;15272;8515272;Liestal Nord (Abzw);;
"""


def rail_csv(folder: Path) -> str:
    """:data:`RAIL_CSV` written into ``folder`` (:func:`~tests.support.inline_day.write_lines`); its path (for
    ``PLANNER_RAIL_CSV``)."""
    return str(write_lines(folder, RAIL_CSV))


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
    return lines_day(tmp_path, play_lines(), routes=ROUTES, stops=play_stops(), **kw)


def variant_b_day(tmp_path: Path, **kw) -> GameDay:
    """A day of variant B (the shipped nordwestschweiz) on the test's Saturday, 08:00 to 17:59, both ways: an IC
    Basel SBB :00/:30 - Olten +24 - Aarau +34 (dice numbers 15 and 16), an S2 Basel SBB :49 - Olten +12 (at Olten at
    :01: a bonus), a bus (the feed's "1") Olten :43 - Aarau +17 (at Aarau at :00), an S1 Basel SBB :05/:35 -
    Grellingen +17 - Zwingen +22 (through the toll line Zwingen–Grellingen, number 51) - Laufen +26 (number 11) and
    a bus "1" Laufen :35 - Bretzwil, Dorf +25 (number 21)."""
    hours = range(8, 18)
    halves = [f"{h:02d}:{m}" for h in hours for m in ("00", "30")]
    lines = [line_service("IC1", [("Basel SBB", 0), ("Olten", 24), ("Aarau", 34)], halves),
             line_service("S2", [("Basel SBB", 0), ("Olten", 12)], [f"{h:02d}:49" for h in hours]),
             line_service("B1", [("Olten", 0), ("Aarau", 17)], [f"{h:02d}:43" for h in hours]),
             line_service("S1", [("Basel SBB", 0), ("Grellingen", 17), ("Zwingen", 22), ("Laufen", 26)],
                          [f"{h:02d}:{m}" for h in hours for m in ("05", "35")]),
             line_service("B1", [("Laufen", 0), ("Bretzwil, Dorf", 25)], [f"{h:02d}:35" for h in hours])]
    stops = stops_txt("Basel SBB", "Olten", "Aarau", "Grellingen", "Zwingen", "Laufen", "Bretzwil, Dorf")
    return lines_day(tmp_path, lines, game="nordwestschweiz", stops=stops, **kw)
