"""Load on ``planner serve`` (loopback only, bounded in time and count; stops by itself).

6 groups x 4 phones on the Zug day (sbb-monopoly, 2021-09-11). Before the load each group buys a station through
the API (sent twice with one event id, as a phone retrying). Then, for 2 minutes, every phone:

* polls its group's state every 5 s;
* every 3-8 s rolls for its group, as the group's day allows: one roll of a group at a time (a phone whose group
  is rolling on another phone skips its turn), at the time the group's last answer says the next roll is due
  (the first at 12:30 at a station), where its day has it; one roll in ten is sent a second time with the same
  roll id. When the group's day nears its end (next roll after 17:00), the phone undoes the group's rolls one by
  one (undo is one operation for every interface) and the group starts again at 12:30;
* every 8-16 s pays the fee at the next group's station (morning times, so the group's day allows them; one in ten
  retried with the same event id);
* once buys its group's second station with the event id the page makes from what the event is (so the four
  phones of a group tapping it record one purchase).

Then a burst of 50 rolls released at once: each group's share of the burst sends the same next roll (one roll id),
as every phone of a group submitting it together. Reported: requests, errors, rolls and payments acknowledged
but not recorded (lost) or recorded more than once (duplicated), purchases recorded, whether the groups' cash adds
up, roll, ledger and state latency (p50, p95, max, measured by the client), and how many kept-alive connections the
server had closed as a phone reused them (sent again once, as a browser does). ``--quick``: 20 s and a burst of 20.
Writes bench/out/web.json.

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
from planner.gamefile.game import load_game
from planner.ledger.money_rules import ledger_rules
from tests.support.webserver import free_port, serve, web_env, web_game

GROUPS, PHONES = 6, 4
STATIONS = ["Zug", "Baar", "Cham", "Rotkreuz", "Steinhausen", "Hünenberg Chämleten", "Walchwil", "Oberwil"]
# regional stations (price 1000, fee 250) a few minutes apart: each group's first and second purchase
HOMES = ["Zug Postplatz", "Zug Schutzengel", "Baar Lindenpark", "Zug Casino", "Baar Neufeld", "Zug Fridbach"]
EXTRAS = ["Zug Oberwil", "Zug Chollermüli", "Steinhausen Rigiblick", "Steinhausen", "Cham Alpenblick", "Cham"]
START, RESTART = "12:30", "17:00"  # the first roll of a group's day; a next roll after RESTART starts it again


class Group:
    """What a group's phones share: one roll at a time, when its next roll is due, the rolls it recorded."""

    def __init__(self, number: int, stations: list[str]):
        self.number, self.stations = number, stations
        self.lock = threading.Lock()
        self.next: str | None = None  # the time its next roll is due (None: the day starts, at START)
        self.rolled: dict[int, str] = {}  # seq -> roll id, of the rolls recorded and not undone
        self.undone: set[str] = set()
        self.n = 0

    def body(self, rng: random.Random) -> dict:
        """The group's next roll as its day allows it."""
        self.n += 1
        body = {"dice": rng.randint(1, 6), "roll_id": f"bench-g{self.number}-{self.n:05d}"}
        if self.next is None:
            return body | {"at": rng.choice(self.stations), "time": START}
        return body | {"time": self.next}  # where the group's day has it then (at its target)


class Phone(threading.Thread):
    """One phone of a group: polls, rolls, pays and buys until ``stop`` is set."""

    def __init__(self, base: str, token: str, seed: int, stop: threading.Event, group: Group):
        super().__init__(daemon=True)
        self.base, self.stop, self.rng, self.group, self.seed = base, stop, random.Random(seed), group, seed
        self.s = requests.Session()
        self.s.headers["Authorization"] = f"Bearer {token}"
        self.ms: dict[str, list[float]] = {"state": [], "roll": [], "ledger": []}
        self.errors: list[str] = []
        self.acked: set[str] = set()  # roll ids acknowledged
        self.rolls_sent: set[str] = set()
        self.paid: set[str] = set()  # event ids of the fee payments acknowledged
        self.sent: set[str] = set()  # event ids of the fee payments sent (acknowledged or not)
        self.requests = 0
        self.resets = 0  # connections reset by the server (sent again once)

    def call(self, what: str, method: str, path: str, body: dict | None = None) -> dict | None:
        """One request, timed under ``what``; the answer, or None (recorded as an error)."""
        t0 = time.perf_counter()
        try:
            r = self.s.request(method, self.base + path, json=body, timeout=30)
        except requests.ConnectionError:
            # A kept-alive connection the server closed (uvicorn: idle 5 s) just as it was reused: sent again once,
            # as a browser does (safe for POSTs too: every roll and event carries its id).
            self.resets += 1
            try:
                r = self.s.request(method, self.base + path, json=body, timeout=30)
            except requests.ConnectionError as exc:
                self.errors.append(f"{what}: {exc}")
                return None
        self.ms.setdefault(what, []).append((time.perf_counter() - t0) * 1000)
        self.requests += 1
        if r.status_code != 200:
            self.errors.append(f"{what} {r.status_code}: {r.text[:160]}")
            return None
        return r.json()

    def roll(self, body: dict) -> dict | None:
        self.rolls_sent.add(body["roll_id"])
        ans = self.call("roll", "POST", "/rolls", body)
        if ans is not None:
            self.acked.add(body["roll_id"])
        return ans

    def roll_turn(self) -> None:
        """Roll for the group when no other phone of it is rolling; then learn when its next roll is due."""
        g = self.group
        if not g.lock.acquire(blocking=False):
            return
        try:
            body = g.body(self.rng)
            ans = self.roll(body)
            if ans is not None and self.rng.random() < 0.1:
                self.roll(body)  # a retry: must not record a second roll
            if ans is None:
                return
            g.rolled[ans["seq"]] = body["roll_id"]
            state = self.call("state", "GET", "")
            due = state and state["status"]["next_roll_at"]
            if not due or due >= RESTART:
                self.undo_all()
            else:
                g.next = due
        finally:
            g.lock.release()

    def undo_all(self) -> None:
        """Undo the group's rolls, latest first, until none is left (its day starts again)."""
        g = self.group
        while g.rolled:
            out = self.call("undo", "POST", "/undo", {})
            if out is None or out["removed"] is None and out["removed_position"] is None:
                break
            if out["removed"] is not None:
                g.undone.add(g.rolled.pop(out["removed"]))
        g.next = None

    def ledger(self, body: dict) -> None:
        if body["event"] == "pay":
            self.sent.add(body["event_id"])
        if self.call("ledger", "POST", "/ledger", body) is not None and body["event"] == "pay":
            self.paid.add(body["event_id"])

    def pay_body(self, n: int) -> dict:
        t = self.rng.randrange(11 * 60, 11 * 60 + 40)  # an hour after both purchases, 50 minutes before a roll
        return {"event": "pay", "station": HOMES[(self.group.number + 1) % GROUPS],
                "time": f"{t // 60:02d}:{t % 60:02d}", "event_id": f"bench-pay-{self.seed}-{n:05d}"}

    def buy_extra(self) -> None:
        # one id for the group's phones: made from what the event is, as the page makes it
        g = self.group.number
        self.ledger({"event": "buy", "station": EXTRAS[g], "time": f"10:0{g}", "event_id": f"buy-extra-{g}"})

    def run(self) -> None:
        now = time.monotonic()
        due = {"poll": now + self.rng.uniform(0, 5), "roll": now + self.rng.uniform(1, 8),
               "pay": now + self.rng.uniform(2, 10), "buy": now + self.rng.uniform(1, 15)}
        paid = 0
        while not self.stop.is_set():
            now = time.monotonic()
            if now >= due["poll"]:
                self.call("state", "GET", "")
                due["poll"] += 5
            if now >= due["roll"]:
                self.roll_turn()
                due["roll"] = time.monotonic() + self.rng.uniform(3, 8)
            if now >= due["pay"]:
                body = self.pay_body(paid)
                paid += 1
                self.ledger(body)
                if self.rng.random() < 0.1:
                    self.ledger(body)  # a retry: must not pay twice
                due["pay"] = time.monotonic() + self.rng.uniform(8, 16)
            if now >= due["buy"]:
                self.buy_extra()
                due["buy"] = float("inf")
            self.stop.wait(max(0.0, min(due.values()) - time.monotonic()))


def pct(xs: list[float], q: float) -> float:
    return float(np.percentile(xs, q)) if xs else float("nan")


def timing(xs: list[float]) -> dict:
    return {"n": len(xs), "p50": pct(xs, 50), "p95": pct(xs, 95), "max": max(xs, default=0)}


def burst_of(n: int, groups: list[Group], phone) -> tuple[list[Phone], float]:
    """``n`` rolls released together: each group's share sends the group's next roll (one roll id)."""
    gate = threading.Barrier(n)
    shooters = [phone(i % GROUPS, 1000 + i) for i in range(n)]
    bodies = [g.body(random.Random(g.number)) for g in groups]

    def shoot(ph: Phone) -> None:
        gate.wait()
        ph.roll(bodies[ph.group.number])

    threads = [threading.Thread(target=shoot, args=(ph,)) for ph in shooters]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return shooters, time.perf_counter() - t0


def run_load(duration: int, burst: int) -> dict:
    """The load on a fresh state file and server; what was recorded, read back from the state file."""
    with tempfile.TemporaryDirectory(prefix="bench-web-") as tmp:
        env = web_env(Path(tmp))
        port = free_port()
        game = web_game(env, ",".join(f"Gruppe {i}" for i in range(1, GROUPS + 1)), base=f"http://127.0.0.1:{port}")
        organiser = {"Authorization": f"Bearer {game['organiser']['token']}"}
        with serve(env, port=port) as srv:
            api = f"{srv.url}/api/games/{game['game']}"
            names = {s["name"] for s in requests.get(api + "/stations", headers=organiser, timeout=30).json()}
            groups = [Group(g, [s for s in STATIONS if s in names]) for g in range(GROUPS)]
            stop = threading.Event()

            def phone(g: int, seed: int) -> Phone:
                return Phone(f"{api}/groups/{g + 1}", game["groups"][g]["token"], seed, stop, groups[g])

            phones = [phone(g, g * 10 + p) for g in range(GROUPS) for p in range(PHONES)]
            for g in range(GROUPS):  # each group's first station, the request sent twice (a retry)
                body = {"event": "buy", "station": HOMES[g], "time": f"09:0{g}", "event_id": f"bench-home-{g}"}
                phones[g * PHONES].ledger(body)
                phones[g * PHONES].ledger(body)
            t0 = time.perf_counter()
            for ph in phones:
                ph.start()
            stop.wait(duration)
            stop.set()
            for ph in phones:
                ph.join()
            load_s = time.perf_counter() - t0
            shooters, burst_s = burst_of(burst, groups, phone)
            overview = requests.get(api, headers=organiser, timeout=30).json()
        with sqlite3.connect(env["PLANNER_STATE"]) as conn:
            recorded = [r[0] for r in conn.execute("SELECT roll_id FROM rolls WHERE roll_id IS NOT NULL")]
            fees = [r[0] for r in conn.execute("SELECT event_id FROM ledger_events WHERE kind = 'fee'")]
            buys = conn.execute("SELECT COUNT(*), COALESCE(SUM(amount), 0) FROM ledger_events "
                                "WHERE kind = 'buy'").fetchone()
        conn.close()
    return {"phones": phones, "shooters": shooters, "groups": groups, "load_s": load_s, "burst_s": burst_s,
            "recorded": recorded, "fees": fees, "buys": buys, "cash": sum(g["cash"] for g in overview["groups"])}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="20 s of load and a burst of 20")
    a = ap.parse_args()
    duration, burst = (20, 20) if a.quick else (120, 50)
    run = run_load(duration, burst)
    phones, everyone = run["phones"], run["phones"] + run["shooters"]
    recorded, fees = run["recorded"], run["fees"]
    acked = set().union(*(p.acked for p in everyone))
    undone = set().union(*(g.undone for g in run["groups"]))
    sent_rolls = set().union(*(p.rolls_sent for p in everyone))
    paid = set().union(*(p.paid for p in everyone))
    sent = set().union(*(p.sent for p in everyone))
    res = {"groups": GROUPS, "phones": GROUPS * PHONES, "load_seconds": round(run["load_s"], 1),
           "requests": sum(p.requests for p in everyone), "errors": sum(len(p.errors) for p in everyone),
           "connection_resets_retried": sum(p.resets for p in everyone),
           "error_samples": [e for p in everyone for e in p.errors][:5],
           "rolls_acknowledged": len(acked), "rolls_undone": len(undone), "rolls_recorded": len(recorded),
           "lost": len(acked - undone - set(recorded)),
           "duplicated": len(recorded) - len(set(recorded) & sent_rolls),
           "payments_acknowledged": len(paid), "payments_recorded": len(fees),
           "payments_lost": len(paid - set(fees)), "payments_duplicated": len(fees) - len(sent & set(fees)),
           "purchases_recorded": run["buys"][0], "purchases_expected": 2 * GROUPS,
           # fees move money between groups; only the purchases leave: the cash adds up or something is wrong
           "cash_adds_up": run["cash"] == GROUPS * ledger_rules(load_game("sbb-monopoly")).start_cash - run["buys"][1],
           "roll_ms": timing([x for p in phones for x in p.ms["roll"]]),
           "ledger_ms": timing([x for p in phones for x in p.ms["ledger"]]),
           "state_ms": timing([x for p in phones for x in p.ms["state"]]),
           "burst": {"rolls": burst, "seconds": round(run["burst_s"], 2),
                     "p95_ms": timing([x for p in run["shooters"] for x in p.ms["roll"]])["p95"],
                     "max_ms": timing([x for p in run["shooters"] for x in p.ms["roll"]])["max"]}}
    write_results("web-quick" if a.quick else "web", res)
    print(f"| {res['phones']} phones, {res['load_seconds']} s + burst of {burst} | value |\n|---|---|")
    for k in ("requests", "errors", "connection_resets_retried", "rolls_acknowledged", "rolls_undone", "rolls_recorded", "lost", "duplicated",
              "payments_acknowledged", "payments_recorded", "payments_lost", "payments_duplicated",
              "purchases_recorded", "purchases_expected", "cash_adds_up"):
        print(f"| {k.replace('_', ' ')} | {res[k]} |")
    for k in ("roll_ms", "ledger_ms", "state_ms"):
        m = res[k]
        print(f"| {k[:-3]} p50 / p95 / max (ms, n={m['n']}) | {m['p50']:.0f} / {m['p95']:.0f} / {m['max']:.0f} |")
    b = res["burst"]
    print(f"| burst: {burst} rolls at once, all answered in | {b['seconds']} s (p95 {b['p95_ms']:.0f} ms) |")
    for e in res["error_samples"]:
        print("error:", e)
    ok = (res["errors"] == res["lost"] == res["duplicated"] == res["payments_lost"] == res["payments_duplicated"] == 0
          and res["purchases_recorded"] == res["purchases_expected"] and res["cash_adds_up"])
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
