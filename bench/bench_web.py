"""Load on ``planner serve`` (loopback only, bounded in time and count; stops by itself).

6 groups x 4 phones on the Zug day (sbb-monopoly, 2021-09-11): every phone polls its group's state every 5 s and
rolls every 3-8 s (one roll in ten is sent a second time with the same roll id, as a phone retrying), for
2 minutes; then a burst of 50 rolls released at once over the 6 groups. Reported: requests, errors, rolls
acknowledged but not recorded (lost), recorded more than once (duplicated), roll and state latency (p50, p95,
max, measured by the client). ``--quick``: 20 s and a burst of 20. Writes bench/out/web.json.

    .venv/bin/python -m bench.bench_web [--quick]
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import requests

from bench import write_results
from tests.support.webserver import free_port, serve, web_env, web_game

GROUPS, PHONES = 6, 4
STATIONS = ["Zug", "Baar", "Cham", "Rotkreuz", "Steinhausen", "Hünenberg Chämleten", "Walchwil", "Oberwil"]


class Phone(threading.Thread):
    """One phone: polls and rolls until ``stop`` is set."""

    def __init__(self, base: str, token: str, seed: int, stop: threading.Event, stations: list[str]):
        super().__init__(daemon=True)
        self.base, self.stop, self.rng, self.stations = base, stop, random.Random(seed), stations
        self.s = requests.Session()
        self.s.headers["Authorization"] = f"Bearer {token}"
        self.state_ms: list[float] = []
        self.roll_ms: list[float] = []
        self.errors: list[str] = []
        self.acked: set[str] = set()
        self.requests = 0
        self.seed = seed

    def roll_body(self, n: int) -> dict:
        t = self.rng.randrange(12 * 60 + 30, 16 * 60 + 30)
        return {"dice": self.rng.randint(1, 6), "at": self.rng.choice(self.stations),
                "time": f"{t // 60:02d}:{t % 60:02d}", "roll_id": f"bench-{self.seed}-{n:05d}"}

    def roll(self, body: dict) -> None:
        t0 = time.perf_counter()
        r = self.s.post(self.base + "/rolls", json=body, timeout=30)
        self.roll_ms.append((time.perf_counter() - t0) * 1000)
        self.requests += 1
        if r.status_code != 200:
            self.errors.append(f"roll {r.status_code}: {r.text[:120]}")
        else:
            self.acked.add(body["roll_id"])

    def poll(self) -> None:
        t0 = time.perf_counter()
        r = self.s.get(self.base, timeout=30)
        self.state_ms.append((time.perf_counter() - t0) * 1000)
        self.requests += 1
        if r.status_code != 200:
            self.errors.append(f"state {r.status_code}: {r.text[:120]}")

    def run(self) -> None:
        now = time.monotonic()
        next_poll, next_roll, n = now + self.rng.uniform(0, 5), now + self.rng.uniform(1, 8), 0
        while not self.stop.is_set():
            now = time.monotonic()
            if now >= next_poll:
                self.poll()
                next_poll += 5
            if now >= next_roll:
                body = self.roll_body(n)
                n += 1
                self.roll(body)
                if self.rng.random() < 0.1:
                    self.roll(body)  # a retry: must not record a second roll
                next_roll = time.monotonic() + self.rng.uniform(3, 8)
            self.stop.wait(max(0.0, min(next_poll, next_roll) - time.monotonic()))


def pct(xs: list[float], q: float) -> float:
    return float(np.percentile(xs, q)) if xs else float("nan")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="20 s of load and a burst of 20")
    a = ap.parse_args()
    duration, burst = (20, 20) if a.quick else (120, 50)
    with tempfile.TemporaryDirectory(prefix="bench-web-") as tmp:
        env = web_env(Path(tmp))
        port = free_port()
        game = web_game(env, ",".join(f"Gruppe {i}" for i in range(1, GROUPS + 1)), base=f"http://127.0.0.1:{port}")
        with serve(env, port=port) as srv:
            api = f"{srv.url}/api/games/{game['game']}/groups/"
            names = {s["name"] for s in requests.get(f"{srv.url}/api/games/{game['game']}/stations", headers={
                "Authorization": f"Bearer {game['organiser']['token']}"}, timeout=30).json()}
            stations = [s for s in STATIONS if s in names]
            stop = threading.Event()
            phones = [Phone(api + str(g + 1), game["groups"][g]["token"], g * 10 + p, stop, stations)
                      for g in range(GROUPS) for p in range(PHONES)]
            t0 = time.perf_counter()
            for ph in phones:
                ph.start()
            stop.wait(duration)
            stop.set()
            for ph in phones:
                ph.join()
            load_s = time.perf_counter() - t0
            # the burst: `burst` rolls released together, spread over the groups
            gate = threading.Barrier(burst)
            shooters = [Phone(api + str(i % GROUPS + 1), game["groups"][i % GROUPS]["token"], 1000 + i, stop,
                              stations) for i in range(burst)]

            def shoot(ph: Phone) -> None:
                body = ph.roll_body(0)
                gate.wait()
                ph.roll(body)

            threads = [threading.Thread(target=shoot, args=(ph,)) for ph in shooters]
            tb = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            burst_s = time.perf_counter() - tb
        with sqlite3.connect(env["PLANNER_STATE"]) as conn:
            recorded = [r[0].split(":", 2)[2] for r in conn.execute("SELECT roll_id FROM rolls")]
        conn.close()
    everyone = phones + shooters
    acked = set().union(*(p.acked for p in everyone))
    rolls = [x for p in phones for x in p.roll_ms]
    states = [x for p in phones for x in p.state_ms]
    burst_ms = [x for p in shooters for x in p.roll_ms]
    res = {"groups": GROUPS, "phones": GROUPS * PHONES, "load_seconds": round(load_s, 1),
           "requests": sum(p.requests for p in everyone), "errors": sum(len(p.errors) for p in everyone),
           "error_samples": [e for p in everyone for e in p.errors][:5],
           "rolls_acknowledged": len(acked), "rolls_recorded": len(recorded),
           "lost": len(acked - set(recorded)), "duplicated": len(recorded) - len(set(recorded)),
           "roll_ms": {"n": len(rolls), "p50": pct(rolls, 50), "p95": pct(rolls, 95), "max": max(rolls, default=0)},
           "state_ms": {"n": len(states), "p50": pct(states, 50), "p95": pct(states, 95),
                        "max": max(states, default=0)},
           "burst": {"rolls": burst, "seconds": round(burst_s, 2), "p95_ms": pct(burst_ms, 95),
                     "max_ms": max(burst_ms, default=0)}}
    write_results("web-quick" if a.quick else "web", res)
    print(f"| {res['phones']} phones, {res['load_seconds']} s + burst of {burst} | value |\n|---|---|")
    for k in ("requests", "errors", "rolls_acknowledged", "rolls_recorded", "lost", "duplicated"):
        print(f"| {k.replace('_', ' ')} | {res[k]} |")
    for k in ("roll_ms", "state_ms"):
        m = res[k]
        print(f"| {k[:-3]} p50 / p95 / max (ms, n={m['n']}) | {m['p50']:.0f} / {m['p95']:.0f} / {m['max']:.0f} |")
    b = res["burst"]
    print(f"| burst: {burst} rolls at once, all answered in | {b['seconds']} s (p95 {b['p95_ms']:.0f} ms) |")
    for e in res["error_samples"]:
        print("error:", e)
    return 0 if res["errors"] == 0 and res["lost"] == 0 and res["duplicated"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
