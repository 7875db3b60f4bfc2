"""The phone's money API over loopback, against a real ``planner serve`` (the shared server): one endpoint per kind,
``POST .../ledger`` with ``event`` = ``draw``, ``play``, ``sell``, ``accept``, ``tax``, ``parking`` (``empty``)
and ``diceoff``; ``POST .../rolls`` with ``card``; ``POST .../position`` with ``late``; ``POST
.../messages/{seq}/sent``; what applies now in ``GET .../ledger`` and what the organiser follows in ``GET
/api/games/{g}``; every refusal a 422 with one sentence. The game day is a timetable written here: S1 Baar :01/:31 -
Zug :06 - Cham :12 - Rotkreuz, S2 Zug :15/:45 - Steinhausen :21/:51, IR70 Zug :29 - Thalwil :42 - Zürich HB, all
day, both ways."""

from __future__ import annotations

import json

import pytest
import requests

from tests.support.inline_day import ROUTES, day_argv, inline_day, line_service, stops_txt
from tests.support.webserver import run_cli

DAY: list[str] = []  # the day's --feed, --date and --game (filled by ``site``)

pytestmark = pytest.mark.long  # one worker runs a module (--dist loadfile)


def _write_day(folder) -> list[str]:
    hours = range(6, 22)
    lines = [line_service("S1", [("Baar", 0), ("Zug", 5), ("Cham", 11), ("Rotkreuz", 18)],
                          [f"{h:02d}:{m}" for h in hours for m in ("01", "31")]),
             line_service("S2", [("Zug", 0), ("Steinhausen", 6)], [f"{h:02d}:{m}" for h in hours for m in ("15", "45")]),
             line_service("IR70", [("Zug", 0), ("Thalwil", 13), ("Zürich HB", 23)], [f"{h:02d}:29" for h in hours])]
    return day_argv(inline_day(
        folder, routes=ROUTES, stops=stops_txt("Baar", "Zug", "Cham", "Rotkreuz", "Steinhausen", "Thalwil", "Zürich HB"),
        trips="route_id,service_id,trip_id\n" + "".join(t for t, _ in lines),
        stop_times="trip_id,arrival_time,departure_time,stop_id,stop_sequence\n" + "".join(st for _, st in lines)))


@pytest.fixture(scope="module")
def site(web_server, tmp_path_factory, session_cache):
    with pytest.MonkeyPatch.context() as mp:  # the tests' cache (module fixtures come before the autouse one)
        mp.setenv("PLANNER_CACHE", str(session_cache))
        DAY[:] = _write_day(tmp_path_factory.mktemp("ledger-api-day"))
    p = run_cli(web_server.env, "game", "new", "--name", "Test day", "--groups", "Rot,Blau,Gelb", *DAY, "--json")
    assert p.returncode == 0, p.stderr
    return {"env": web_server.env, "url": web_server.url, "game": json.loads(p.stdout)}


class Phone:
    """One group's phone: its token and the game's API."""

    def __init__(self, site, number: int):
        self.base = f"{site['url']}/api/games/{site['game']['game']}/groups/{number}"
        self.headers = {"Authorization": f"Bearer {site['game']['groups'][number - 1]['token']}"}

    def post(self, path: str, body: dict, ok: bool = True) -> dict:
        r = requests.post(self.base + path, json=body, headers=self.headers, timeout=60)
        assert (r.status_code == 200) == ok, (r.status_code, r.text)
        return r.json()

    def ledger(self, **body) -> dict:
        return self.post("/ledger", body)

    def refused(self, body: dict, *needles: str) -> str:
        """A 422 whose error is one sentence naming each of ``needles``."""
        r = requests.post(self.base + "/ledger", json=body, headers=self.headers, timeout=60)
        assert r.status_code == 422, r.text
        error = r.json()["error"]
        assert all(n in error for n in needles) and "\n" not in error, error
        return error

    def now(self, time: str) -> dict:
        r = requests.get(self.base + f"/ledger?time={time}", headers=self.headers, timeout=60)
        assert r.status_code == 200, r.text
        return r.json()["now"]


def test_cards_are_drawn_kept_and_played_from_the_phone(site):
    rot = Phone(site, 1)
    rot.post("/position", {"at": "Baar", "time": "10:00"})
    kept, drawn = {}, []
    for i in range(10):  # the whole Kanzlei pile of this group, in its own order
        card = rot.ledger(event="draw", deck="kanzlei", time=f"10:{10 + i:02d}")
        assert card["deck"] == "Kanzlei" and card["kind"] == "draw" and card["title"].startswith("Kanzlei ")
        drawn.append(card["card"])
        if card["effect"] in ("out_of_jail", "six", "free_station"):
            kept[card["effect"]] = card["card"]
    assert len(set(drawn)) == 10 and set(kept) == {"out_of_jail", "six", "free_station"}
    now = rot.now("10:30")
    assert [c["key"] for c in now["cards"]] == [k for k in drawn if k in kept.values()]
    assert [(d["name"], d["left"]) for d in now["decks"]] == [("Kanzlei", 7), ("Chance", 10)]  # reshuffled: 10 - 3
    assert "ticket inspector" in now["decks"][0]["trigger"]  # the suite's server speaks English
    rot.refused({"event": "draw", "deck": "Joker", "time": "10:31"}, "no deck 'Joker'")
    rot.refused({"event": "play", "card": "chance-freiheit", "time": "10:31"}, "holds no card 'chance-freiheit'")
    # a late train puts the group in jail; its kept card gets it out
    late = rot.post("/position", {"at": "Zug", "time": "11:00", "late": 7})  # any card's jail has ended by then
    assert late["late"]["jail"] == {"station": "Zug", "since": "11:00", "until": "11:30"}
    assert late["obligation"]["kind"] == "jail" and rot.now("11:01")["jail"]["until"] == "11:30"
    rot.ledger(event="play", card=kept["out_of_jail"], time="11:05")
    assert rot.now("11:06")["jail"] is None
    free = rot.ledger(event="play", card=kept["free_station"], station="Zug", time="11:10")
    assert free["amount"] == 0 and free["message"] == "RotK 11.10 Zug"
    # the six: the roll counts as a 6 whatever the die showed
    roll = rot.post("/rolls", {"dice": 2, "time": "12:40", "roll_id": "roll-with-card-01", "card": kept["six"]})
    assert roll["kind"] == "free" and roll["card"]["kind"] == "play" and roll["card"]["card"] == kept["six"]
    assert rot.now("12:41")["cards"] == []
    again = rot.post("/rolls", {"dice": 2, "time": "12:40", "roll_id": "roll-with-card-01", "card": kept["six"]})
    assert again["replayed"] and again["seq"] == roll["seq"]  # a retry records nothing twice


def test_a_french_phone_reads_decks_cards_and_taxes_in_french(site):
    """The game file's own texts (deck names and triggers, card and tax titles) in the phone's language; the
    message every group is sent stays in the game's language (the §19 codes)."""
    gelb = Phone(site, 3)
    gelb.post("/position", {"at": "Cham", "time": "09:30"})
    r = requests.post(gelb.base + "/ledger?lang=fr", json={"event": "draw", "deck": "Kanzlei", "time": "09:31"},
                      headers=gelb.headers, timeout=60)
    assert r.status_code == 200, r.text
    card = r.json()
    assert card["title"].startswith("Chancellerie ") and card["message"].startswith("Gelb Kanzlei "), card
    r = requests.get(gelb.base + "/ledger?time=09:32&lang=fr", headers=gelb.headers, timeout=60)
    now = r.json()["now"]
    assert [d["title"] for d in now["decks"]] == ["Chancellerie", "Chance"]
    assert now["decks"][0]["trigger"] == "Un contrôleur demande à voir les billets du groupe (§14)"
    assert "Arrêt non prévu (§16.1)" in [x["title"] for x in now["taxes"]]
    german = ("Kontrolleur", "Halt", "Gefängnis", "Geburtstag", "Lotterie", "Freiheit", "Würfelziel")
    shown = json.dumps([now["decks"], now["taxes"], now["cards"], card["title"]], ensure_ascii=False)
    assert not [w for w in german if w in shown], shown


def test_taxes_the_free_parking_and_a_late_message_from_the_phone(site):
    blau = Phone(site, 2)
    blau.post("/position", {"at": "Cham", "time": "11:00"})
    tax = blau.ledger(event="tax", reason="unscheduled_stop", time="11:01")
    assert tax["amount"] == 4000 and tax["message"].startswith("BlauP 4000 P total")
    blau.refused({"event": "tax", "reason": "parking", "time": "11:02"}, "no tax 'parking'")
    assert blau.now("11:03")["parking"]["possible"] and blau.now("11:03")["parking"]["at"] == "Cham"
    r = requests.post(blau.base + "/ledger", json={"event": "parking", "empty": True, "dice": [2, 7], "time": "11:03"},
                      headers=blau.headers, timeout=60)
    assert r.status_code == 422 and "two dice, each 1-6" in r.json()["error"]
    total = blau.now("11:03")["parking"]["total"]
    emptied = blau.ledger(event="parking", empty=True, dice=[1, 4], time="11:04")
    assert emptied["amount"] == total and emptied["message"] == f"Blau P leer {total}"
    blau.refused({"event": "parking", "empty": True, "dice": [2, 3], "time": "11:05"}, "once per change")
    # the phone shares the tax's message 25 minutes after the event: §13 counts it from then
    unsent = [u["seq"] for u in blau.now("11:06")["unsent"]]
    assert tax["seq"] in unsent
    sent = blau.post(f"/messages/{tax['seq']}/sent", {"time": "11:26"})
    assert sent["sent"] == "11:26" and sent["seq"] == tax["seq"]
    assert tax["seq"] not in [u["seq"] for u in blau.now("11:27")["unsent"]]
    other = Phone(site, 3).post(f"/messages/{tax['seq']}/sent", {"time": "11:30"}, ok=False)
    assert "is group Blau's, not group Gelb's" in other["error"]


def test_a_sale_and_a_diceoff_between_phones_and_the_organisers_view(site):
    rot, blau, gelb = Phone(site, 1), Phone(site, 2), Phone(site, 3)
    gelb.post("/position", {"at": "Baar", "time": "13:00"})
    gelb.ledger(event="buy", station="Baar", time="13:01")
    offer = gelb.ledger(event="sell", station="Baar", to="Blau", amount=1500, time="13:05")
    assert offer["tell"] == "Blau"
    assert [(o["offer"], o["amount"]) for o in blau.now("13:06")["offers"]] == [(offer["seq"], 1500)]
    rot.refused({"event": "accept", "offer": offer["seq"], "time": "13:06"}, "made to group Blau, not to group Rot")
    gelb.refused({"event": "sell", "station": "Baar", "to": "Gelb", "amount": 1, "time": "13:06"}, "to itself")
    blau.post("/position", {"at": "Thalwil", "time": "12:50"})
    blau.ledger(event="buy", station="Thalwil", time="12:51")
    gelb.refused({"event": "sell", "station": "Thalwil", "to": "Rot", "amount": 1, "time": "13:06"},
                 "belongs to group Blau, not group Gelb")
    sold = blau.ledger(event="accept", offer=offer["seq"], time="13:07")
    assert sold["message"] == "BlauK 13.07 Baar von Gelb 1500"
    blau.refused({"event": "accept", "offer": offer["seq"], "time": "13:08"}, "accepted already")
    # two groups decide to buy Steinhausen in the same minute: a dice-off, each phone rolls
    for phone in (rot, gelb):
        phone.post("/position", {"at": "Steinhausen", "time": "13:50"})
    rot.ledger(event="buy", station="Steinhausen", time="13:51")
    assert gelb.ledger(event="buy", station="Steinhausen", time="13:51")["pending"]
    org = requests.get(f"{site['url']}/api/games/{site['game']['game']}",
                       headers={"Authorization": f"Bearer {site['game']['organiser']['token']}"}, timeout=60).json()
    assert [(d["name"], d["groups"]) for d in org["ledger"]["diceoffs"]] == [("Steinhausen", ["Rot", "Gelb"])]
    assert [(s["station"], s["accepted"]) for s in org["ledger"]["sales"]] == [("Baar", "13:07")]
    assert org["ledger"]["unsent"] and all({"seq", "group", "message", "tell"} <= set(u)
                                           for u in org["ledger"]["unsent"])
    rot.ledger(event="diceoff", station="Steinhausen", dice=[2, 2], time="13:52")
    rot.refused({"event": "diceoff", "station": "Steinhausen", "dice": [6, 6], "time": "13:52"},
                "rolled 4 in the dice-off for Steinhausen already")
    assert gelb.now("13:52")["diceoffs"][0]["rolled"] == {"Rot": 4}
    won = gelb.ledger(event="diceoff", station="Steinhausen", dice=[5, 6], time="13:53")
    assert won["message"] == "Gelb Steinhausen Würfeln gewonnen"
    status = json.loads(run_cli(site["env"], "ledger", "status", "--game-id", site["game"]["game"], *DAY,
                                "--json").stdout)
    assert status["diceoffs"] == [] and "Steinhausen" in [s["name"] for g in status["groups"] if g["group"] == "Gelb"
                                                          for s in g["stations"]]
