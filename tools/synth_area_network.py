"""The SYNTHETIC variant-A game day's services (data only): which trains run where, how often.

    *** SYNTHETIC: the services, headways and times are invented. The stations, their numbers and positions
    (the ATLAS registry) and the physical lines with their km (the SBB line data) are real. ***

A service names its stops by the registry's ``designationOfficial``. Fast trains (IC, IR, RE) stop exactly at
the listed stations; the others (S, tram) stop at every station of the area on the physical path between the
listed ones, as an S-Bahn does. The path between two consecutive listed stops is the shortest one on the SBB line
network (:class:`planner.rail.network.RailNetwork`), the one the planner's crossing code infers for a train between
two stops: so a stop list decides the line a train takes (the IC3 lists Brugg AG and Baden to run over the Bözberg
and not through the Hauenstein tunnel, the S3 lists Muttenz and Pratteln to keep off the Adler tunnel).

The area is variant A's (``planner/games/sbb-monopoly.toml``): Basel-Jura line-Biel-Bern-Emmental-Luzern-Arth-Goldau-
Zug-Zürich-Eglisau-Rhine-Basel. Lines: the Jura line (IC51, RE), the Hauenstein base line (IC6/IC61, IR26, IR37,
S3) and summit line (S9), the Heitersberg line (IC1, IC5, IR37, S11), the Bözberg (IC3, IR36, S1), the Aargau
lines (S23, S26, S27, S28, S29, Seetal S9), the Zug/Luzern lines (IC2, IR75, S1, S2, S3, S5, S24), the Jura
foot (RE12, S20), Bern's (IR65, RE31, S2, S3, S4, S44) and Zürich's S-Bahn; and the BLT lines 10 and 11 in
Basel, trams the game file excludes (line 10 written as rail, as the real feed may call it).
"""

from __future__ import annotations

from dataclasses import dataclass

# agency_id -> name. The BLT keeps its real name: the game file excludes its lines 10 and 11 by the agency's
# name as the real feed writes it (the agency's id and address say SYNTHETIC).
AGENCIES = {
    "11": ("SYNTHETIC Schweizerische Bundesbahnen SBB (test fixture)", "https://example.invalid/SYNTHETIC"),
    "33": ("SYNTHETIC BLS AG (test fixture)", "https://example.invalid/SYNTHETIC"),
    "37": ("Baselland Transport", "https://example.invalid/SYNTHETIC-BLT"),
}


@dataclass(frozen=True)
class Service:
    """One line of the day, run both ways every ``headway`` minutes.

    ``stops``: registry names in the order of direction 0 (fast trains: every stop; stopping trains: the ends
    and the stations that fix the path). ``at``: minute past the hour of the first trip of direction 0 / 1 from
    its first stop; trips leave from ``first`` to ``last`` (hours, ``last`` may pass 24). ``region`` tells
    apart lines of one name in two S-Bahn networks (the S1 of Basel and of Luzern).
    """

    route: str
    kind: str  # key of tools.synth_gtfs.KINDS
    agency: str
    region: str
    stops: tuple[str, ...]
    headway: int
    at: tuple[int, int]
    number: int  # first train number (trip_short_name); one step per trip
    first: int = 5
    last: int = 24


def _s(*stops: str) -> tuple[str, ...]:
    return stops


SERVICES = (
    # --- IC, IR and RE: the trains that cross the toll lines and tunnels between their stops
    Service("IC1", "IC", "11", "CH", _s("Bern", "Zürich HB"), 30, (2, 4), 700),  # Olten-Aarau, Heitersberg
    Service("IC5", "IC", "11", "CH", _s("Biel/Bienne", "Grenchen Süd", "Solothurn", "Olten", "Zürich HB"), 60,
            (15, 30), 500),
    Service("IC6", "IC", "11", "CH", _s("Basel SBB", "Olten", "Bern"), 60, (28, 34), 1050),  # Hauenstein tunnel
    Service("IC61", "IC", "11", "CH", _s("Basel SBB", "Liestal", "Olten", "Bern"), 60, (58, 4), 1450),
    Service("IC3", "IC", "11", "CH", _s("Basel SBB", "Brugg AG", "Baden", "Zürich HB"), 30, (7, 7), 550),
    Service("IC51", "IC", "11", "CH", _s("Biel/Bienne", "Moutier", "Delémont", "Laufen", "Basel SBB"), 60,
            (45, 16), 250),  # Delémont-Laufen
    Service("IC2", "IC", "11", "CH", _s("Zürich HB", "Thalwil", "Zug", "Arth-Goldau"), 30, (9, 20), 850),
    Service("IR75", "IR", "11", "CH", _s("Zürich HB", "Thalwil", "Zug", "Luzern"), 30, (4, 10), 2150),  # Rotkreuz
    Service("IR26", "IR", "11", "CH", _s("Basel SBB", "Liestal", "Sissach", "Olten", "Zofingen", "Sursee",
                                         "Luzern"), 30, (47, 0), 2550),
    Service("IR36", "IR", "11", "CH", _s("Basel SBB", "Rheinfelden", "Stein-Säckingen", "Frick", "Brugg AG",
                                         "Baden", "Zürich HB"), 30, (37, 26), 1950),  # Brugg-Baden
    Service("IR37", "IR", "11", "CH", _s("Basel SBB", "Liestal", "Sissach", "Gelterkinden", "Olten", "Aarau",
                                         "Lenzburg", "Zürich HB"), 30, (17, 37), 2350),  # both tunnels, Olten-Aarau
    Service("IR65", "IR", "11", "CH", _s("Bern", "Lyss", "Biel/Bienne"), 30, (6, 14), 3050),
    Service("RE31", "RE", "11", "CH", _s("Bern", "Burgdorf", "Herzogenbuchsee", "Langenthal", "Olten"), 30,
            (39, 32), 3150),
    Service("RE1", "RE", "33", "CH", _s("Bern", "Konolfingen", "Langnau i.E.", "Escholzmatt", "Schüpfheim",
                                        "Entlebuch", "Wolhusen", "Malters", "Luzern"), 60, (36, 5), 3250),
    Service("RE12", "RE", "11", "CH", _s("Olten", "Oensingen", "Solothurn", "Grenchen Süd", "Biel/Bienne"), 30,
            (23, 19), 3350),
    Service("RE48", "RE", "11", "CH", _s("Zürich HB", "Zürich Oerlikon", "Bülach", "Eglisau"), 30, (11, 21), 3450),
    Service("RE7", "RE", "11", "CH", _s("Delémont", "Laufen", "Aesch BL", "Basel SBB"), 60, (53, 22), 3550),
    # --- S-Bahn Basel
    Service("S1", "S", "11", "BS", _s("Basel SBB", "Frick"), 30, (18, 24), 18100),
    Service("S1", "S", "11", "BS", _s("Basel SBB", "Stein-Säckingen", "Laufenburg"), 60, (48, 50), 18200),
    Service("S3", "S", "11", "BS", _s("Laufen", "Basel SBB", "Muttenz", "Pratteln", "Liestal", "Olten"), 15,
            (2, 9), 18300),  # Tecknau-Olten: the Hauenstein tunnel
    Service("S9", "S", "11", "BS", _s("Sissach", "Läufelfingen", "Olten"), 60, (40, 25), 18900),  # summit line
    Service("S6", "S", "11", "BS", _s("Basel SBB", "Basel St. Jakob"), 60, (31, 41), 18600, first=9, last=20),
    # --- Aargau
    Service("S23", "S", "11", "AG", _s("Olten", "Aarau", "Brugg AG", "Baden"), 30, (21, 14), 17300),
    Service("S28", "S", "11", "AG", _s("Zofingen", "Suhr", "Lenzburg"), 30, (12, 5), 17800),
    Service("S26", "S", "11", "AG", _s("Aarau", "Lenzburg", "Rotkreuz"), 30, (26, 3), 17600),
    Service("S29", "S", "11", "AG", _s("Brugg AG", "Birr", "Lenzburg"), 30, (33, 44), 17900),
    Service("S27", "S", "11", "AG", _s("Baden", "Turgi", "Koblenz", "Bad Zurzach"), 30, (14, 1), 17700),
    Service("S41", "S", "11", "AG", _s("Bülach", "Eglisau", "Koblenz", "Laufenburg"), 60, (5, 35), 17400),
    Service("S9", "S", "11", "LU", _s("Lenzburg", "Seon", "Hochdorf", "Luzern"), 30, (8, 16), 19900),  # Seetal
    # --- Zürich
    Service("S11", "S", "11", "ZH", _s("Zürich HB", "Dietikon", "Mellingen Heitersberg", "Lenzburg", "Aarau"), 30,
            (13, 27), 19100),  # the Heitersberg tunnel, stopping
    Service("S12", "S", "11", "ZH", _s("Zürich HB", "Dietikon", "Wettingen", "Baden", "Brugg AG"), 15, (3, 22),
            19200),
    Service("S6", "S", "11", "ZH", _s("Zürich HB", "Zürich Oerlikon", "Wettingen", "Baden"), 15, (19, 8), 19600),
    Service("S5", "S", "11", "ZH", _s("Zürich HB", "Affoltern am Albis", "Zug"), 15, (16, 11), 19500),
    Service("S8", "S", "11", "ZH", _s("Zürich HB", "Zürich Enge", "Thalwil", "Oberrieden"), 15, (10, 2), 19800),
    Service("S24", "S", "11", "ZH", _s("Zürich HB", "Zürich Enge", "Thalwil", "Sihlbrugg", "Zug"), 30, (42, 17),
            19400),
    Service("S9", "S", "11", "ZH", _s("Zürich HB", "Zürich Hardbrücke", "Zürich Oerlikon", "Bülach"), 15, (0, 26),
            19000),
    Service("S15", "S", "11", "ZH", _s("Zürich HB", "Zürich Oerlikon", "Oberglatt ZH", "Niederweningen"), 30,
            (24, 6), 19150),
    Service("S7", "S", "11", "ZH", _s("Zürich HB", "Zürich Oerlikon", "Opfikon"), 15, (27, 12), 19700),
    # --- Zug and Luzern
    Service("S1", "S", "11", "LU", _s("Sursee", "Luzern", "Rotkreuz", "Zug", "Baar"), 15, (1, 13), 21100),
    Service("S2", "S", "11", "ZG", _s("Baar", "Zug", "Arth-Goldau"), 15, (7, 18), 22200),
    Service("S3", "S", "11", "LU", _s("Luzern", "Küssnacht am Rigi", "Arth-Goldau"), 30, (22, 51), 21300),
    Service("S8", "S", "11", "LU", _s("Olten", "Zofingen", "Sursee"), 30, (51, 3), 21800),
    Service("S6", "S", "33", "LU", _s("Luzern", "Wolhusen", "Langnau i.E."), 30, (29, 38), 21600),
    # --- Bern and Solothurn
    Service("S3", "S", "33", "BE", _s("Biel/Bienne", "Lyss", "Bern"), 15, (9, 20), 15300),
    Service("S44", "S", "33", "BE", _s("Bern", "Schönbühl SBB", "Burgdorf"), 15, (25, 17), 15440),
    Service("S2", "S", "33", "BE", _s("Bern", "Gümligen", "Konolfingen", "Langnau i.E."), 15, (14, 3), 15200),
    Service("S4", "S", "33", "BE", _s("Burgdorf", "Herzogenbuchsee", "Langenthal", "Olten"), 30, (44, 11),
            15400),
    Service("S21", "S", "33", "SO", _s("Solothurn", "Büren an der Aare", "Lyss"), 30, (35, 40), 16100),
    Service("S20", "S", "11", "SO", _s("Olten", "Oensingen", "Wangen an der Aare", "Solothurn", "Biel/Bienne"), 30,
            (4, 29), 16000),
    # --- BLT trams in Basel, written as rail: the game file excludes them by name
    Service("10", "TRAMRAIL", "37", "BS", _s("Dornach, Bahnhof", "Arlesheim, Dorf", "Münchenstein, Dorf",
                                             "Münchenstein, Zollweiden", "Basel, Bahnhof SBB", "Basel, Heuwaage",
                                             "Binningen, Kronenplatz", "Bottmingen, Schloss", "Oberwil BL, Zentrum",
                                             "Therwil, Zentrum", "Ettingen, Dorf", "Rodersdorf, Station"), 15,
            (2, 6), 1000),
    Service("11", "TRAMRAIL", "37", "BS", _s("Aesch BL, Dorf", "Reinach BL, Süd", "Reinach BL, Dorf",
                                         "Münchenstein, Heiligholz", "Basel, Aeschenplatz",
                                         "Basel, Barfüsserplatz"), 15, (4, 9), 1100),
)

# Station change times (minutes) where they are not the game's 2 (the feed's station row), and at the biggest
# stations a longer one between platforms far apart (at least ``gap`` numbers apart: both ways).
CHANGE_MINUTES = {
    "Zürich HB": 5, "Bern": 5, "Basel SBB": 5, "Luzern": 4, "Olten": 3, "Biel/Bienne": 4, "Zürich Oerlikon": 3,
    "Aarau": 3, "Brugg AG": 3, "Baden": 3, "Lenzburg": 3, "Zug": 3, "Arth-Goldau": 3, "Solothurn": 3, "Liestal": 3,
}
FAR_PLATFORMS = {"Zürich HB": (6, 7), "Bern": (6, 7), "Basel SBB": (6, 7)}  # station -> (gap, minutes)
