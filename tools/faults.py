"""Run the faults the planner meets in service and print a Markdown table of what happened, and whether the
planner healed by itself (no person had to act).

Usage: ``.venv/bin/python -m tools.faults`` (from the repo root; needs ../shared/data; starts a real
``planner serve`` on loopback, and ``unshare`` for a full disk and a read-only folder: :mod:`tools.faults_io`).
The table of faults in docs/robustness.md is this script's output.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import requests

from tests.support.webserver import free_port, process_gone, routing_child, serve, web_game

ROOT = Path(__file__).resolve().parents[1]
ZUG = ROOT.parent / "shared" / "data" / "gtfs" / "ch-zug-fp2021.zip"
DAY = ["--feed", str(ZUG), "--date", "2021-09-11"]
Row = tuple[str, str, str]  # fault, what happened, healed by itself


def planner(env: dict, *argv: str) -> subprocess.CompletedProcess:
    """One CLI run."""
    return subprocess.run([sys.executable, "-m", "planner", *argv], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=300)


def _said(p: subprocess.CompletedProcess, tmp: Path) -> str:
    line = (p.stderr.strip().splitlines() or [""])[-1].replace(f"{tmp}/", "")
    return f"exit {p.returncode}" + (f": `{line[:170]}`" if line else "")


def cache_faults(tmp: Path) -> list[Row]:
    """Members of a cached game day replaced by what must never be read."""
    rows = []
    env = {**os.environ, "PLANNER_CACHE": str(tmp / "cache"), "PLANNER_STATE": str(tmp / "s.sqlite")}
    good = planner(env, "stations", *DAY, "--json").stdout
    for what, plant in (("a cache member linked to /dev/zero", lambda p: p.symlink_to("/dev/zero")),
                        ("a cache member that is a FIFO", lambda p: os.mkfifo(p)),
                        ("a cache member edited", lambda p: p.write_bytes(b"PAR1 edited")),
                        ("a content-hash memo linked to /dev/zero", None)):
        if plant is None:
            for memo in (tmp / "cache" / "content-hashes").iterdir():
                memo.unlink()
                memo.symlink_to("/dev/zero")
        else:
            (entry,) = (tmp / "cache" / "timetables").iterdir()
            (entry / "stop_times.parquet").unlink()
            plant(entry / "stop_times.parquet")
        p = planner(env, "stations", *DAY, "--json")
        same = p.returncode == 0 and p.stdout == good
        rows.append((what, f"exit {p.returncode}, " + ("rebuilt, same answer" if same else _said(p, tmp)),
                     "yes" if same else "no"))
    return rows


def state_faults(tmp: Path) -> list[Row]:
    """The state file: missing, another program's, edited by hand, locked."""
    rows = []
    env = {**os.environ, "PLANNER_CACHE": str(tmp / "cache"), "PLANNER_STATE": str(tmp / "new" / "s.sqlite")}
    p = planner(env, "ledger", "status", "--json")
    rows.append(("no state file yet, a read-only command (`ledger status`)",
                 f"exit {p.returncode}, empty answer; file created: {(tmp / 'new').exists()}", "n/a"))
    other = tmp / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE notes (x)")
    before = other.read_bytes()
    p = planner({**env, "PLANNER_STATE": str(other)}, "roll", "--group", "1", "--dice", "2", "--at", "Zug",
                "--time", "12:40", *DAY)
    rows.append(("`$PLANNER_STATE` is another program's SQLite file",
                 _said(p, tmp) + f"; its bytes unchanged: {other.read_bytes() == before}", "no (refused)"))
    state = tmp / "s.sqlite"
    env["PLANNER_STATE"] = str(state)
    planner(env, "roll", "--group", "1", "--dice", "2", "--at", "Zug", "--time", "12:40", *DAY)
    with sqlite3.connect(state) as conn:
        conn.execute("UPDATE rolls SET dice = 'not json'")
    p = planner(env, "group", "status", "--group", "1", *DAY)
    rows.append(("a state row edited by hand (`rolls.dice = 'not json'`)", _said(p, tmp),
                 "no (names the row)"))
    with sqlite3.connect(state) as conn:
        conn.execute("UPDATE rolls SET dice = '[2]'")
    holder = sqlite3.connect(state, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    threading.Timer(3.0, lambda: holder.execute("COMMIT")).start()
    t0 = time.monotonic()
    p = planner(env, "ledger", "buy", "--group", "1", "--station", "Zug", "--time", "10:00", *DAY)
    rows.append(("the state file locked by another writer for 3 s",
                 f"exit {p.returncode} after {time.monotonic() - t0:.1f} s (waited, then recorded)",
                 "yes" if p.returncode == 0 else "no"))
    holder.close()
    fifo = tmp / "state.fifo"
    os.mkfifo(fifo)
    p = planner({**env, "PLANNER_STATE": str(fifo)}, "ledger", "status", *DAY)
    rows.append(("`$PLANNER_STATE` is a FIFO, a read-only command", _said(p, tmp), "no (refused)"))
    return rows


def worker_faults(tmp: Path) -> list[Row]:
    """``kill -9`` of the phone app's routing process: idle, and in the middle of 24 rolls."""
    env = {**os.environ, "PLANNER_CACHE": str(tmp / "cache"), "PLANNER_STATE": str(tmp / "web.sqlite")}
    port = free_port()
    game = web_game(env, ",".join(f"G{i}" for i in range(1, 30)), base=f"http://127.0.0.1:{port}")
    rows = []
    with serve(env, port=port) as srv:
        def roll(n: int) -> requests.Response:
            return requests.post(f"{srv.url}/api/games/{game['game']}/groups/{n}/rolls", timeout=300,
                                 json={"dice": 2, "at": "Zug", "time": "12:40", "roll_id": f"fault-{n:04d}"},
                                 headers={"Authorization": f"Bearer {game['groups'][n - 1]['token']}"})

        child = routing_child(srv.proc.pid)
        os.kill(child, signal.SIGKILL)
        while not process_gone(child):
            time.sleep(0.01)
        t0 = time.monotonic()
        r = roll(1)
        rows.append(("routing process killed (`kill -9`) while idle",
                     f"next roll HTTP {r.status_code} after {time.monotonic() - t0:.1f} s (a new process)",
                     "yes" if r.status_code == 200 else "no"))
        results: dict[int, int] = {}
        threads = [threading.Thread(target=lambda n=n: results.__setitem__(n, roll(n).status_code))
                   for n in range(2, 26)]
        for t in threads:
            t.start()
        time.sleep(0.3)
        os.kill(routing_child(srv.proc.pid), signal.SIGKILL)
        for t in threads:
            t.join()
        kept = [len(requests.get(f"{srv.url}/api/games/{game['game']}/groups/{n}", timeout=60, headers={
            "Authorization": f"Bearer {game['groups'][n - 1]['token']}"}).json()["status"]["rolls"]) for n in results]
        ok = set(results.values()) == {200} and set(kept) == {1}
        health = requests.get(srv.url + "/health", timeout=60).json()
        rows.append(("routing process killed in the middle of 24 rolls",
                     f"HTTP {sorted(set(results.values()))}; rolls kept per group {sorted(set(kept))}; "
                     f"/health {json.dumps(health)}", "yes" if ok else "no"))
    return rows


def _js(p: subprocess.CompletedProcess) -> dict:
    return json.loads(p.stdout) if p.returncode == 0 and p.stdout.strip() else {}


def kept_rates_faults(tmp: Path) -> list[Row]:
    """The lab rates simulate keeps for advise, replaced by what must never be read."""
    env = {**os.environ, "PLANNER_CACHE": str(tmp / "cache"), "PLANNER_STATE": str(tmp / "s.sqlite")}
    planner(env, "roll", *DAY, "--group", "Rot", "--dice", "2", "--at", "Zug", "--time", "12:40")
    planner(env, "simulate", *DAY, "--days", "1", "--groups", "2", "--executor", "serial")
    (path,) = (tmp / "cache" / "lab").glob("*.json")
    good = path.read_text()
    rows = []
    for what, plant in (("are a FIFO", lambda: os.mkfifo(path)),
                        ("are a link to /dev/zero", lambda: path.symlink_to("/dev/zero")),
                        ("hold a rate of 1e999 (infinity)", lambda: path.write_text(_one_rate(good, "1e999"))),
                        ("hold a rate of 1e308", lambda: path.write_text(_one_rate(good, "1e308"))),
                        ("hold a rate of NaN", lambda: path.write_text(_one_rate(good, "NaN")))):
        path.unlink(missing_ok=True)
        plant()
        t0 = time.monotonic()
        first = _js(planner(env, "advise", *DAY, "--group", "Rot", "--time", "13:00", "--json")).get("rates", {})
        took = time.monotonic() - t0
        again = _js(planner(env, "advise", *DAY, "--group", "Rot", "--time", "13:00", "--json")).get("rates", {})
        aside = sorted(p.name for p in path.parent.glob(f".{path.name}.damaged-*"))
        ok = first.get("source") == "timetable" and bool(first.get("set_aside")) and again.get("set_aside") is None
        rows.append((f"the kept advise rates {what}",
                     f"`advise` exit 0 in {took:.1f} s on the timetable's estimate, reason `{first.get('set_aside')}`; "
                     f"set aside: {bool(aside)}; the next advise: no report", "yes" if ok else "no"))
        for p in [path, *path.parent.glob(f".{path.name}.damaged-*")]:
            p.unlink(missing_ok=True)
        path.write_text(good)
    return rows


def _one_rate(good: str, value: str) -> str:
    doc = json.loads(good)
    name = next(iter(doc["rates"]))
    doc["rates"][name] = {"12": "@@"}
    return json.dumps(doc).replace('"@@"', value)


def serve_hang_faults(tmp: Path) -> list[Row]:
    """The phone app with a FIFO as the kept rates, and SIGTERM while a request hangs in the routing process."""
    env = {**os.environ, "PLANNER_CACHE": str(tmp / "cache"), "PLANNER_STATE": str(tmp / "web.sqlite")}
    planner(env, "simulate", *DAY, "--days", "1", "--groups", "2", "--executor", "serial")
    (path,) = (tmp / "cache" / "lab").glob("*.json")
    port = free_port()
    game = web_game(env, "Rot,Blau", base=f"http://127.0.0.1:{port}")
    rows = []
    with serve(env, port=port) as srv:
        def get(what: str) -> requests.Response:
            return requests.get(f"{srv.url}/api/games/{game['game']}/groups/1{what}", timeout=120,
                                headers={"Authorization": f"Bearer {game['groups'][0]['token']}"})

        path.unlink()
        os.mkfifo(path)
        codes = [get("").status_code, get("/next?time=13:00").status_code,
                 requests.get(srv.url + "/health", timeout=120).status_code]
        rows.append(("the kept advise rates are a FIFO under a running `serve`",
                     f"state poll, `/next`, `/health`: HTTP {codes}", "yes" if set(codes) == {200} else "no"))
        child = routing_child(srv.proc.pid)
        os.kill(child, signal.SIGSTOP)
        threading.Thread(target=lambda: _quietly(get, "/next?time=13:00"), daemon=True).start()
        time.sleep(1.0)
        t0 = time.monotonic()
        srv.proc.send_signal(signal.SIGTERM)
        try:
            srv.proc.wait(timeout=60)
            what = f"`serve` stopped {time.monotonic() - t0:.1f} s after SIGTERM; the frozen process gone: "
            gone = _wait_gone(child)
            rows.append(("SIGTERM while a request hangs in the routing process (SIGSTOP)", what + str(gone),
                         "yes" if gone else "no"))
        except subprocess.TimeoutExpired:
            rows.append(("SIGTERM while a request hangs in the routing process (SIGSTOP)",
                         "still running 60 s after SIGTERM", "no"))
        finally:
            if not process_gone(child):
                os.kill(child, signal.SIGCONT)
    return rows


def _quietly(get, what: str) -> None:
    try:
        get(what)
    except requests.RequestException:
        pass


def _wait_gone(pid: int) -> bool:
    deadline = time.monotonic() + 10
    while not process_gone(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return process_gone(pid)


def main() -> int:
    """Print the table."""
    from tools.faults_io import deadline_faults, machine_faults, realtime_value_faults

    runs: list[Callable[[Path], list[Row]]] = [cache_faults, kept_rates_faults, state_faults, machine_faults,
                                               worker_faults, serve_hang_faults, deadline_faults,
                                               realtime_value_faults]
    print("| fault | what happened (a real run) | healed by itself |")
    print("|---|---|---|")
    with tempfile.TemporaryDirectory() as d:
        for i, run in enumerate(runs):
            tmp = Path(d) / str(i)
            tmp.mkdir()
            for fault, what, healed in run(tmp):
                print(f"| {fault} | {what.replace('|', chr(92) + '|')} | {healed} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
