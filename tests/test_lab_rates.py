"""The fee rates ``advise`` expects of the Zug game day: a ``planner simulate`` run keeps its rates unless a run of
more group-days is kept already (``--replace-rates`` overrides), and advise says which run they come from."""

from __future__ import annotations

import json

import pytest

from planner.cli import main
from tests.support import ZUG

DAY = ["--feed", str(ZUG), "--date", "2021-09-11"]
RUN = ["simulate", *DAY, "--executor", "serial"]


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
