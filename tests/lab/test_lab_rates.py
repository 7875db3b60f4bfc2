"""The fee rates ``advise`` expects of the Zug game day: a ``planner simulate`` run keeps its rates unless a run of
more group-days is kept already (``--replace-rates`` overrides), and advise says which run they come from. The day is
a small network written here, its lines running all day: IR70 Luzern - Rotkreuz - Zug - Zürich HB, S1 Baar - Zug -
Cham - Rotkreuz, S2 Rotkreuz - Wohlen AG, S3 Zürich HB - Zürich Oerlikon, S4 Luzern - Emmenbrücke (the targets of
2 and 3)."""

from __future__ import annotations

import json

import pytest

from planner.cli import main
from tests.support.inline_day import ROUTES, day_argv, inline_day, line_service, stops_txt

DAY: list[str] = []
RUN: list[str] = []
HOURLY = [f"{h:02d}:00" for h in range(6, 22)]
HALF_HOURLY = [f"{h:02d}:{m:02d}" for h in range(6, 22) for m in (0, 30)]


@pytest.fixture(autouse=True)
def _inline_day(tmp_path):
    """The test's day: DAY and RUN are filled for it and emptied after it."""
    lines = [line_service("IR70", [("Luzern", 0), ("Rotkreuz", 11), ("Zug", 19), ("Zürich HB", 43)], HOURLY),
             line_service("S1", [("Baar", 0), ("Zug", 4), ("Cham", 10), ("Rotkreuz", 18)], HALF_HOURLY),
             line_service("S2", [("Rotkreuz", 0), ("Wohlen AG", 30)], HOURLY),
             line_service("S3", [("Zürich HB", 0), ("Zürich Oerlikon", 6)], HALF_HOURLY),
             line_service("S4", [("Luzern", 0), ("Emmenbrücke", 5)], HALF_HOURLY)]
    DAY[:] = day_argv(inline_day(
        tmp_path, routes=ROUTES + "S3,sbb,S3,,S-Bahn,106\nS4,sbb,S4,,S-Bahn,106\n",
        stops=stops_txt("Luzern", "Rotkreuz", "Zug", "Zürich HB", "Baar", "Cham", "Wohlen AG", "Zürich Oerlikon",
                        "Emmenbrücke"),
        trips="route_id,service_id,trip_id\n" + "".join(t for t, _ in lines),
        stop_times="trip_id,arrival_time,departure_time,stop_id,stop_sequence\n" + "".join(st for _, st in lines)))
    RUN[:] = ["simulate", *DAY, "--executor", "serial"]
    yield
    DAY.clear()
    RUN.clear()


def js(capsys, *argv: str) -> dict:
    rc = main([*argv, "--json"])
    cap = capsys.readouterr()
    assert rc == 0, cap.err
    return json.loads(cap.out)


def _advised(capsys) -> dict:
    return js(capsys, "advise", *DAY, "--group", "Blau", "--time", "13:05")["rates"]


@pytest.mark.fresh_cache  # no run of this day kept before
def test_a_smaller_run_does_not_replace_the_rates_of_a_larger_one(capsys):
    js(capsys, "group", "position", *DAY, "--group", "Blau", "--at", "Rotkreuz", "--time", "13:05")
    assert _advised(capsys)["source"] == "timetable"
    big = js(capsys, *RUN, "--days", "2", "--groups", "3", "--seed", "1")["advise_rates"]
    assert big["saved"] and big["run"]["group_days"] == 6
    rates = _advised(capsys)
    assert rates | {"summary": ""} == {"source": "lab", "game": "sbb-monopoly", "date": "2021-09-11", "days": 2,
                                       "groups": 3, "group_days": 6, "seed": 1, "strategy": "mix", "summary": ""}
    assert main([*RUN, "--days", "1", "--groups", "1", "--seed", "9"]) == 0
    text = capsys.readouterr().out
    assert "advise keeps the fee rates of a lab run of 2 days x 3 groups" in text and "--replace-rates" in text
    assert _advised(capsys)["group_days"] == 6
    small = js(capsys, *RUN, "--days", "1", "--groups", "1", "--seed", "9", "--replace-rates")["advise_rates"]
    assert small["saved"] and small["kept"] is None
    assert _advised(capsys)["group_days"] == 1
    assert js(capsys, *RUN, "--days", "1", "--groups", "2", "--seed", "9")["advise_rates"]["saved"]  # 2 > 1


def test_simulate_help_says_which_run_advise_keeps(capsys):
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    assert "--replace-rates" in capsys.readouterr().out


def test_a_run_on_real_time_data_keeps_no_rates(capsys, tmp_path):
    from planner.realtime.overlay import service_day_start
    from tests.support import DEMO_DATE
    from tests.support.rt_fixtures import feed_message

    feed = tmp_path / "noon.pb"
    feed.write_bytes(feed_message(service_day_start(DEMO_DATE) + 12 * 3600, []))
    js(capsys, "group", "position", *DAY, "--group", "Blau", "--at", "Rotkreuz", "--time", "13:05")
    before = _advised(capsys)
    out = js(capsys, *RUN, "--days", "1", "--groups", "2", "--seed", "4", "--replace-rates", "--realtime", str(feed))
    assert out["advise_rates"]["realtime"] is True and not out["advise_rates"]["saved"]
    assert _advised(capsys) == before  # one moment's delays are no basis for a game day's advice
