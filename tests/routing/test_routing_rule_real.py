"""The change-window rule on the real Zug day (sbb-monopoly, 2021-09-11): engine == networkx reference on
thousands of random queries, every proposal legal, and the command line says what it applied."""

from __future__ import annotations

import csv
import json
import random

import pytest

from planner.cli import main
from planner.game.dice import decide
from planner.game.zugzwang import check_legs, journey_log
from planner.gamefile.rules import ChangeWindow
from planner.routing import TransitNetwork, best_journey, journeys_within, station_origin, trip_origin
from planner.routing.query import (
    DEFAULT_MAX_LEGS,
    Query,
    equally_fast,
    obeys_window,
    plain_best_journey,
    reach,
)
from planner.routing.te_rule import RuleGraph
from tests.support import ZUG

pytestmark = [pytest.mark.long, pytest.mark.needs_shared]  # one worker runs a module (--dist loadfile); this one early

RULE = ChangeWindow(29)

W = 29 * 60
DAY = ["--feed", str(ZUG), "--date", "2021-09-11"]


@pytest.fixture(scope="module")
def net(zug_tt) -> TransitNetwork:
    return TransitNetwork(zug_tt)


@pytest.fixture(scope="module")
def ref(net) -> RuleGraph:
    return RuleGraph(net, W)


def _random_origins(net: TransitNetwork, n: int, seed: int, lo: int = 6 * 3600, hi: int = 22 * 3600):
    """Standing groups (some there for a while already) and seated ones, at random times."""
    rnd = random.Random(seed)
    tt = net.tt
    for _ in range(n):
        if rnd.random() < 0.3:
            trip = rnd.randrange(tt.n_trips)
            yield trip_origin(net, trip, rnd.choice(list(tt.trip_stop_times(trip))), window=W)
        else:
            t = rnd.randrange(lo, hi)
            yield station_origin(rnd.randrange(tt.n_stations), t, since=t - rnd.choice([0, 0, 300, 1500, 2400]),
                                 window=W)


def _rides(j) -> int:
    return sum(1 for leg in j.legs if not leg.is_walk)


def _assert_legal(net, origin, j) -> None:
    start = None if origin.in_trip else (origin.got_off, origin.time)
    assert not check_legs(net, journey_log(net, j), RULE, start=start), (origin, j)


def test_engine_equals_reference_on_random_zug_queries(net, ref):
    rnd = random.Random(7)
    n = 0
    for o in _random_origins(net, 3000, seed=11):
        target = rnd.randrange(net.tt.n_stations)
        want = ref.best(o, target)
        j = best_journey(net, o, target)
        got = None if j is None else (j.arrival(net.tt), _rides(j))
        if o.in_trip and j is not None and not j.legs:
            got = None
        assert got == want, (o, target)
        if j is not None and j.legs:
            _assert_legal(net, o, j)
            n += 1
    assert n > 2000  # most random queries have an answer


def test_rule_scan_alone_equals_reference_and_the_plain_shortcut_holds(net, ref):
    # best_journey takes the plain answer when it obeys the window; here the rule-aware scan itself is checked
    # against the reference, and every plain answer the shortcut accepts is legal with the rule's optimum
    rnd = random.Random(17)
    accepted = rejected = 0
    for o in _random_origins(net, 600, seed=19):
        target = rnd.randrange(net.tt.n_stations)
        want = ref.best(o, target)
        j = reach(net, Query(o, target=target)).journey_to(target)
        got = None if j is None or (o.in_trip and not j.legs) else (j.arrival(net.tt), _rides(j))
        assert got == want, (o, target)
        plain = plain_best_journey(net, o, target)
        if plain is None or not plain.legs:
            continue
        if obeys_window(net, o, plain):
            accepted += 1
            _assert_legal(net, o, plain)
            assert (plain.arrival(net.tt), _rides(plain)) == want, (o, target)
        else:
            rejected += 1
    assert accepted > 2 * rejected > 0  # most plain answers obey the rule, some do not (here: long-standing groups)


def test_engine_equals_reference_on_the_whole_extract(zug_all_tt):
    # all modes, 573 stations, feed transfers with platform-specific change times
    net = TransitNetwork(zug_all_tt)
    ref = RuleGraph(net, W)
    rnd = random.Random(3)
    for o in _random_origins(net, 200, seed=5):
        target = rnd.randrange(net.tt.n_stations)
        want = ref.best(o, target)
        j = best_journey(net, o, target)
        if j is None and want is not None:
            assert want[1] > DEFAULT_MAX_LEGS  # only beyond the engine's cap on trips
            continue
        got = None if j is None or (o.in_trip and not j.legs) else (j.arrival(net.tt), _rides(j))
        assert got == want, (o, target)


def test_alternatives_and_equally_fast_are_legal(net):
    rnd = random.Random(2)
    for o in _random_origins(net, 150, seed=9):
        target = rnd.randrange(net.tt.n_stations)
        alts = journeys_within(net, o, target, 20)
        for j in alts:
            if j.legs:
                _assert_legal(net, o, j)
        if alts and alts[0].legs:
            for j in equally_fast(net, o, target, alts[0].arrival(net.tt)):
                _assert_legal(net, o, j)


def test_dice_answers_are_legal(net, sbb_game):
    for o in _random_origins(net, 150, seed=4, lo=12 * 3600 + 1800, hi=17 * 3600):
        for roll in (1, 2, 3, 4, 5):
            ans = decide(net, sbb_game, o, roll, [])
            if ans.journey is not None and ans.journey.legs:
                _assert_legal(net, o, ans.journey)


def run_json(capsys, *argv: str) -> dict:
    rc = main([*argv, "--json"])
    out = capsys.readouterr().out
    assert rc == 0, out
    return json.loads(out)


def _legs_csv(path, answers: list[dict]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["from", "to", "departure", "arrival", "from_platform", "to_platform"])
        for leg in answers:
            w.writerow([leg["from"], leg["to"], leg["departure"], leg["arrival"], leg["from_platform"],
                        leg["to_platform"]])


def test_zurich_enge_to_affoltern_is_legal(capsys, tmp_path):
    out = run_json(capsys, "route", *DAY, "--from", "zurich enge", "--to", "affoltern", "--time", "12:30")
    assert out["arrival"] == "13:52"
    assert out["zugzwang"] == {"applies": True, "minutes": 29, "since": "12:30"}
    f = tmp_path / "legs.csv"
    _legs_csv(f, out["legs"])
    assert main(["zugzwang", *DAY, "--check", str(f)]) == 0
    capsys.readouterr()
    plain = run_json(capsys, "route", *DAY, "--from", "zurich enge", "--to", "affoltern", "--time", "12:30",
                     "--no-zugzwang")
    assert plain["arrival"] == "13:37" and plain["zugzwang"]["applies"] is False
    _legs_csv(f, plain["legs"])
    assert main(["zugzwang", *DAY, "--check", str(f), "--json"]) == 1
    assert [v["rule"] for v in json.loads(capsys.readouterr().out)["violations"]] == ["4.2"]


def test_since_narrows_the_start(capsys):
    out = run_json(capsys, "route", *DAY, "--from", "zurich enge", "--to", "affoltern", "--time", "12:30",
                   "--since", "12:20")
    assert out["zugzwang"]["since"] == "12:20"
    assert out["departure"] <= "12:49" and out["arrival"] == "13:52"


def test_zug_chollermuli_leaves_within_29_minutes(capsys):
    for to in ("Emmenbrücke", "Sursee", "Ebikon"):
        out = run_json(capsys, "route", *DAY, "--from", "Zug Chollermüli", "--to", to, "--time", "12:02")
        assert "12:02" <= out["departure"] <= "12:31", (to, out["departure"])


def test_random_cli_answers_pass_the_check(capsys, tmp_path, net):
    rnd = random.Random(1)
    names = [net.tt.station_name[s] for s in range(net.tt.n_stations)]
    f = tmp_path / "legs.csv"
    checked = 0
    for _ in range(40):
        a, b = rnd.sample(names, 2)
        t = f"{rnd.randrange(9, 17):02d}:{rnd.randrange(60):02d}"
        out = run_json(capsys, "route", *DAY, "--from", a, "--to", b, "--time", t, "--within", "15")
        for itin in [out, *out["alternatives"]]:
            if not itin["legs"]:
                continue
            _legs_csv(f, itin["legs"])
            assert main(["zugzwang", *DAY, "--check", str(f)]) == 0, (a, b, t, capsys.readouterr().out)
            capsys.readouterr()
            checked += 1
    assert checked >= 30


def test_target_and_roll_say_what_they_applied(capsys):
    out = run_json(capsys, "target", *DAY, "--at", "Zug", "--time", "12:40", "--roll", "2", "--since", "12:35")
    assert out["zugzwang"] == {"applies": True, "minutes": 29, "since": "12:35"}
    assert "12:40" <= out["departure"] <= "13:04"


def test_variant_b_has_no_rule(capsys, zug_tt):
    args = [*DAY, "--game", "nordwestschweiz"]
    z = run_json(capsys, "zugzwang", *args, "--at", "Olten", "--time", "12:00")
    assert z["applies"] is False and z["deadline"] is None
    out = run_json(capsys, "route", *args, "--from", "Olten", "--to", "Aarau", "--time", "12:00")
    assert out["zugzwang"] == {"applies": False, "minutes": None, "since": None}
    same = run_json(capsys, "route", *args, "--from", "Olten", "--to", "Aarau", "--time", "12:00", "--no-zugzwang")
    assert same == out


@pytest.mark.parametrize("extra, needle", [
    (["--time", "12:30", "--since", "12:40"], "after --time"),
    (["--time", "12:30", "--since", "12h7x"], "is not HH:MM"),  # 1240 is a time now (Swiss spellings)
    (["--trip", "IR75 10:03", "--since", "10:00"], "--trip"),
])
def test_bad_since(capsys, extra, needle):
    rc = main(["route", *DAY, "--from", "Zug", "--to", "Luzern", *extra])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and err.startswith("planner: error:") and needle in err


def test_bonus_and_map_route_say_what_they_applied(capsys, tmp_path, monkeypatch):
    out = run_json(capsys, "bonus", *DAY, "--at", "Zug", "--time", "12:40", "--since", "12:30")
    assert out["zugzwang"] == {"applies": True, "minutes": 29, "since": "12:30"}
    monkeypatch.chdir(tmp_path)
    info = run_json(capsys, "map", "route", *DAY, "--from", "zurich enge", "--to", "affoltern", "--time", "12:30")
    assert info["answer"]["arrival"] == "13:52" and info["answer"]["zugzwang"]["applies"] is True
