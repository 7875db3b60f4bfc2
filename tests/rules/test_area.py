"""Area membership of named stations for both games (coordinates from the real ATLAS registry)."""

from __future__ import annotations

import io
import zipfile

import numpy as np
import pandas as pd
import pytest

from planner.gamefile.area import in_area, on_ring
from tests.support import DATA

pytestmark = pytest.mark.needs_shared  # reads ../shared (tests/project/test_suite_without_shared.py)


@pytest.fixture(scope="module")
def atlas() -> dict[str, tuple[float, float]]:
    z = zipfile.ZipFile(DATA / "stations" / "atlas-service-points-2025-08-02.csv.zip")
    with z.open(z.namelist()[0]) as fh:
        df = pd.read_csv(io.TextIOWrapper(fh, "utf-8-sig"), sep=";", dtype=str,
                         usecols=["designationOfficial", "wgs84North", "wgs84East", "isoCountryCode"])
    df = df[df.isoCountryCode == "CH"].dropna()
    return {n: (float(a), float(o)) for n, a, o in zip(df.designationOfficial, df.wgs84North, df.wgs84East,
                                                       strict=True)}


def _mask(game, atlas, names):
    lat = np.array([atlas[n][0] for n in names])
    lon = np.array([atlas[n][1] for n in names])
    return dict(zip(names, in_area(game, lat, lon), strict=True))


A_INSIDE = ["Delémont", "Moutier", "Solothurn", "Olten", "Liestal", "Aarau", "Brugg AG", "Baden", "Wohlen AG", "Zug",
            "Rotkreuz"]
A_OUTSIDE = ["Lausanne", "Thun", "Winterthur", "Schaffhausen", "Chur", "Lugano", "Porrentruy"]
A_TARGETS = ["Sissach", "Biel/Bienne", "Wolhusen", "Sihlbrugg", "Wohlen AG", "Zürich Oerlikon", "Herzogenbuchsee",
             "Konolfingen", "Rheinfelden", "Koblenz", "Niederbipp", "Emmenbrücke", "Laufen", "Brugg AG", "Reiden",
             "Affoltern am Albis", "Moutier", "Suhr", "Dietikon", "Zollikofen"]


def test_variant_a_inside_and_outside(sbb_game, atlas):
    m = _mask(sbb_game, atlas, A_INSIDE + A_OUTSIDE)
    assert all(m[n] for n in A_INSIDE), [n for n in A_INSIDE if not m[n]]
    assert not any(m[n] for n in A_OUTSIDE), [n for n in A_OUTSIDE if m[n]]


def test_variant_a_all_dice_targets_inside(sbb_game, atlas):
    m = _mask(sbb_game, atlas, A_TARGETS)
    assert all(m.values()), [n for n, v in m.items() if not v]


def test_ring_stations_are_on_the_ring(sbb_game, atlas):
    names = ["Basel SBB", "Biel/Bienne", "Bern", "Luzern", "Arth-Goldau", "Zürich HB", "Eglisau", "Koblenz"]
    lat = np.array([atlas[n][0] for n in names])
    lon = np.array([atlas[n][1] for n in names])
    assert on_ring(sbb_game, lat, lon).all()
    assert not on_ring(sbb_game, np.array([atlas["Olten"][0]]), np.array([atlas["Olten"][1]])).any()


def test_variant_b_area(nws_game, atlas):
    inside = ["Basel SBB", "Laufen", "Liestal", "Sissach", "Gelterkinden", "Olten", "Rheinfelden", "Frick",
              "Bretzwil, Dorf", "Zwingen", "Möhlin", "Mumpf", "Tecknau"]
    outside = ["Zürich HB", "Bern", "Luzern", "Delémont", "Zug"]
    m = _mask(nws_game, atlas, inside + outside)
    assert all(m[n] for n in inside), [n for n in inside if not m[n]]
    assert not any(m[n] for n in outside), [n for n in outside if m[n]]


def test_missing_coordinates_are_outside(sbb_game):
    assert not in_area(sbb_game, np.array([np.nan]), np.array([np.nan])).any()
