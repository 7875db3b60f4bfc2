"""Station prices and categories count only the trains of the game hours (a station served by IR/RE
trains only at night is a regional station), and a game file may override a category."""

from __future__ import annotations

import json
from importlib import resources

from planner.cli import main
from tests.support import DAY


def test_station_categories_count_only_game_hours(capsys, tmp_path):
    rc = main(["stations", *DAY, "--json"])
    by = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert rc == 0
    # these see IR/RE trains only at night (01:45-05:42, 24:39): regional stations, 1000
    for name in ("Cham", "Ebikon", "Gisikon-Root", "Horgen Oberdorf", "Dulliken"):
        assert (by[name]["category"], by[name]["price"]) == ("regional", 1000), name
    assert (by["Zug"]["category"], by["Baar"]["category"]) == ("IC", "fast")
    doc = (resources.files("planner") / "games" / "sbb-monopoly.toml").read_text("utf-8")
    game = tmp_path / "mine.toml"
    game.write_text(doc.replace('overrides = { "Olten" = 1000 }',
                                'overrides = { "Olten" = 1000 }\ncategory_overrides = { "Cham" = "IC" }'), "utf-8")
    rc = main(["stations", *DAY, "--game", str(game), "--json"])
    by = {r["name"]: r for r in json.loads(capsys.readouterr().out)}
    assert rc == 0 and (by["Cham"]["category"], by["Cham"]["price"]) == ("IC", 4000)
