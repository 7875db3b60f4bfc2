"""The game lab on the day written in tests/support/play_day.py: simulated days play by the rules of the service
layer (on the real Zug day, many more of them: tests/lab/test_lab_days_legal.py).

* every traced roll of a sample is what ``planner roll`` answers in the same situation, replayed in a fresh state;
* every group's traced day (its rides) passes ``planner zugzwang --check``;
* the same seed gives byte-identical JSON, trace and page, whatever the executor;
* money is conserved in every simulated day, and no use case refused what a simulated group did;
* the report page opens offline in Debian's chromium with its map and charts.
"""

from __future__ import annotations

import copy
import csv
import http.server
import json
import os
import re
import threading

import pytest

from planner.cli import main
from planner.errors import InputError
from planner.lab.day import DayConfig
from planner.lab.findings import region_name
from planner.lab.report import build
from planner.lab.run import RunSpec, keep, run_days
from planner.service import GameDay
from planner.util.i18n import format_amount
from planner.util.timefmt import fmt_clock
from tests.support import DEMO_DATE

pytestmark = pytest.mark.long  # one worker runs a module (--dist loadfile); this one early

DAY: list[str] = []  # --feed and --date of the day written in tests/support/play_day.py (filled by ``_day``)
DAYS, GROUPS, SEED = 3, 6, 7


@pytest.fixture(scope="module", autouse=True)
def _day(play_argv):
    DAY[:] = play_argv[:4]


@pytest.fixture(scope="module")
def lab(sbb_game, _day):
    feed = DAY[1]
    spec = RunSpec(feed, "sbb-monopoly", DEMO_DATE.isoformat(), None, DayConfig(GROUPS, "mix", SEED, trace=True))
    board = keep(spec, GameDay(feed, sbb_game, DEMO_DATE).warm())
    results = run_days(spec, DAYS, executor="serial")
    return {"spec": spec, "board": board, "results": results, "report": build(results, board, spec.config)}


def _cli(capsys, *argv: str) -> tuple[int, str]:
    rc = main(list(argv))
    cap = capsys.readouterr()
    assert rc in (0, 1), cap.err
    return rc, cap.out


def test_days_are_real_games_and_money_is_conserved(lab):
    for r in lab["results"]:
        assert r.errors == [], r.errors  # no use case refused what a simulated group did
        assert r.conserved
        kinds = {line.get("kind") for line in r.trace if line["type"] == "ledger"}
        assert {"buy", "fee", "income"} <= kinds, kinds
        assert len(r.rolls) >= GROUPS and len(r.groups) == GROUPS
        assert {r["kind"] for r in r.rolls} == {"target", "free"}
    meta = lab["report"]["meta"]
    assert meta["money_conserved"] and meta["errors"] == 0 and meta["days"] == DAYS
    assert meta["plain_routing"] is False and meta["realtime"] is None  # the game's rules, on the timetable


def test_a_traced_fee_names_who_was_paid_the_owner_of_what_was_paid_for(lab):
    fees = 0
    for r in lab["results"]:
        owner: dict[str, str] = {}
        for line in (x for x in r.trace if x["type"] == "ledger"):
            if line["kind"] == "buy":
                owner[line["name"]] = line["group"]
                assert line["to"] == ["bank"]
            elif line["kind"] == "fee":
                assert line["to"] == [owner[line["name"]]] and line["to"] != [line["group"]], line
                fees += 1
    assert fees > 0


def test_every_traced_roll_is_what_planner_roll_answers(lab, capsys):
    """The rolls of two groups of each day, replayed in order in a fresh state through the CLI."""
    checked = 0
    for r in lab["results"]:
        for group in ("Rot", "Gelb"):
            capsys.readouterr()
            game_id = f"replay-{r.index}-{group}"
            for line in [x for x in r.trace if x["type"] == "roll" and x["group"] == group]:
                where = (["--trip", line["trip"], "--at", line["at"]] if line["seated"]
                         else ["--at", line["at"], "--since", line["since"]])
                _, out = _cli(capsys, "roll", *DAY, "--group", game_id, "--dice", str(line["roll"]), "--time",
                              line["time"], *where, "--json")
                ans = json.loads(out)
                got = {"kind": ans["kind"], "target": ans.get("target"), "arrival": ans.get("arrival"),
                       "free": ans.get("free_until")}
                want = {k: line[k] for k in ("kind", "target", "arrival", "free")}
                assert got == want, (r.index, group, line)
                before = ans["targeted"][:-1] if ans["kind"] == "target" and ans["target"] not in line["targeted"] \
                    else ans["targeted"]
                assert before == line["targeted"], (line, ans["targeted"])
                checked += 1
    assert checked >= 6


def test_trace_since_is_what_simulate_help_says(lab, capsys):
    """A seated group's ``since`` is its train's timetable time at ``at`` (the stop it is at or approaching: it may
    lie after the roll), a standing group's lies before the roll; ``simulate --help`` says so."""
    tt = lab["board"].day.timetable
    seated = standing = 0
    for line in (x for r in lab["results"] for x in r.trace if x["type"] == "roll"):
        if not line["seated"]:
            assert line["since"] <= line["time"], line
            standing += 1
            continue
        rows = tt.trip_stop_times(tt.trip_index[line["trip"]])
        at = {fmt_clock(int(tt.st_arr[r])) for r in rows if tt.station_name[tt.stop_station[tt.st_stop[r]]] == line["at"]}
        assert line["since"] in at, line
        seated += 1
    assert seated and standing
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "for a seated one ('seated': true) the timetable time of its train 'trip' at 'at'" in text


def test_every_traced_day_passes_zugzwang_check(lab, tmp_path, capsys):
    checked = 0
    for r in lab["results"]:
        for line in (x for x in r.trace if x["type"] == "legs"):
            if not line["legs"]:
                continue
            path = tmp_path / f"{r.index}-{line['group']}.csv"
            with path.open("w", newline="", encoding="utf-8") as f:
                w = csv.DictWriter(f, ["from", "to", "departure", "arrival", "from_platform", "to_platform"])
                w.writeheader()
                w.writerows(line["legs"])
            rc, out = _cli(capsys, "zugzwang", *DAY, "--check", str(path), "--json")
            res = json.loads(out)
            assert rc == 0 and res["ok"] and res["violations"] == [], (line["group"], res["violations"])
            checked += 1
    assert checked == DAYS * GROUPS


def test_report_numbers_follow_from_the_days(lab):
    rep = lab["report"]
    st = {s["name"]: s for s in rep["stations"]}
    stops = sum(lab["results"][0].stops.get("Zug", [0]))
    assert stops > 0 and st["Zug"]["stops_per_day"] == pytest.approx(
        sum(sum(r.stops.get("Zug", [0])) for r in lab["results"]) / DAYS, abs=0.005)
    zug = st["Zug"]
    assert zug["fee_income_per_day"] == pytest.approx(zug["stops_per_day"] * zug["fee"] * (GROUPS - 1) / GROUPS,
                                                      rel=1e-3)
    ranks = [s["fee_income_per_day"] / s["price"] for s in rep["stations"]]
    assert ranks == sorted(ranks, reverse=True)
    rolls = sum(len(r.rolls) for r in lab["results"])
    free = set(rep["dice"]["free_numbers"])
    assert sum(d["rolls"] for d in rep["dice"]["numbers"].values()) == rolls - sum(
        1 for r in lab["results"] for x in r.rolls if x["roll"] in free)
    d = rep["dice"]
    assert "Sissach" in d["never_available"] and "Sissach" not in d["never_fastest"]  # not in the Zug extract
    chosen = {t for x in d["numbers"].values() for t in x["targets"]}
    assert not set(d["never_fastest"]) & (set(d["never_available"]) | chosen)
    assert d["never_fastest"] != d["never_available"]
    cap = rep["capital"]
    money = [s["fee_income_per_day"] for s in rep["stations"]] + [
        x[k] for part in ("by_region", "by_strategy") for x in cap[part].values() for k in ("mean", "median", "sd")]
    money += [v for row in cap["by_region_strategy"].values() for v in row.values()]
    assert money and all(type(v) is int for v in money)  # whole francs
    assert not rep["verdict"]["fair"] and rep["verdict"]["reasons"]
    assert set(rep["capital"]["by_strategy"]) == {"random", "ic", "greedy", "fast"}


def test_same_seed_same_bytes_whatever_the_executor(tmp_path, capsys):
    outs = []
    for i, executor in enumerate(("serial", "process")):
        trace, html = tmp_path / f"t{i}.jsonl", tmp_path / f"r{i}.html"
        _, out = _cli(capsys, "simulate", *DAY, "--days", "3", "--groups", "3", "--seed", "11", "--executor",
                      executor, "--workers", "2", "--trace", str(trace), "--out", str(html), "--json")
        outs.append((out, trace.read_bytes(), html.read_bytes()))
    assert outs[0] == outs[1]
    _, other = _cli(capsys, "simulate", *DAY, "--days", "3", "--groups", "3", "--seed", "12", "--executor",
                    "serial", "--json")
    assert other != outs[0][0]  # the seed matters


def test_dask_local_cluster_gives_the_same_days(lab):
    spec = lab["spec"]
    got = run_days(spec, 2, executor="dask", workers=1)
    assert [r.rolls for r in got] == [r.rolls for r in lab["results"][:2]]
    assert [r.groups for r in got] == [r.groups for r in lab["results"][:2]]


PAGE_FACTS = """() => {
  const box = t => { const b = t.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
  const cells = (sel, i) => [...document.querySelectorAll(sel + ' tbody tr')].map(r => r.cells[i].textContent);
  return {
    charts: [...document.querySelectorAll('svg.chart')].map(s => ({id: s.id, width: s.viewBox.baseVal.width,
      texts: [...s.querySelectorAll('text')].map(t => [t.textContent, ...box(t)])})),
    labels: [...document.querySelectorAll('#lab-map text.label')].map(t => [t.textContent, ...box(t)]),
    dice: [...document.querySelectorAll('#chart-dice text')].map(t => t.textContent),
    fees: cells('table.stations', 8),
    crossRows: cells('table.region-strategy', 0),
    never: document.querySelector('#never').textContent,
    mode: document.querySelector('#lab-mode').textContent,
  };
}"""


def _page(browser, path, errors: list, requests: list):
    page = browser.new_page()  # the session's chromium (conftest ``browser``), a context of this page's own
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(path.as_uri())
    return page


def _overlap(a: list, b: list) -> bool:
    return a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]


@pytest.mark.parametrize("argv, needle", [
    (["--executor", "dask", "--scheduler", "tcp://127.0.0.1:9"], "cannot reach the Dask scheduler"),  # discard port
    (["--executor", "dask", "--scheduler", "no address"], "--scheduler 'no address'"),
    (["--scheduler", "tcp://127.0.0.1:9"], "a scheduler is for --executor dask"),
])
def test_a_dask_scheduler_that_cannot_be_used_is_one_line(argv, needle, capsys, monkeypatch):
    monkeypatch.setattr("planner.lab.run.SCHEDULER_DEADLINE", 1)
    rc = main(["simulate", *DAY, "--days", "1", "--groups", "2", *argv])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and err.startswith("planner: error: ") and needle in err, err


def test_a_dask_scheduler_without_workers_is_one_line_not_a_hang(capsys, monkeypatch):
    from dask.distributed import LocalCluster

    monkeypatch.setattr("planner.lab.run.SCHEDULER_DEADLINE", 1)
    with LocalCluster(n_workers=0, processes=False, dashboard_address=None) as cluster:
        rc = main(["simulate", *DAY, "--days", "2", "--groups", "2", "--executor", "dask", "--scheduler",
                   cluster.scheduler_address])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "has no workers" in err, err


class _SlowHttp(http.server.BaseHTTPRequestHandler):
    timeout = 5  # the connection is closed after 5 s without a request line (Dask's handshake never ends one)

    def log_message(self, *args):  # "Request timed out" is what this handler is for
        pass


def test_a_dask_scheduler_address_where_http_listens_is_cut_at_the_deadline(capsys, monkeypatch):
    """Before, an address where an HTTP server listens held simulate past 120 s (Dask's handshake waits for good)."""
    monkeypatch.setattr("planner.lab.run.SCHEDULER_DEADLINE", 2)
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _SlowHttp)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    address = f"tcp://127.0.0.1:{srv.server_address[1]}"
    try:
        rc = main(["simulate", *DAY, "--days", "1", "--groups", "2", "--executor", "dask", "--scheduler", address])
    finally:
        srv.shutdown()
        srv.server_close()
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and f"the Dask scheduler '{address}' did not answer within 2 s" in err, err


def test_report_page_opens_offline_in_chromium(lab, tmp_path, browser):
    from planner.lab.render import render_html

    rep = lab["report"]
    page_file = tmp_path / "lab.html"
    page_file.write_text(render_html(rep, lab["board"]), "utf-8")
    errors, requests = [], []
    page = _page(browser, page_file, errors, requests)
    circles = page.locator("#lab-map circle.station").count()
    base = page.locator("#lab-map path.base-cantons").count()
    bars = page.locator("#chart-income rect.bar").count()
    dice_bars = page.locator("#chart-dice rect.bar").count()
    title = page.locator("#lab-map circle.station title").first.text_content()
    verdict = page.locator("#verdict").text_content()
    page.locator("#details summary").click()  # the map, charts and tables are folded below the verdict
    box = page.locator("#lab-map").bounding_box()
    data = json.loads(page.locator("#lab-data").text_content())
    facts = page.evaluate(PAGE_FACTS)
    page.close()
    assert errors == []
    assert all(u.startswith("file://") for u in requests), requests  # nothing from the network
    numbers = rep["dice"]["numbers"]
    timed = [n for n, x in numbers.items() if x["travel"]["median"] is not None]
    assert circles == len(rep["stations"]) and base > 0 and bars == 15 and dice_bars == len(timed) < 5
    assert re.search(r"stops/day, fees [\d,]+/day, price [\d,]+,", title or "")
    assert "not fair" in (verdict or "")
    assert box and box["width"] > 300 and box["height"] > 200
    assert data == json.loads(json.dumps(rep))
    for chart in facts["charts"]:  # every label, the longest value too, ends inside its chart
        out = [t for t in chart["texts"] if t[1] < 0 or t[3] > chart["width"]]
        assert out == [], (chart["id"], out)
    # a number without travel times says so, never "0 min"
    assert len(facts["dice"]) == 2 * len(numbers) and not any(t.startswith("0 ") for t in facts["dice"])
    assert facts["dice"].count("– no target reached") == len(numbers) - len(timed) > 0
    assert facts["fees"] == [format_amount(s["fee_income_per_day"]) for s in rep["stations"]]  # whole francs
    assert facts["crossRows"] == [region_name(r) for r in rep["capital"]["by_region_strategy"]]
    labels = facts["labels"]
    assert len(labels) >= 6 and labels[0][0] == rep["stations"][0]["name"]
    assert [(a[0], b[0]) for i, a in enumerate(labels) for b in labels[i + 1:] if _overlap(a, b)] == []
    assert "Never the fastest" in facts["never"] and "Never reachable" in facts["never"]
    assert "Sissach" in facts["never"] and "game's rules" in facts["mode"] and "timetable" in facts["mode"]


def test_page_says_in_one_sentence_when_every_target_was_chosen(lab):
    from planner.lab.render import render_html

    rep = copy.deepcopy(lab["report"])
    rep["dice"]["never_fastest"], rep["dice"]["never_available"] = [], []
    never = re.search(r'<p id="never">(.*?)</p>', render_html(rep, lab["board"]), re.S)
    assert never and never[1].startswith("Every target of the dice table was the fastest")



def test_the_text_report_names_the_targets_never_reachable_and_why(capsys):
    rc = main(["simulate", *DAY, "--days", "1", "--groups", "2", "--executor", "serial"])
    out = capsys.readouterr().out
    line = next((ln for ln in out.splitlines() if ln.startswith("1. ")), "")
    # targets outside the Zug extract: the feed's cut is said to be the cause
    assert rc == 0 and "Biel/Bienne" in line and "covers only part of the game's area" in line


def test_a_worker_whose_files_changed_since_the_run_started_plays_nothing(tmp_path):
    """A Dask worker lives on between runs: the spec names what the files held when the run started, so a worker
    never plays a day loaded from an older (or, elsewhere, another) feed, game or real-time file."""
    from importlib import resources

    game = tmp_path / "game.toml"
    game.write_bytes((resources.files("planner") / "games" / "sbb-monopoly.toml").read_bytes())
    spec = RunSpec(DAY[1], str(game), DEMO_DATE.isoformat(), None, DayConfig(2, "mix", 1)).identified()
    assert spec.identity and spec.game == os.path.abspath(game) and spec.feed == os.path.abspath(DAY[1])
    assert spec.load(check=True).timetable.n_trips > 0
    game.write_text(game.read_text("utf-8").replace("[prices]", "# edited\n[prices]", 1), "utf-8")
    with pytest.raises(InputError, match="changed since it started"):
        spec.load(check=True)
    assert spec.identified().key != spec.key  # a new run of the edited file is another day to load
