"""Area membership of named stations for both games (their real coordinates, from the ATLAS registry)."""

from __future__ import annotations

import numpy as np

from planner.gamefile.area import in_area, on_ring

# The stations' real coordinates (lat, lon) as the ATLAS service-point registry gives them
# (../shared/data/stations/atlas-service-points-2025-08-02.csv.zip: designationOfficial, wgs84North, wgs84East),
# rounded to 5 decimals (about a metre): written here, so that the area rule is specified without ../shared.
ATLAS: dict[str, tuple[float, float]] = {
    "Delémont": (47.36201, 7.35006),
    "Moutier": (47.28067, 7.38104),
    "Solothurn": (47.20419, 7.54269),
    "Olten": (47.35193, 7.90770),
    "Liestal": (47.48446, 7.73137),
    "Aarau": (47.39136, 8.05127),
    "Brugg AG": (47.48086, 8.20884),
    "Baden": (47.47642, 8.30771),
    "Wohlen AG": (47.34846, 8.26979),
    "Zug": (47.17371, 8.51505),
    "Rotkreuz": (47.14176, 8.43050),
    "Lausanne": (46.51679, 6.62909),
    "Thun": (46.75485, 7.62961),
    "Winterthur": (47.50033, 8.72382),
    "Schaffhausen": (47.69828, 8.63276),
    "Chur": (46.85308, 9.52894),
    "Lugano": (46.00550, 8.94700),
    "Porrentruy": (47.42092, 7.08008),
    "Sissach": (47.46275, 7.81203),
    "Biel/Bienne": (47.13290, 7.24291),
    "Wolhusen": (47.05549, 8.07975),
    "Sihlbrugg": (47.23843, 8.57706),
    "Zürich Oerlikon": (47.41153, 8.54414),
    "Herzogenbuchsee": (47.18809, 7.70096),
    "Konolfingen": (46.88070, 7.62137),
    "Rheinfelden": (47.55121, 7.79217),
    "Koblenz": (47.60034, 8.22705),
    "Niederbipp": (47.27040, 7.69482),
    "Emmenbrücke": (47.07060, 8.28257),
    "Laufen": (47.41935, 7.50264),
    "Reiden": (47.24147, 7.96877),
    "Affoltern am Albis": (47.27607, 8.44659),
    "Suhr": (47.37164, 8.08229),
    "Dietikon": (47.40578, 8.40499),
    "Zollikofen": (47.00183, 7.46291),
    "Basel SBB": (47.54741, 7.58956),
    "Bern": (46.94883, 7.43913),
    "Luzern": (47.05018, 8.31018),
    "Arth-Goldau": (47.04904, 8.54945),
    "Zürich HB": (47.37818, 8.54021),
    "Eglisau": (47.57237, 8.51656),
    "Gelterkinden": (47.46589, 7.84767),
    "Frick": (47.50735, 8.01309),
    "Bretzwil, Dorf": (47.39873, 7.65326),
    "Zwingen": (47.43380, 7.53046),
    "Möhlin": (47.56186, 7.83386),
    "Mumpf": (47.54763, 7.90962),
    "Tecknau": (47.44576, 7.88762),
}


def _mask(game, names):
    lat = np.array([ATLAS[n][0] for n in names])
    lon = np.array([ATLAS[n][1] for n in names])
    return dict(zip(names, in_area(game, lat, lon), strict=True))


A_INSIDE = ["Delémont", "Moutier", "Solothurn", "Olten", "Liestal", "Aarau", "Brugg AG", "Baden", "Wohlen AG", "Zug",
            "Rotkreuz"]
A_OUTSIDE = ["Lausanne", "Thun", "Winterthur", "Schaffhausen", "Chur", "Lugano", "Porrentruy"]
A_TARGETS = ["Sissach", "Biel/Bienne", "Wolhusen", "Sihlbrugg", "Wohlen AG", "Zürich Oerlikon", "Herzogenbuchsee",
             "Konolfingen", "Rheinfelden", "Koblenz", "Niederbipp", "Emmenbrücke", "Laufen", "Brugg AG", "Reiden",
             "Affoltern am Albis", "Moutier", "Suhr", "Dietikon", "Zollikofen"]


def test_variant_a_inside_and_outside(sbb_game):
    m = _mask(sbb_game, A_INSIDE + A_OUTSIDE)
    assert all(m[n] for n in A_INSIDE), [n for n in A_INSIDE if not m[n]]
    assert not any(m[n] for n in A_OUTSIDE), [n for n in A_OUTSIDE if m[n]]


def test_variant_a_all_dice_targets_inside(sbb_game):
    m = _mask(sbb_game, A_TARGETS)
    assert all(m.values()), [n for n, v in m.items() if not v]
    # the list above is every station target of the game file
    assert sorted(A_TARGETS) == sorted({s for t in sbb_game.dice.targets for s in t.stations})


def test_ring_stations_are_on_the_ring(sbb_game):
    names = ["Basel SBB", "Biel/Bienne", "Bern", "Luzern", "Arth-Goldau", "Zürich HB", "Eglisau", "Koblenz"]
    lat = np.array([ATLAS[n][0] for n in names])
    lon = np.array([ATLAS[n][1] for n in names])
    assert on_ring(sbb_game, lat, lon).all()
    assert not on_ring(sbb_game, np.array([ATLAS["Olten"][0]]), np.array([ATLAS["Olten"][1]])).any()


def test_variant_b_area(nws_game):
    inside = ["Basel SBB", "Laufen", "Liestal", "Sissach", "Gelterkinden", "Olten", "Rheinfelden", "Frick",
              "Bretzwil, Dorf", "Zwingen", "Möhlin", "Mumpf", "Tecknau"]
    outside = ["Zürich HB", "Bern", "Luzern", "Delémont", "Zug"]
    m = _mask(nws_game, inside + outside)
    assert all(m[n] for n in inside), [n for n in inside if not m[n]]
    assert not any(m[n] for n in outside), [n for n in outside if m[n]]


def test_missing_coordinates_are_outside(sbb_game):
    assert not in_area(sbb_game, np.array([np.nan]), np.array([np.nan])).any()
