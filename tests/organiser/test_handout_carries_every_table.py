"""The handout carries every table a group needs without the seed, true to the game file: station prices, the
fees by building level (§9.3) and the building rule (§8), toll and tunnel fees, dice targets; variant B's card says
what variant B's game file says (the bonus counts the effective time too; one target per number); a SYNTHETIC
timetable is not credited to opentransportdata.swiss; the pages' texts stay inside the page; the day's trains are
drawn on the physical lines, not as chords across the Jura."""

from __future__ import annotations

import dataclasses
import re
import subprocess
from fractions import Fraction

import pytest

from planner.cli import main
from planner.maps.layers import latlon, line_segments
from planner.maps.rules_card import card
from planner.maps.track import tracks
from planner.rail.loader import load_rail_network
from planner.rail.network import haversine_km

pytestmark = pytest.mark.needs_shared  # reads ../shared (tests/project/test_suite_without_shared.py)


def _section(sections, title: str):
    (sec,) = [s for s in sections if s.title == title]
    return sec


@pytest.mark.parametrize("variant", ["A", "B"])
def test_the_fee_table_is_the_game_files_multipliers_times_each_price(variant, sbb_game, nws_game, zug_tt, nws_tt):
    game, tt = (sbb_game, zug_tt) if variant == "A" else (nws_game, nws_tt)
    fees = _section(card(tt, game), "Stations: building and fees")
    mult = [Fraction(str(m)) for m in game.prices.house_fee_multipliers]
    assert fees.header == ("Price", "Stations", "unbuilt", "1 house", "2 houses", "3 houses", "4 houses", "hotel")
    assert len(fees.rows) >= 2
    for row in fees.rows:
        price = int(row[0].replace(",", ""))
        assert [int(c.replace(",", "")) for c in row[2:]] == [int(m * price) for m in mult]
    said = " ".join(fees.paragraphs)
    assert f"owns {game.letter_group_size} stations of one initial letter" in said
    assert f"a hotel {len(mult) - 1} houses" in said
    # the seeds' §9.3 (1/4, 1, 2.5, 3, 4, 5 times the price) is what both game files hold
    assert mult == [Fraction(1, 4), 1, Fraction(5, 2), 3, 4, 5]


def test_the_card_follows_an_edited_fee_table(sbb_game, zug_tt):
    prices = dataclasses.replace(sbb_game.prices, house_fee_multipliers=(0.5, 2, 3))
    fees = _section(card(zug_tt, dataclasses.replace(sbb_game, prices=prices)), "Stations: building and fees")
    assert fees.header[2:] == ("unbuilt", "1 house", "hotel")
    assert ("4,000", "IC / EC", "2,000", "8,000", "12,000") in fees.rows
    assert "a hotel 2 houses" in " ".join(fees.paragraphs)


def test_variant_b_says_its_own_bonus_and_target_rules(nws_game, nws_tt, sbb_game, zug_tt):
    b = {s.title: " ".join(s.paragraphs) for s in card(nws_tt, nws_game)}
    a = {s.title: " ".join(s.paragraphs) for s in card(zug_tt, sbb_game)}
    assert "by the timetable or in fact" in b["Full hour"] and "(timetable)" not in b["Full hour"]
    assert "where a number has several" not in b["Dice"]  # one target per number in variant B
    assert "where a number has several" in a["Dice"] and "(timetable)" in a["Full hour"]
    assert "neither buy nor build" in b["Stations: building and fees"]  # variant B §10
    assert "neither buy nor build" not in a["Stations: building and fees"]


@pytest.fixture(scope="module")
def nws_german(tmp_path_factory, nws_feed, nws_date) -> dict:
    out = tmp_path_factory.mktemp("nws-handout") / "handout.pdf"
    rc = main(["handout", "--game", "nordwestschweiz", "--feed", str(nws_feed), "--date", nws_date.isoformat(),
               "--lang", "de", "--no-png", "--out", str(out)])
    assert rc == 0
    pages = [subprocess.run(["pdftotext", "-f", str(k), "-l", str(k), "-layout", str(out), "-"], capture_output=True,
                            text=True, check=True).stdout for k in (1, 2, 3)]
    return {"pdf": out, "pages": [" ".join(p.split()) for p in pages]}


def test_the_german_card_of_variant_b_on_its_synthetic_day(nws_german):
    one, two, three = nws_german["pages"]
    assert "hat eine Zahl mehrere" not in two and "effektiv oder nach Fahrplan" in two
    assert "Bahnhöfe: Bauen und Gebühren" in two and re.search(r"unbebaut 1 Haus 2 Häuser .* Hotel", two)
    assert re.search(r"4'000 IC / EC, IR / RE \(schnell\) 1'000 4'000 10'000 12'000 16'000 20'000", two)
    assert "darf eine Gruppe weder kaufen noch bauen" in two
    for page in (one, two, three):  # invented data is never credited to the open data platform
        assert "SYNTHETISCH" in page and "Quelle: opentransportdata.swiss" not in page


def test_every_word_of_the_station_pages_stays_inside_the_page(nws_german):
    box = subprocess.run(["pdftotext", "-bbox", "-f", "3", "-l", "3", str(nws_german["pdf"]), "-"],
                         capture_output=True, text=True, check=True).stdout
    width = float(re.search(r'<page width="([\d.]+)"', box).group(1))
    right = max(float(x) for x in re.findall(r'xMax="([\d.]+)"', box))
    assert right <= width - 20, (right, width)  # the subtitle was cut at the right edge
    assert "Baugruppe." in box  # its last word is there


def test_long_rail_segments_follow_the_physical_line(nws_tt):
    """Basel SBB - Olten non-stop runs through the Hauenstein base tunnel, past Tecknau, not straight over the
    Jura; every long rail segment of the day has a path no longer than the detour allowed."""
    network = load_rail_network()
    segments = line_segments(nws_tt)
    drawn = dict(zip(((nws_tt.station_name[s.a], nws_tt.station_name[s.b]) for s in segments),
                     tracks(nws_tt, segments, network), strict=True))
    liestal_olten = drawn[("Liestal", "Olten")] if ("Liestal", "Olten") in drawn else drawn[("Olten", "Liestal")]
    tecknau = latlon(nws_tt, [i for i in range(nws_tt.n_stations) if nws_tt.station_name[i] == "Tecknau"][0])
    assert len(liestal_olten) > 5 and min(haversine_km(*p, *tecknau) for p in liestal_olten) < 1.0
    long = [(s, drawn[(nws_tt.station_name[s.a], nws_tt.station_name[s.b])]) for s in segments
            if s.category in ("IC", "fast") and haversine_km(*latlon(nws_tt, s.a), *latlon(nws_tt, s.b)) > 10]
    assert len(long) >= 5
    for s, pts in long:
        chord = haversine_km(*pts[0], *pts[-1])
        length = sum(haversine_km(*p, *q) for p, q in zip(pts, pts[1:], strict=False))
        assert len(pts) > 2 and chord < length <= 1.8 * chord + 3, (s, len(pts))
