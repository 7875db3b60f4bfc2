"""The faults of ``tools.faults`` that need the machine itself: a full disk and a read-only state folder (each in
a mount namespace of its own: :mod:`tests.support.namespaces`), sources that trickle past their deadline, and
real-time values no train can have. Each returns rows of ``(fault, what happened, healed by itself)``.

The deadlines are lowered for the table (the real-time URL's from 60 s, the Dask scheduler's from 20 s), so these
runs are the planner's own ``main`` in this process with the lowered constant.
"""

from __future__ import annotations

import datetime as dt
import http.server
import json
import os
import sqlite3
import threading
import time
from pathlib import Path

from tests.support.namespaces import planner_in_read_only_folder, planner_on_full_disk
from tests.support.webserver import run_cli

ROOT = Path(__file__).resolve().parents[1]
ZUG = ROOT.parent / "shared" / "data" / "gtfs" / "ch-zug-fp2021.zip"
DAY = ["--feed", str(ZUG), "--date", "2021-09-11"]
Row = tuple[str, str, str]


def _line(p, tmp: Path) -> str:
    line = (p.stderr.strip().splitlines() or [""])[-1].replace(f"{tmp}/", "")
    return f"exit {p.returncode}" + (f": `{line[:170]}`" if line else "")


def machine_faults(tmp: Path) -> list[Row]:
    """A full disk under an output; a state folder that is read-only."""
    env = {**os.environ, "PLANNER_CACHE": str(tmp / "cache"), "PLANNER_STATE": str(tmp / "s.sqlite")}
    rows = []
    for what, room in (("the map's Leaflet copy", 20_000), ("the map itself", 300_000)):
        p, left = planner_on_full_disk(tmp / "disk", ["map", "area", *DAY, "--out", str(tmp / "disk" / "m.html")],
                                       env, room=room)
        rows.append((f"a full disk: `map area --out` where {what} does not fit",
                     f"{_line(p, tmp)}; left in the folder: {left or 'nothing'}", "n/a (says what and where)"))
    run_cli(env, "simulate", *DAY, "--days", "1", "--groups", "2", "--executor", "serial")
    (rates,) = (tmp / "cache" / "lab").glob("*.json")
    before = rates.read_bytes()
    p, left = planner_on_full_disk(tmp / "disk", ["simulate", *DAY, "--days", "1", "--groups", "1", "--executor",
                                                   "serial", "--replace-rates", "--out", str(tmp / "disk" / "r.html")],
                                   env, room=4_000)
    rows.append(("a full disk: `simulate --out` (with --replace-rates)",
                 f"{_line(p, tmp)}; the kept advise rates unchanged: {rates.read_bytes() == before}",
                 "n/a (says what and where)"))
    folder = tmp / "ro"
    folder.mkdir()
    state = folder / "s.sqlite"
    ro_env = {**env, "PLANNER_STATE": str(state)}
    run_cli(ro_env, "roll", *DAY, "--group", "Rot", "--dice", "2", "--at", "Zug", "--time", "12:40")
    conn = sqlite3.connect(state)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    runs = planner_in_read_only_folder(folder, [["ledger", "status", *DAY], ["next", *DAY, "--group", "Rot", "--time",
                                                                            "13:00"],
                                                ["roll", *DAY, "--group", "Rot", "--dice", "3", "--time", "14:00"]],
                                       ro_env, tmp / "ro-results")
    rows.append(("the state folder is read-only (a read-only mount), `ledger status` and `next`",
                 f"exit {runs[0].returncode} and {runs[1].returncode}, the same answers as in a writable folder",
                 "yes" if runs[0].returncode == runs[1].returncode == 0 else "no"))
    rows.append(("the state folder is read-only, `roll`", _line(runs[2], tmp), "no (refused)"))
    return rows


class _Trickle(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 - http.server API
        self.send_response(200)
        self.send_header("Content-Length", "1000")
        self.end_headers()
        try:
            for _ in range(60):
                self.wfile.write(b"\x0a")
                self.wfile.flush()
                time.sleep(0.5)
        except OSError:
            pass

    def log_message(self, *args):
        pass


class _Silent(http.server.BaseHTTPRequestHandler):
    timeout = 15  # no request line comes (Dask's handshake): the connection is closed then

    def log_message(self, *args):
        pass


def deadline_faults(tmp: Path) -> list[Row]:
    """A real-time URL that trickles a byte every 0.5 s; a Dask scheduler address where HTTP listens."""
    from planner.lab import run
    from planner.realtime import feed

    env = {**os.environ, "PLANNER_CACHE": str(tmp / "cache"), "PLANNER_STATE": str(tmp / "s.sqlite")}
    rows = []
    old = feed.DEADLINE, run.SCHEDULER_DEADLINE
    feed.DEADLINE, run.SCHEDULER_DEADLINE = 5, 5
    try:
        run_cli(env, "stations", *DAY)  # the day built first: the times below are the deadlines'
        for handler, what in ((_Trickle, "rt"), (_Silent, "dask")):
            srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
            threading.Thread(target=srv.serve_forever, daemon=True).start()
            port = srv.server_address[1]
            t0 = time.monotonic()
            if what == "rt":
                p = run_cli(env, "route", *DAY, "--from", "Zug", "--to", "Luzern", "--time", "12:40", "--json",
                            "--realtime", f"http://127.0.0.1:{port}/feed")
                warn = [w for w in json.loads(p.stdout).get("warnings", []) if "real-time" in w] if p.stdout else []
                rows.append(("a real-time URL that trickles a byte every 0.5 s (`route --realtime URL`; deadline "
                             "lowered to 5 s, default 60 s)", f"exit {p.returncode} after {time.monotonic() - t0:.1f} s, "
                             f"on the timetable: `{warn[0] if warn else p.stderr.strip()}`".replace(str(port), "PORT"),
                             "yes" if p.returncode == 0 else "no"))
            else:
                p = run_cli(env, "simulate", *DAY, "--days", "1", "--groups", "2", "--executor", "dask",
                            "--scheduler", f"tcp://127.0.0.1:{port}")
                rows.append(("`simulate --executor dask --scheduler` at an HTTP port (deadline lowered to 5 s, "
                             "default 20 s)", f"after {time.monotonic() - t0:.1f} s " + _line(p, tmp).replace(
                                 str(port), "PORT"), "no (refused)"))
            srv.shutdown()
            srv.server_close()
    finally:
        feed.DEADLINE, run.SCHEDULER_DEADLINE = old
    return rows


def realtime_value_faults(tmp: Path) -> list[Row]:
    """Delays and times no train can have, in a real-time feed about the S1 13:06 Zug -> Rotkreuz."""
    from planner.realtime.overlay import service_day_start
    from tests.support.rt_fixtures import feed_message

    env = {**os.environ, "PLANNER_CACHE": str(tmp / "cache"), "PLANNER_STATE": str(tmp / "s.sqlite")}
    rows = []
    ride = ["route", *DAY, "--trip", "S1 13:06", "--from", "Zug", "--to", "Rotkreuz", "--json"]
    s1 = json.loads(run_cli(env, *ride).stdout)["legs"][0]["trip_id"]
    noon = service_day_start(dt.date(2021, 9, 11)) + 12 * 3600
    for what, fields in (("a delay of -2^31 s", {"departure_delay": -(2**31)}),
                         ("a delay of minus one day", {"departure_delay": -86400}),
                         ("an absolute time in 1970", {"departure_time": 60})):
        pb = tmp / "rt.pb"
        pb.write_bytes(feed_message(noon, [{"trip_id": s1, "start_date": "20210911",
                                            "stops": [{"stop_id": "8502204:0:99", **fields}]}]))  # Zug, by UIC
        p = run_cli(env, *ride, "--realtime", str(pb))
        out = json.loads(p.stdout) if p.returncode == 0 else {}
        leg = (out.get("legs") or [{}])[0]
        rows.append((f"a real-time update with {what} (`route --trip 'S1 13:06' --realtime`)",
                     f"exit {p.returncode}; dep {out.get('departure')}, delay "
                     f"{'none' if leg.get('departure_delay_min') is None else leg['departure_delay_min']}; "
                     f"times_implausible: {out.get('realtime', {}).get('times_implausible')}",
                     "yes (dropped and counted)" if leg.get("departure_delay_min") is None else "no"))
    return rows
