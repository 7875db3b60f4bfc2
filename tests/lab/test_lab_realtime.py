"""The game lab on real-time data and on plain routing, on the real-time demo's day written inline
(tests/support/inline_day.py): a ``--realtime`` feed reaches every worker (in this process, forked, spawned and
loading the day itself, a Dask worker), a URL is fetched once for all of them (and one that does not answer is a
one-line error, not a report on the timetable), and the report's meta and page say how the days were played."""

from __future__ import annotations

import json
import multiprocessing as mp
import re
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

from planner.cli import main
from planner.lab.day import DayConfig
from planner.lab.run import RunSpec, play_day, run_days
from planner.realtime.overlay import service_day_start
from tests.support import DEMO_DATE, assert_one_line_error
from tests.support.inline_day import day_argv, demo_day
from tests.support.realtime_server import FeedHandler, feed_server
from tests.support.rt_fixtures import feed_message
from tests.support.webserver import free_port

DAY: list[str] = []  # the demo day's --feed, --date and --game (tests/support/inline_day.py), filled by ``day``


@pytest.fixture(scope="module")
def lab_day(tmp_path_factory, session_cache):
    """The real-time demo's day, written once for the module (its lines through Zug: S1, IR70, S9)."""
    with pytest.MonkeyPatch.context() as mp:  # the tests' cache (module fixtures come before the autouse one)
        mp.setenv("PLANNER_CACHE", str(session_cache))
        day = demo_day(tmp_path_factory.mktemp("lab-rt-day"))
        DAY[:] = day_argv(day)
        day.timetable  # noqa: B018 - built into the session's cache now
    yield day
    DAY.clear()


@pytest.fixture(autouse=True)
def _day(lab_day):
    """Every test plays on the demo day (DAY filled)."""


@pytest.fixture(scope="module")
def rt_feed(tmp_path_factory, lab_day):
    """Every other train through Zug cancelled (a feed made at noon of the game day): days differ from the
    timetable's."""
    tt = lab_day.timetable
    rows = np.nonzero(tt.stop_station[tt.st_stop] == lab_day.station("Zug"))[0]
    trips = sorted({int(tt.st_trip[r]) for r in rows})[::2]
    ymd = DEMO_DATE.strftime("%Y%m%d")
    path = tmp_path_factory.mktemp("lab-rt") / "cancelled.pb"
    path.write_bytes(feed_message(service_day_start(DEMO_DATE) + 12 * 3600,
                                  [{"trip_id": str(tt.trip_id[t]), "start_date": ymd, "canceled": True} for t in trips]))
    return path


def _spec(realtime: str | None) -> RunSpec:
    return RunSpec(DAY[1], "sbb-monopoly", DEMO_DATE.isoformat(), None, DayConfig(4, "mix", 5), realtime=realtime)


def _cli(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def test_every_executor_plays_on_the_real_time_feed(rt_feed):
    spec = _spec(str(rt_feed))
    want = [r.rolls for r in run_days(spec, 2, executor="serial")]
    assert want != [r.rolls for r in run_days(_spec(None), 2, executor="serial")]  # the feed changes the days
    with ProcessPoolExecutor(1, mp_context=mp.get_context("spawn")) as pool:  # a worker that loads the day itself
        spawned = [r.rolls for r in pool.map(play_day, [spec] * 2, range(2))]
    forked = [r.rolls for r in run_days(spec, 2, executor="process", workers=2)]
    dask = [r.rolls for r in run_days(spec, 2, executor="dask", workers=1)]
    assert spawned == want and forked == want and dask == want


def test_a_url_is_fetched_once_for_every_worker(rt_feed, capsys):
    run = ["simulate", *DAY, "--days", "2", "--groups", "4", "--seed", "5", "--json"]
    with feed_server(rt_feed.read_bytes()) as base:
        rc, out, err = _cli(capsys, *run, "--executor", "dask", "--workers", "1", "--realtime", base + "/feed")
        fetched = len(FeedHandler.seen)
    assert rc == 0, err
    _, from_file, _ = _cli(capsys, *run, "--executor", "serial", "--realtime", str(rt_feed))
    by_url, by_file = json.loads(out), json.loads(from_file)
    assert fetched == 1 and by_url["meta"]["realtime"] == base + "/feed"  # where it came from, not the cache file
    assert [by_url[k] for k in ("stations", "dice", "capital")] == [by_file[k] for k in ("stations", "dice", "capital")]


def test_an_unreachable_url_is_one_line_and_nothing_is_simulated(capsys):
    url = f"http://127.0.0.1:{free_port()}/feed"
    rc, _, err = _cli(capsys, "simulate", *DAY, "--days", "1", "--groups", "2", "--executor", "serial",
                      "--realtime", url)
    assert_one_line_error(rc, err, url, "unreachable", "nothing simulated")


def test_meta_and_page_say_plain_routing_and_real_time_data(rt_feed, tmp_path, capsys):
    html = tmp_path / "plain.html"
    rc, out, err = _cli(capsys, "simulate", *DAY, "--days", "1", "--groups", "2", "--executor", "serial",
                        "--no-zugzwang", "--realtime", str(rt_feed), "--out", str(html), "--json")
    assert rc == 0, err
    meta = json.loads(out)["meta"]
    assert meta["plain_routing"] is True and meta["realtime"] == str(rt_feed.resolve())
    mode = re.search(r'<p id="lab-mode" class="mode warn">(.*?)</p>', html.read_text("utf-8"))
    assert mode and "--no-zugzwang" in mode[1] and "NOT applied" in mode[1] and rt_feed.name in mode[1]
    _, text, _ = _cli(capsys, "simulate", *DAY, "--days", "1", "--groups", "2", "--executor", "serial",
                      "--no-zugzwang")
    assert "plain timetable routing (--no-zugzwang)" in text and "on the timetable" in text


@pytest.fixture(scope="module")
def late_feed(tmp_path_factory, lab_day):
    """Every train through Zug 4 minutes late all along (a feed made at noon of the game day)."""
    tt = lab_day.timetable
    rows = np.nonzero(tt.stop_station[tt.st_stop] == lab_day.station("Zug"))[0]
    ymd = DEMO_DATE.strftime("%Y%m%d")
    path = tmp_path_factory.mktemp("lab-late") / "late.pb"
    path.write_bytes(feed_message(service_day_start(DEMO_DATE) + 12 * 3600,
                                  [{"trip_id": str(tt.trip_id[t]), "start_date": ymd, "delay": 240}
                                   for t in sorted({int(tt.st_trip[r]) for r in rows})]))
    return path


def test_on_late_trains_a_simulated_group_rides_on_the_predicted_times(late_feed, sbb_game):
    """Its rides leave and arrive on the predicted times, never arriving before they leave, and its fees are paid
    when its train is there, so the ledger's position check (which routes on the same times) refuses none of them
    for a purchase or fee seen before. Left over (docs/limits.md): the group's day model places a seated
    group by timetable times, so a fee just after a roll in a late train can contradict the roll's place."""
    from planner.lab.moves import rides_from
    from planner.service import GameDay

    day = GameDay(DAY[1], sbb_game, DEMO_DATE, realtime=str(late_feed)).warm()
    zug, real = day.station("Zug"), day.network.tt
    rides = [r for t in range(12 * 3600, 14 * 3600, 600) for r in rides_from(day, zug, t)]
    assert rides and all(r.departure <= r.arrival for r in rides)
    assert any(r.departure != int(day.timetable.st_dep[r.board]) for r in rides)  # the feed's times, not the plan's
    assert all(r.arrival == int(real.st_arr[r.alight]) for r in rides)
    results = run_days(_spec(str(late_feed)), 6, executor="serial")
    assert all(r.conserved for r in results)
    errors = [e for r in results for e in r.errors]  # were 442, most against the group's own earlier fee
    assert all("(roll #" in e for e in errors), errors
    assert len(errors) <= 10 and sum(r.events for r in results) > 500
    assert [r.rolls for r in results] != [r.rolls for r in run_days(_spec(None), 6, executor="serial")]
