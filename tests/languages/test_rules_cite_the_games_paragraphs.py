"""Answers cite the paragraphs of the game's own rules ([game] paragraphs): variant B numbers free movement §4.4
(variant A §4.5), so a hint in a variant-B game never sends players to variant A's paragraph. The variant-B day is
written here: an IC Basel SBB - Olten - Aarau every half hour, both ways."""

from __future__ import annotations

import json

import pytest

from planner.cli import main
from tests.support.inline_day import day_argv, inline_day, line_service, stops_txt


@pytest.fixture(scope="module")
def nws_day(tmp_path_factory, session_cache) -> list[str]:
    trips, times = line_service("IC1", [("Basel SBB", 0), ("Olten", 24), ("Aarau", 34)],
                                [f"{h:02d}:{m}" for h in range(8, 17) for m in ("00", "30")])
    with pytest.MonkeyPatch.context() as mp:  # the tests' cache (module fixtures come before the autouse one)
        mp.setenv("PLANNER_CACHE", str(session_cache))
        return day_argv(inline_day(tmp_path_factory.mktemp("variant-b-day"), game="nordwestschweiz",
                                   stops=stops_txt("Basel SBB", "Olten", "Aarau"),
                                   trips="route_id,service_id,trip_id\n" + trips,
                                   stop_times="trip_id,arrival_time,departure_time,stop_id,stop_sequence\n" + times))


def _rolls(capsys, day: list[str], group: str, *rolls: tuple[str, str]) -> dict:
    out = {}
    for dice, time in rolls:
        assert main(["roll", *day, "--group", group, "--dice", dice, "--at", "Basel SBB", "--time", time,
                     "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
    return out


def test_a_variant_b_hint_cites_variant_bs_paragraph(capsys, nws_day):
    b = _rolls(capsys, nws_day, "Rot", ("61", "11:30"), ("16", "11:50"))  # 61: free movement; 16 during it
    said = [w for w in b["warnings"] if "free movement" in w]
    assert said and all("(§4.4)" in w and "§4.5" not in w for w in said), b["warnings"]


def test_variant_a_cites_its_own_paragraph(sbb_game, nws_game):
    assert (sbb_game.paragraph("free_movement"), nws_game.paragraph("free_movement")) == ("4.5", "4.4")
