"""Answers cite the paragraphs of the game's own rules ([game] paragraphs): variant B numbers free movement §4.4
(variant A §4.5), so a hint in a variant-B game never sends players to variant A's paragraph. The variant-B day is
written in tests/support/play_day.py."""

from __future__ import annotations

import json

from planner.cli import main


def _rolls(capsys, day: list[str], group: str, *rolls: tuple[str, str]) -> dict:
    out = {}
    for dice, time in rolls:
        assert main(["roll", *day, "--group", group, "--dice", dice, "--at", "Basel SBB", "--time", time,
                     "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
    return out


def test_a_variant_b_hint_cites_variant_bs_paragraph(capsys, variant_b_argv):
    b = _rolls(capsys, variant_b_argv, "Rot", ("61", "11:30"), ("16", "11:50"))  # 61: free movement; 16 during it
    said = [w for w in b["warnings"] if "free movement" in w]
    assert said and all("(§4.4)" in w and "§4.5" not in w for w in said), b["warnings"]


def test_variant_a_cites_its_own_paragraph(sbb_game, nws_game):
    assert (sbb_game.paragraph("free_movement"), nws_game.paragraph("free_movement")) == ("4.5", "4.4")
