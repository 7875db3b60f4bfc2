"""``--realtime`` on the command line: answers on real times with delays and a ``realtime`` block, a bad feed
is one line and exit 2, an unreachable URL falls back with a warning; a URL is read from a real HTTP server
on loopback with conditional requests (ETag, If-Modified-Since). The day is the real-time demo's, written in
tests/support/inline_day.py (``demo_day``): S1 Zug 13:06 - Rotkreuz 13:19, S26 13:23 - Wohlen AG."""

from __future__ import annotations

import json

import pytest

from planner.cli import main
from planner.realtime.feed import RealtimeUnavailable, fetch_url
from tests.support import assert_one_line_error
from tests.support.inline_day import day_argv, demo_day
from tests.support.realtime_server import FeedHandler, feed_server

DAY: list[str] = []  # the demo day's --feed, --date and --game, filled by the autouse fixture below
ROUTE: list[str] = []


@pytest.fixture(autouse=True)
def _demo_day(tmp_path):
    DAY[:] = day_argv(demo_day(tmp_path / "day"))
    ROUTE[:] = ["route", *DAY, "--from", "Zug", "--to", "Wohlen AG", "--time", "12:40"]
    yield
    DAY.clear()
    ROUTE.clear()


@pytest.fixture
def fx(tmp_path, _demo_day):
    from tests.support.rt_fixtures import write_fixtures

    out = tmp_path / "rt"
    return out, write_fixtures(demo_day(tmp_path / "day"), out)


def run(capsys, *argv):
    rc = main(list(argv))
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


@pytest.mark.parametrize("name, needle", [("garbage", "not protobuf"), ("truncated", "truncated"),
                                          ("wrong_date", "not on the game day")])
def test_a_bad_feed_is_one_line_exit_2(capsys, fx, name, needle):
    folder, _ = fx
    rc, out, err = run(capsys, *ROUTE, "--realtime", str(folder / f"{name}.pb"))
    assert_one_line_error(rc, err, f"{name}.pb", needle)
    assert out == ""


def test_missing_feed_and_a_folder_are_one_line(capsys, fx):
    folder, _ = fx
    for src, needle in ((folder / "nope.pb", "not found"), (folder, "not a regular file")):
        rc, _, err = run(capsys, *ROUTE, "--realtime", str(src))
        assert_one_line_error(rc, err, needle)


def test_late_train_json_shows_delays_and_the_realtime_block(capsys, fx):
    folder, m = fx
    rc, out, _ = run(capsys, *ROUTE, "--json", "--realtime", str(folder / "late.pb"))
    d = json.loads(out)
    assert rc == 0 and d["realtime"]["trips_matched"] == 1 and d["realtime"]["age_s"] == 120
    assert d["realtime"]["source"].endswith("late.pb") and d["realtime"]["trips_unknown"] == 0
    s1 = m["legs"][0]["trip_id"]
    assert all(leg["trip_id"] != s1 for leg in d["legs"])  # the late S1 misses the change: not proposed
    assert all("departure_delay_min" in leg and "arrival_delay_min" in leg for leg in d["legs"])
    # seated in the late S1: its times carry the delay, the text shows it as +4'
    rc, out, _ = run(capsys, "route", *DAY, "--trip", "S1 13:06", "--from", "Zug", "--to", "Rotkreuz",
                     "--realtime", str(folder / "late.pb"), "--json")
    d = json.loads(out)
    assert d["legs"][-1]["arrival_delay_min"] == 4 and d["arrival_delay_min"] == 4
    rc, out, _ = run(capsys, "route", *DAY, "--trip", "S1 13:06", "--from", "Zug", "--to", "Rotkreuz",
                     "--realtime", str(folder / "late.pb"))
    assert "13:19 +4'" in out and "real time:" in out


def test_stale_and_unknown_are_reported(capsys, fx):
    folder, _ = fx
    rc, out, _ = run(capsys, *ROUTE, "--json", "--realtime", str(folder / "stale.pb"))
    d = json.loads(out)
    assert d["realtime"]["stale"] and any("min old" in w for w in d["warnings"])
    rc, out, _ = run(capsys, *ROUTE, "--json", "--realtime", str(folder / "unknown.pb"))
    d = json.loads(out)
    assert rc == 0 and d["realtime"]["trips_unknown"] == 1 and d["realtime"]["trips_matched"] == 1


def test_zugzwang_target_and_bonus_take_realtime(capsys, fx):
    folder, _ = fx
    src = str(folder / "late.pb")
    rc, out, _ = run(capsys, "zugzwang", *DAY, "--at", "Zug", "--time", "13:00", "--realtime", src, "--json")
    d = json.loads(out)
    s1 = [x for x in d["departures"] if x["route"] == "S1" and x["departure"] == "13:06"]
    assert rc == 0 and s1 and s1[0]["departure_delay_min"] == 4 and d["realtime"]["trips_matched"] == 1
    rc, out, _ = run(capsys, "target", *DAY, "--at", "Zug", "--time", "12:40", "--roll", "2", "--realtime", src,
                     "--json")
    d = json.loads(out)
    assert rc == 0 and d["target"] and "realtime" in d
    rc, out, _ = run(capsys, "bonus", *DAY, "--at", "Zug", "--time", "12:40", "--realtime", src, "--json")
    assert rc == 0 and "realtime" in json.loads(out)


def test_url_source_with_key_and_conditional_requests(capsys, fx, monkeypatch):
    folder, _ = fx
    body = (folder / "late.pb").read_bytes()
    with feed_server(body) as base:
        first = fetch_url(base + "/feed", key="k123")
        assert first.status == 200 and first.body == body and first.etag == '"v1"'
        again = fetch_url(base + "/feed", key="k123", etag=first.etag)
        assert again.status == 304 and again.body is None
        assert FeedHandler.seen[0]["auth"] == "Bearer k123" and FeedHandler.seen[1]["inm"] == '"v1"'
        with pytest.raises(RealtimeUnavailable, match="HTTP 404"):
            fetch_url(base + "/other")
        monkeypatch.setenv("RT_KEY", "secret-key")
        rc, out, _ = run(capsys, *ROUTE, "--json", "--realtime", base + "/feed", "--realtime-key-env", "RT_KEY")
        assert rc == 0 and json.loads(out)["realtime"]["trips_matched"] == 1
        assert FeedHandler.seen[-1]["auth"] == "Bearer secret-key"


def test_unreachable_url_falls_back_to_the_timetable_with_a_warning(capsys):
    from tests.support.webserver import free_port

    url = f"http://127.0.0.1:{free_port()}/feed"
    rc, out, _ = run(capsys, *ROUTE, "--json", "--realtime", url)
    d = json.loads(out)
    rc0, out0, _ = run(capsys, *ROUTE, "--json")
    assert rc == rc0 == 0 and d["realtime"]["available"] is False
    assert any("unreachable" in w and "timetable" in w for w in d["warnings"])
    assert [leg["trip_id"] for leg in d["legs"]] == [leg["trip_id"] for leg in json.loads(out0)["legs"]]


def test_key_env_unset_is_one_line(capsys, monkeypatch):
    monkeypatch.delenv("NO_SUCH_KEY_VAR", raising=False)
    rc, _, err = run(capsys, *ROUTE, "--realtime", "http://127.0.0.1:9/feed", "--realtime-key-env", "NO_SUCH_KEY_VAR")
    assert_one_line_error(rc, err, "NO_SUCH_KEY_VAR", "not set")
