"""§17 jail on real-time data (the real-time demo's Zug day, written in tests/support/inline_day.py): a train 5+ minutes late puts the group in jail at its first late
stop for 30 minutes, the rest is planned from the jail's end, once per train; variant A offers paying 1000
(the ledger records it), variant B does not; the group's day shows the jail (``group status``, ``next``)."""

from __future__ import annotations

import json

import msgspec
import pytest

from planner.cli import main
from planner.game.jail import first_jail
from planner.realtime.feed import decode_feed
from planner.realtime.overlay import apply, service_day_start
from planner.routing import TransitNetwork, best_journey, trip_origin
from planner.util.timefmt import parse_clock
from tests.support import DEMO_DATE
from tests.support.inline_day import day_argv, demo_day
from tests.support.rt_fixtures import demo_legs, feed_message, write_fixtures

DAY: list[str] = []  # the demo day's --feed, --date and --game, filled by the fixture ``day``
SEATED: list[str] = []


@pytest.fixture(autouse=True)
def day(tmp_path):
    d = demo_day(tmp_path / "day")
    DAY[:] = day_argv(d)
    SEATED[:] = ["route", *DAY, "--trip", "S1 13:06", "--from", "Zug", "--to", "Wohlen AG", "--json"]
    yield d
    DAY.clear()
    SEATED.clear()


@pytest.fixture
def fx(tmp_path, day):
    out = tmp_path / "rtj"
    return out, write_fixtures(day, out)


def run(capsys, *argv):
    rc = main(list(argv))
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


def _overlay(day, data):
    ov = apply(day.timetable, decode_feed(data, "x"), DEMO_DATE)
    return ov, TransitNetwork.on_real_times(day.plan_network, ov.timetable)


def test_first_late_stop_is_the_jail_once_per_train(day, fx):
    folder, m = fx
    ov, net = _overlay(day, (folder / "jail.pb").read_bytes())
    tt = day.timetable
    s1 = tt.trip_index[m["legs"][0]["trip_id"]]
    o = trip_origin(net, s1, m["legs"][0]["board_row"], window=29 * 60)
    j = best_journey(net, o, day.station("Rotkreuz"))
    jail = first_jail(j, day.game.jail, net.tt, tt, ov.arr_known, seated_at=o.row)
    assert jail is not None and jail.trip == s1 and jail.delay == 360
    first_stop = next(r for r in j.legs[0] and range(o.row + 1, m["legs"][0]["alight_row"] + 1) if tt.st_dropoff[r])
    assert jail.row == first_stop and jail.until == jail.arrival + 30 * 60
    assert first_jail(j, day.game.jail, net.tt, tt, ov.arr_known, seated_at=o.row, spent=frozenset({s1})) is None
    # 4 minutes late is no jail
    ov4, net4 = _overlay(day, (folder / "late.pb").read_bytes())
    j4 = best_journey(net4, trip_origin(net4, s1, o.row, window=29 * 60), day.station("Rotkreuz"))
    assert first_jail(j4, day.game.jail, net4.tt, tt, ov4.arr_known, seated_at=o.row) is None


def test_route_plans_the_rest_from_the_end_of_the_jail(capsys, fx):
    folder, _ = fx
    rc, out, _ = run(capsys, *SEATED, "--realtime", str(folder / "jail.pb"))
    d = json.loads(out)
    jail = d["jail"]
    assert rc == 0 and jail["route"] == "S1" and jail["delay_min"] == 6
    assert parse_clock(jail["until"]) - parse_clock(jail["from"]) == 30 * 60
    at_jail = [i for i, leg in enumerate(d["legs"]) if leg["to"] == jail["station"] and leg["route"] == "S1"]
    assert at_jail and at_jail[0] < len(d["legs"]) - 1
    rest = d["legs"][at_jail[0] + 1:]
    assert rest[0]["from"] == jail["station"]
    assert parse_clock(rest[0]["departure"]) + 60 * (rest[0]["departure_delay_min"] or 0) >= parse_clock(jail["until"])
    assert d["to"] == "Wohlen AG" and d["legs"][-1]["to"] == "Wohlen AG"
    # variant A: paying 1000 gets out at once, and arrives no later
    assert jail["pay"]["amount"] == 1000 and parse_clock(jail["pay"]["arrival"]) <= parse_clock(d["arrival"])
    assert "--reason jail" in jail["pay"]["ledger"]
    rc, out, _ = run(capsys, *SEATED, "--realtime", str(folder / "late.pb"))
    assert "jail" not in json.loads(out)


def test_variant_b_has_no_payment_out_of_jail(day, fx, nws_game):
    from planner.service.read.jail_plans import jail_json, plan_jails
    from planner.service.setup.playing import GameDay

    folder, m = fx
    assert "jail" not in nws_game.ledger.parking_payments
    no_pay = msgspec.structs.replace(day.game.ledger, parking_payments={})
    from dataclasses import replace

    game = replace(day.game, ledger=no_pay)
    d2 = GameDay(day.feed, game, day.date, realtime=str(folder / "jail.pb"))
    d2.__dict__["timetable"] = day.timetable
    d2.__dict__["plan_network"] = day.plan_network
    s1 = day.timetable.trip_index[m["legs"][0]["trip_id"]]
    o = trip_origin(d2.network, s1, m["legs"][0]["board_row"], window=29 * 60)
    target = day.station("Wohlen AG")
    plan = plan_jails(d2, o, target, best_journey(d2.network, o, target))
    info = jail_json(d2, plan)
    assert info is not None and info["pay"] is None and plan.pay_arrival is None


def test_two_late_trains_two_jails(day, fx, tmp_path):
    from planner.service.read.jail_plans import plan_jails
    from planner.service.setup.playing import GameDay

    folder, m = fx
    tt = day.timetable
    legs = demo_legs(day)
    ymd = DEMO_DATE.strftime("%Y%m%d")
    ts = service_day_start(DEMO_DATE) + 12 * 3600
    # every train 7 minutes late from every stop: each train of the way gives a jail, once
    ups = [{"trip_id": tt.trip_id[t], "start_date": ymd,
            "stops": [{"stop_id": tt.stop_id[tt.st_stop[int(tt.trip_offset[t])]], "departure_delay": 420}]}
           for t in range(tt.n_trips)]
    (tmp_path / "all.pb").write_bytes(feed_message(ts, ups))
    d2 = GameDay(day.feed, day.game, day.date, realtime=str(tmp_path / "all.pb"))
    d2.__dict__["timetable"] = tt
    d2.__dict__["plan_network"] = day.plan_network
    s1 = tt.trip_index[legs[0]["trip_id"]]
    o = trip_origin(d2.network, s1, legs[0]["board_row"], window=29 * 60)
    target = day.station("Wohlen AG")
    plan = plan_jails(d2, o, target, best_journey(d2.network, o, target))
    trips = [j.trip for j in plan.jails]
    assert len(trips) >= 2 and len(set(trips)) == len(trips)
    for a, b in zip(plan.jails, plan.jails[1:], strict=False):
        assert b.arrival >= a.until  # the next jail comes after the last one ended


def test_group_day_shows_the_jail_and_the_ledger_records_the_payment(capsys, fx):
    folder, _ = fx
    src = ["--realtime", str(folder / "jail.pb")]
    _rot_in_the_late_s1(capsys)
    rc, out, _ = run(capsys, "group", "status", "--group", "Rot", "--time", "13:20", *DAY, "--json", *src)
    st = json.loads(out)
    assert st["obligation"]["kind"] == "jail" and st["obligation"]["until"] == "13:43"
    assert st["position"]["station"] == "Zug Schutzengel" and not st["position"]["seated"]
    rc, out, _ = run(capsys, "next", "--group", "Rot", "--time", "13:20", *DAY, "--json", *src)
    nx = json.loads(out)
    assert nx["obligation"]["kind"] == "jail" and "jail" in nx["advice"]
    assert nx["itinerary"]["legs"] and parse_clock(nx["itinerary"]["departure"]) >= parse_clock("13:43")
    # without the real-time data the same group is simply in its train
    rc, out, _ = run(capsys, "group", "status", "--group", "Rot", "--time", "13:20", *DAY, "--json")
    assert json.loads(out)["obligation"]["kind"] != "jail"
    rc, out, _ = run(capsys, "ledger", "parking", "--group", "Rot", "--time", "13:13", "--reason", "jail", *DAY,
                     "--json")
    assert rc == 0 and json.loads(out)["amount"] == 1000


def _rot_in_the_late_s1(capsys) -> None:
    """Group Rot rolls at Zug at 13:00 and reports itself in the S1 13:06 (late in jail.pb: jail 13:13-13:43)."""
    assert run(capsys, "roll", "--group", "Rot", "--dice", "2", "--at", "Zug", "--time", "13:00", *DAY, "--json")[0] == 0
    rc, _, err = run(capsys, "group", "position", "--group", "Rot", "--trip", "S1 13:06", "--at", "Zug", "--time",
                     "13:05", *DAY)
    assert rc == 0, err


@pytest.mark.parametrize("first, again", [("13:13", "13:15"), ("13:08", "13:09")])
def test_a_jail_is_paid_out_of_once(capsys, fx, first, again):
    # two phones of a group tapping "pay" at once, or a payment made anew: by the real-time data the payment is for
    # the jail of the group's train (from shortly before it begins, as predictions move: 13:08 for 13:13), it was
    # paid already, so the second is refused in one line (exit 2)
    folder, _ = fx
    _rot_in_the_late_s1(capsys)
    pay = ["ledger", "parking", "--group", "Rot", "--reason", "jail", *DAY, "--json", "--realtime",
           str(folder / "jail.pb")]
    rc, out, err = run(capsys, *pay, "--time", first)
    assert rc == 0 and json.loads(out)["amount"] == 1000, err
    rc, out, _ = run(capsys, *pay, "--time", again)
    msg = json.loads(out)["error"]
    assert rc == 2 and "\n" not in msg and "paid its way out of the jail at Zug Schutzengel" in msg
    assert f"at {first} already" in msg
    rc, out, _ = run(capsys, "ledger", "status", *DAY, "--json")
    assert json.loads(out)["parking"] == 1000  # paid once
