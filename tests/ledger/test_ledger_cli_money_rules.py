"""``planner ledger draw|play|sell|accept|tax|diceoff|sent|now`` and ``planner group position --late`` on a Zug day
and a real SQLite file: what the phone's API does, on the command line; every refusal one line, exit 2. The day is
a timetable written here: S1 Baar 09:32 - Zug 09:36/09:37 - Cham, and S1 Zug - Steinhausen 09:45 and 10:10,
S2 Cham - Steinhausen 09:15."""

from __future__ import annotations

import json

import pytest

from planner.cli import main
from tests.support import assert_one_line_error
from tests.support.inline_day import day_argv, inline_day, stop_times_txt, stops_txt

DAY: list[str] = []


@pytest.fixture(autouse=True)
def _inline_day(tmp_path):
    """The test's day: DAY is filled for it and emptied after it."""
    DAY[:] = day_argv(inline_day(
        tmp_path, stops=stops_txt("Baar", "Zug", "Cham", "Steinhausen"),
        trips="route_id,service_id,trip_id\nS1,SA,s1\nS1,SA,s2\nS1,SA,s3\nS2,SA,s4\n",
        stop_times=stop_times_txt(
            ("s1", [("Baar", "09:32", "09:32"), ("Zug", "09:36", "09:37"), ("Cham", "09:42", "09:42")]),
            ("s2", [("Zug", "09:45", "09:45"), ("Steinhausen", "09:50", "09:50")]),
            ("s3", [("Zug", "10:10", "10:10"), ("Steinhausen", "10:15", "10:15")]),
            ("s4", [("Cham", "09:15", "09:15"), ("Steinhausen", "09:20", "09:20")]))))
    yield
    DAY.clear()


def _day():
    return DAY


def ok(capsys, *argv: str) -> dict:
    rc = main([*argv, *_day(), "--json"])
    out = capsys.readouterr().out
    assert rc == 0, out
    return json.loads(out.strip().splitlines()[-1])


def refused(capsys, *argv: str) -> str:
    rc = main([*argv, *_day()])
    err = capsys.readouterr().err
    assert_one_line_error(rc, err)
    return err


def test_cards_taxes_and_jail_on_the_command_line(capsys):
    ok(capsys, "group", "position", "--group", "Rot", "--at", "Baar", "--time", "09:20")
    ok(capsys, "group", "position", "--group", "Blau", "--at", "Zug", "--time", "09:20")
    card = ok(capsys, "ledger", "draw", "--group", "Rot", "--deck", "Chance", "--time", "09:30")
    assert card["kind"] == "draw" and card["deck"] == "Chance" and card["title"].startswith("Chance ")
    assert "no deck 'Pik'" in refused(capsys, "ledger", "draw", "--group", "Rot", "--deck", "Pik", "--time", "09:31")
    assert "holds no card 'kanzlei-freiheit'" in refused(capsys, "ledger", "play", "--group", "Blau", "--card",
                                                         "kanzlei-freiheit", "--time", "09:31")
    tax = ok(capsys, "ledger", "tax", "--group", "Blau", "--reason", "unscheduled_stop", "--time", "09:40")
    assert tax["amount"] == 4000 and tax["reason"] == "unscheduled_stop"
    assert "no tax 'speeding'" in refused(capsys, "ledger", "tax", "--group", "Blau", "--reason", "speeding",
                                          "--time", "09:41")
    late = ok(capsys, "group", "position", "--group", "Blau", "--trip", "S1 09:36", "--at", "Zug", "--time", "09:36",
              "--late", "8")
    assert late["late"]["jail"] == {"station": "Zug", "since": "09:36", "until": "10:06"}
    assert late["obligation"]["kind"] == "jail"
    now = ok(capsys, "ledger", "now", "--group", "Blau", "--time", "09:40")
    assert now["jail"]["pay"] == 1000 and [d["name"] for d in now["decks"]] == ["Kanzlei", "Chance"]
    assert [t["key"] for t in now["taxes"]] == ["unscheduled_stop", "no_free_compartment"]
    paid = ok(capsys, "ledger", "parking", "--group", "Blau", "--reason", "jail", "--time", "09:41")
    assert paid["message"] == f"BlauP 1000 P total {now['parking']['total'] + 1000}"
    assert ok(capsys, "ledger", "now", "--group", "Blau", "--time", "09:42")["jail"] is None
    rc = main(["group", "position", "--group", "Blau", "--at", "Zug", "--time", "09:43", "--late", "x", *_day()])
    assert_one_line_error(rc, capsys.readouterr().err, "--late")


def test_a_sale_a_diceoff_and_a_message_sent_on_the_command_line(capsys):
    ok(capsys, "group", "position", "--group", "Rot", "--at", "Zug", "--time", "09:00")
    ok(capsys, "ledger", "buy", "--group", "Gelb", "--station", "Cham", "--time", "09:10")
    sale = ok(capsys, "ledger", "sell", "--group", "Gelb", "--station", "Cham", "--to", "Rot", "--amount", "2500",
              "--time", "09:20")
    assert sale["to"] == "Rot" and sale["amount"] == 2500 and sale["tell"] == "Rot"
    assert "to itself" in refused(capsys, "ledger", "sell", "--group", "Gelb", "--station", "Cham", "--to", "Gelb",
                                  "--amount", "1", "--time", "09:21")
    assert "made to group Rot, not to group Blau" in refused(capsys, "ledger", "accept", "--group", "Blau",
                                                             "--offer", str(sale["seq"]), "--time", "09:22")
    done = ok(capsys, "ledger", "accept", "--group", "Rot", "--offer", str(sale["seq"]), "--time", "09:25")
    assert done["transfers"] == [["Rot", "Gelb", 2500]]
    assert "accepted already" in refused(capsys, "ledger", "accept", "--group", "Rot", "--offer", str(sale["seq"]),
                                         "--time", "09:26")
    org = ok(capsys, "ledger", "now")
    assert [(s["station"], s["accepted"]) for s in org["sales"]] == [("Cham", "09:25")]
    # §7.2: two groups decide to buy Steinhausen in the same minute
    ok(capsys, "ledger", "buy", "--group", "Rot", "--station", "Steinhausen", "--time", "10:00")
    assert ok(capsys, "ledger", "buy", "--group", "Gelb", "--station", "Steinhausen", "--time", "10:00")["pending"]
    rc = main(["ledger", "diceoff", "--station", "Steinhausen", "--roll", "T39=42", "--time", "10:05", *_day()])
    assert_one_line_error(rc, capsys.readouterr().err, "T39=42", "2-12")
    ok(capsys, "ledger", "diceoff", "--group", "Rot", "--station", "Steinhausen", "--dice", "3,3", "--time", "10:05")
    assert "rolled 6 in the dice-off for Steinhausen already" in refused(
        capsys, "ledger", "diceoff", "--group", "Rot", "--station", "Steinhausen", "--dice", "6,6", "--time", "10:06")
    won = ok(capsys, "ledger", "diceoff", "--group", "Gelb", "--station", "Steinhausen", "--dice", "6,5",
             "--time", "10:06")
    assert won["message"] == "Gelb Steinhausen Würfeln gewonnen"
    # §13: the fee's message went out 20 minutes late
    fee = ok(capsys, "ledger", "pay", "--group", "Blau", "--station", "Steinhausen", "--time", "10:30")
    sent = ok(capsys, "ledger", "sent", "--group", "Blau", str(fee["seq"]), "--time", "10:50")
    assert sent["sent"] == "10:50" and ["Blau", "Gelb", fee["amount"] // 10] in sent["transfers"]
    assert "group Blau's, not group Rot's" in refused(capsys, "ledger", "sent", "--group", "Rot", str(fee["seq"]),
                                                      "--time", "10:51")
