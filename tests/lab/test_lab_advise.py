"""``planner advise`` in a real game on the day written in tests/support/play_day.py: the stations on or near the group's way worth buying now,
ranked by expected fee income against price; ``next`` and the phone's state show the best one (``buy_advice``)."""

from __future__ import annotations

import json

import pytest

from planner.cli import main

DAY: list[str] = []  # the day's --feed and --date (filled by ``_day``)


@pytest.fixture(scope="module", autouse=True)
def _day(play_argv):
    DAY[:] = play_argv[:4]


@pytest.fixture(scope="module")
def day(play_argv):
    """The day as the service layer loads it."""
    import datetime as dt

    from planner.gamefile.game import load_game
    from planner.service.setup.playing import GameDay

    return GameDay(play_argv[1], load_game(play_argv[5]), dt.date.fromisoformat(play_argv[3]))


def js(capsys, *argv: str) -> dict:
    rc = main([*argv, "--json"])
    cap = capsys.readouterr()
    assert rc == 0, cap.err
    return json.loads(cap.out)


@pytest.mark.fresh_cache  # no lab run of this day kept (another test's would make the basis "lab")
def test_advise_ranks_stations_on_the_way_by_expected_income_against_price(capsys):
    # Rot heads from Zug to Wohlen AG via Rotkreuz (13:19); Gelb owns Zug; Blau stands at Rotkreuz
    rot = js(capsys, "roll", *DAY, "--group", "Rot", "--dice", "2", "--at", "Zug", "--time", "12:40")
    assert rot["target"] == "Wohlen AG" and any(leg["to"] == "Rotkreuz" for leg in rot["legs"])
    js(capsys, "ledger", "buy", *DAY, "--group", "Gelb", "--station", "Zug", "--time", "12:30")
    js(capsys, "group", "position", *DAY, "--group", "Blau", "--at", "Rotkreuz", "--time", "12:35")
    out = js(capsys, "advise", *DAY, "--group", "Blau", "--time", "12:40", "--top", "20")
    assert out["group"] == "Blau" and out["basis"] == "timetable" and out["stations"]
    names = [s["name"] for s in out["stations"]]
    assert "Zug" not in names  # owned already
    for s in out["stations"]:
        assert s["price"] > 0 and s["expected_income"] > 0 and s["price"] <= out["cash"]
        assert s["net"] == s["expected_income"] - s["price"]
    ratios = [s["expected_income"] / s["price"] for s in out["stations"]]
    assert ratios == sorted(ratios, reverse=True)
    rk = next(s for s in out["stations"] if s["name"] == "Rotkreuz")
    assert rk["why"] == "where you are" and rk["certain_stops"] >= 1  # Rot's itinerary stops there at 13:19
    # next and the phone show the best one
    nxt = js(capsys, "next", *DAY, "--group", "Blau", "--time", "12:40")
    assert nxt["buy_advice"] == out["stations"][0]


def test_advise_uses_the_lab_rates_once_a_run_of_the_day_is_kept(capsys):
    js(capsys, "simulate", *DAY, "--days", "2", "--groups", "3", "--executor", "serial")
    js(capsys, "group", "position", *DAY, "--group", "Blau", "--at", "Rotkreuz", "--time", "13:05")
    out = js(capsys, "advise", *DAY, "--group", "Blau", "--time", "13:05")
    assert out["basis"] == "lab"
    assert all({"expected_income", "price"} <= set(s) for s in out["stations"])


def test_advise_for_an_unknown_group_of_a_created_game_is_one_line(capsys, tmp_path):
    js(capsys, "game", "new", *DAY, "--name", "Samstag", "--groups", "Rot,Blau")
    rc = main(["advise", *DAY, "--group", "Lila", "--time", "12:40"])
    err = capsys.readouterr().err
    assert rc == 2 and err.startswith("planner: error: ") and err.count("\n") == 1, err


def test_check_area_says_how_to_make_the_lab_report_and_links_it_when_it_is_beside(capsys, tmp_path):
    out = tmp_path / "area.html"
    rc = main(["check-area", *DAY, "--out", str(out)])
    text = capsys.readouterr().out
    assert rc == 1  # the day lacks most targets
    assert "game lab" in text and "planner simulate --game sbb-monopoly --date 2021-09-11" in text
    assert "planner simulate" in out.read_text("utf-8") and "href='lab-" not in out.read_text("utf-8")
    lab = tmp_path / "lab-sbb-monopoly-2021-09-11.html"
    js(capsys, "simulate", *DAY, "--days", "1", "--groups", "2", "--executor", "serial", "--out", str(lab))
    rc = main(["check-area", *DAY, "--out", str(out), "--json", "--force"])
    rep = json.loads(capsys.readouterr().out)
    assert rep["lab"]["report"] == lab.name
    assert f"--feed {DAY[1]} " in rep["lab"]["command"]  # the feed the organiser checked, not the default one
    assert rep["lab"]["command"].endswith(f"--out {lab}")  # beside the area report, where its link is looked for
    assert f"href='{lab.name}'" in out.read_text("utf-8")


def _way_stations(tt, legs: list[dict]) -> set[str]:
    """The stations a group is at on ``legs`` (roll JSON): where it boards, every stop after, where it gets off."""
    out = set()
    for leg in legs:
        rows = tt.trip_stop_times(tt.trip_index[leg["trip_id"]])
        names = [str(tt.station_name[tt.stop_station[tt.st_stop[r]]]) for r in rows]
        first = names.index(leg["from"])
        out.update(names[first:names.index(leg["to"], first + 1) + 1])
    return out


def _game(capsys) -> None:
    """A created game of three groups (advise counts the fees of the others)."""
    js(capsys, "game", "new", *DAY, "--name", "Samstag", "--groups", "Rot,Blau,Gelb")


def test_a_heading_group_is_offered_the_stations_of_its_itinerary_only(capsys, day):
    _game(capsys)
    # Rot must take the 12:49 S6 from Rotkreuz to Zug and the S5 to Affoltern: no train the other way counts
    rot = js(capsys, "roll", *DAY, "--group", "Rot", "--dice", "4", "--at", "Rotkreuz", "--time", "12:40")
    assert rot["target"] == "Affoltern am Albis" and rot["legs"][0]["route"] == "S6"
    assert rot["legs"][0]["departure"] == "12:49"
    way = _way_stations(day.timetable, rot["legs"])
    out = js(capsys, "advise", *DAY, "--group", "Rot", "--time", "12:40", "--top", "100")
    assert out["stations"] and {s["name"] for s in out["stations"]} <= way
    assert not any(s["why"].startswith("a train you may take") for s in out["stations"])
    assert out["doing"] == "heading" and out["scope"] == "way"
    nxt = js(capsys, "next", *DAY, "--group", "Rot", "--time", "12:40")
    assert nxt["buy_advice"] == out["stations"][0]
    # free to move (before the dice; after a 6), the trains it may board until that ends count as well
    js(capsys, "group", "position", *DAY, "--group", "Blau", "--at", "Rotkreuz", "--time", "12:10")
    free = js(capsys, "advise", *DAY, "--group", "Blau", "--time", "12:10", "--top", "100")
    assert free["doing"] == "before_dice" and free["scope"] == "free"
    assert any(s["why"].startswith("a train you may take") for s in free["stations"])
    six = js(capsys, "roll", *DAY, "--group", "Gelb", "--dice", "6", "--at", "Zug", "--time", "12:40")
    assert six["kind"] == "free"
    free = js(capsys, "advise", *DAY, "--group", "Gelb", "--time", "12:40", "--top", "100")
    assert free["doing"] == "free" and any(s["why"].startswith("a train you may take") for s in free["stations"])


def test_advise_reads_an_earlier_time_as_next_does(capsys):
    _game(capsys)
    js(capsys, "roll", *DAY, "--group", "Gelb", "--dice", "2", "--at", "Zug", "--time", "12:31")
    out = js(capsys, "advise", *DAY, "--group", "Gelb", "--time", "09:10")
    nxt = js(capsys, "next", *DAY, "--group", "Gelb", "--time", "09:10")
    assert out["time"] == nxt["time"] == "12:31"  # the group's latest entry: its times never run backwards
    assert out["doing"] == nxt["obligation"]["kind"] == "heading"
    assert nxt["buy_advice"] == (out["stations"][0] if out["stations"] else None)


def test_the_heading_says_whether_the_stations_pay_back_and_the_end_is_one_line(capsys):
    _game(capsys)
    js(capsys, "group", "position", *DAY, "--group", "Blau", "--at", "Rotkreuz", "--time", "12:10")
    out = js(capsys, "advise", *DAY, "--group", "Blau", "--time", "12:10", "--top", "100")
    n, k = len(out["stations"]), sum(s["pays_back"] for s in out["stations"])
    assert k < n  # many small stations do not pay back
    assert main(["advise", *DAY, "--group", "Blau", "--time", "12:10", "--top", "100"]) == 0
    text = capsys.readouterr().out
    assert "worth buying" not in text
    assert (f"({k} of {n} pay back their price before the end)" if k else "none pays back its price") in text
    assert out["paying_back"] == k and out["rates"]["summary"] in text.splitlines()[0]  # what the rates rest on
    # after the end: one line, exit 0, as next says it
    assert main(["next", *DAY, "--group", "Blau", "--time", "18:10"]) == 0
    assert "the game is over" in capsys.readouterr().out
    assert main(["advise", *DAY, "--group", "Blau", "--time", "18:10"]) == 0
    assert capsys.readouterr().out == "group Blau at 18:10: the game is over\n"
    over = js(capsys, "advise", *DAY, "--group", "Blau", "--time", "18:10")
    assert over["over"] and over["doing"] == "ended" and over["stations"] == []


@pytest.mark.parametrize("at", ["Zug", "Luzern", "Rotkreuz"])
def test_a_train_advise_offers_is_one_the_group_may_take(day, at):
    """Every "a train you may take stops there at T" of a group standing where it got off is an arrival the
    service's own legal routing makes by T (the change time after getting off, the 29-minute window): advise never
    promises a train the planner would refuse."""
    from planner.game.day import GroupState, Obligation, Position
    from planner.lab.advise import _candidates
    from planner.lab.moves import Board
    from planner.routing import best_journey
    from planner.service.read.positions import origin_of

    board, station = Board(day), day.station(at)
    offered = 0
    for t in range(9 * 3600, 12 * 3600, 7 * 60):  # before the dice: the group moves freely
        pos = Position(station, t)
        state = GroupState(t, pos, Obligation("before_dice", until=12 * 3600 + 1800), None, (), t)
        for name, (arrival, why) in _candidates(day, board, state, []).items():
            if not why.startswith("a train you may take"):
                continue
            j = best_journey(day.network, origin_of(day, pos, t), day.station(name))
            assert j is not None and j.arrival(day.timetable) <= arrival, (at, t, name, why)
            offered += 1
    assert offered > 0
