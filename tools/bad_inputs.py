"""Run the bad inputs a user or organiser may give and print a Markdown table of the messages.

Usage: ``.venv/bin/python -m tools.bad_inputs`` (from the repo root; needs ../shared/data). The table of
bad inputs in docs/robustness.md is this script's output.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ZUG = ROOT.parent / "shared" / "data" / "gtfs" / "ch-zug-fp2021.zip"
BLT = ROOT / "tests" / "fixtures" / "blt"
DAY = ["--feed", str(ZUG), "--date", "2021-09-11"]


def cases(tmp: Path) -> list[tuple[str, list[str]]]:
    """(description, argv) pairs."""
    nost = tmp / "no-stop-times.zip"
    with zipfile.ZipFile(nost, "w") as zf:
        for f in BLT.iterdir():
            if f.name != "stop_times.txt":
                zf.write(f, f.name)
    bad = tmp / "badtime"
    shutil.copytree(BLT, bad)
    st = bad / "stop_times.txt"
    st.write_text(st.read_text().replace("10:05:00,10:05:00", "25:61:00,25:61:00"))
    trunc = tmp / "truncated.zip"
    trunc.write_bytes(ZUG.read_bytes()[: 400_000])
    game = tmp / "mygame.toml"
    game.write_text((ROOT / "planner" / "games" / "sbb-monopoly.toml").read_text("utf-8").replace(
        "[dice]\n", "[dice]\nsides = 8\n"), "utf-8")
    legs = tmp / "legs.csv"
    legs.write_text("from,to,departure\nZug,Luzern,10:03\n")
    return [*output_cases(tmp), *realtime_cases(tmp),
        ("misspelled station", ["route", *DAY, "--from", "Zugg", "--to", "Luzern", "--time", "10:00"]),
        ("ambiguous station", ["route", *DAY, "--from", "Ba", "--to", "Luzern", "--time", "10:00"]),
        ("station not in the area", ["route", *DAY, "--from", "Zug", "--to", "Winterthur", "--time", "10:00"]),
        ("date outside the feed", ["route", "--feed", str(ZUG), "--date", "2030-01-01", "--from", "Zug", "--to",
                                   "Luzern", "--time", "10:00"]),
        ("malformed date", ["feed-info", "--feed", str(ZUG), "--date", "2021-13-40"]),
        ("time out of range", ["route", *DAY, "--from", "Zug", "--to", "Luzern", "--time", "10:61"]),
        ("time after the game's end", ["target", *DAY, "--at", "Zug", "--time", "18:30", "--roll", "2"]),
        ("roll 7 (one die)", ["target", *DAY, "--at", "Zug", "--time", "13:00", "--roll", "7"]),
        ("roll 57 (variant B)", ["target", *DAY, "--game", "nordwestschweiz", "--at", "Olten", "--time", "12:00",
                                 "--roll", "57"]),
        ("dice before dice time", ["target", *DAY, "--at", "Zug", "--time", "10:00", "--roll", "2"]),
        ("unknown trip id", ["route", *DAY, "--from", "Zug", "--to", "Luzern", "--trip", "no.such.trip"]),
        ("feed path missing", ["stations", "--feed", str(tmp / "nope.zip")]),
        ("feed zip without stop_times.txt", ["stations", "--feed", str(nost), "--date", "2026-05-02"]),
        ("stop_times row with 25:61:00", ["stations", "--feed", str(bad), "--date", "2026-05-02", "--game", "none"]),
        ("truncated zip", ["stations", "--feed", str(trunc)]),
        ("game file with an unknown key", ["stations", *DAY, "--game", str(game)]),
        ("unknown game", ["stations", *DAY, "--game", "monopoly-deluxe"]),
        ("legs file missing a column", ["zugzwang", *DAY, "--check", str(legs)]),
        ("--min-transfer out of range", ["route", *DAY, "--from", "Zug", "--to", "Luzern", "--time", "10:00",
                                         "--min-transfer", "500"]),
        ("--since after --time", ["route", *DAY, "--from", "Zug", "--to", "Luzern", "--time", "10:00",
                                  "--since", "10:20"]),
        ("--since malformed", ["route", *DAY, "--from", "Zug", "--to", "Luzern", "--time", "10:00",
                               "--since", "9h7x"]),
        ("--since with --trip", ["route", *DAY, "--from", "Zug", "--to", "Luzern", "--trip", "IR75 10:03",
                                 "--since", "10:00"]),
        ("unknown option", ["route", "--bogus"]),
        ("unknown name in --visited", ["target", *DAY, "--at", "Zug", "--time", "13:00", "--roll", "2",
                                       "--visited", "Wohlen AG;Oerlikn"]),
        ("train that matches several", ["route", *DAY, "--trip", "IR75 12:35", "--from", "Zug", "--to", "Luzern"]),
        ("train at neither the stop nor its start", ["route", *DAY, "--trip", "IR75 10:03", "--from", "Rotkreuz",
                                                     "--to", "Luzern"]),
        ("roll while heading for a target", ["roll", *DAY, "--group", "rot", "--dice", "3", "--time", "13:00"]),
        ("roll earlier than the group's last", ["roll", *DAY, "--group", "Rot", "--dice", "3", "--at", "Zug",
                                                "--time", "12:35"]),
        ("roll id reused with other dice", ["roll", *DAY, "--group", "Rot", "--dice", "4", "--at", "Zug",
                                            "--time", "12:40", "--roll-id", "phone-1"]),
        ("roll after the game's end", ["roll", *DAY, "--group", "Blau", "--dice", "4", "--at", "Zug",
                                       "--time", "17:58"]),
    ]


def output_cases(tmp: Path) -> list[tuple[str, list[str]]]:
    """Outputs onto what a run keeps or reads (``planner.commands.outputs``); the feed is a copy (the guard refuses
    before anything is written, but a table is no reason to risk the shared data)."""
    feed = tmp / "day.zip"
    shutil.copyfile(ZUG, feed)
    own = ["--feed", str(feed), "--date", "2021-09-11"]
    (tmp / "state-link").symlink_to(tmp / "state.sqlite")
    (tmp / "h-join.pdf").write_text("the links an organiser keeps")
    return [
        ("simulate --trace onto the state file", ["simulate", *DAY, "--trace", str(tmp / "state.sqlite")]),
        ("--out onto a symlink to the state file", ["map", "area", *DAY, "--out", str(tmp / "state-link")]),
        ("export --out onto its own feed", ["export", *own, "--out", str(feed)]),
        ("--trace x --out x", ["simulate", *DAY, "--trace", str(tmp / "x"), "--out", str(tmp / "x")]),
        ("check-area --out into the cache", ["check-area", *DAY, "--out", str(tmp / "cache" / "r.html")]),
        ("handout pages onto its --links file", ["handout", *DAY, "--links", str(tmp / "h-join.pdf"),
                                                 "--out", str(tmp / "h.pdf")]),
    ]


def realtime_cases(tmp: Path) -> list[tuple[str, list[str]]]:
    """Real-time feeds about no day: a header time out of every calendar, a start date not written YYYYMMDD."""
    from tests.support.rt_fixtures import feed_message

    far, dashed = tmp / "far.pb", tmp / "dashed.pb"
    far.write_bytes(feed_message(2**63 - 1, []))
    dashed.write_bytes(feed_message(1631354400, [{"trip_id": "x", "start_date": "2021-09-11", "stops": []}]))
    route = ["route", *DAY, "--from", "Zug", "--to", "Luzern", "--time", "12:40", "--realtime"]
    return [("real-time header time 2^63-1", [*route, str(far)]),
            ("real-time start date 2021-09-11", [*route, str(dashed)])]


def hostile_cases(tmp: Path) -> list[tuple[str, list[str]]]:
    """The error cases of issue 14, exactly as ``tests/robustness/test_hostile_inputs.py`` builds them."""
    from tests.robustness.test_hostile_inputs import CASES

    out = []
    for i, (desc, case) in enumerate(CASES.items()):
        if case.check is not None or desc == "zip inside a zip over the limit":
            continue  # a right answer, not an error (or needs the test's lowered size limit)
        folder = tmp / f"case{i}"
        folder.mkdir()
        out.append((desc, case.argv(folder)))
    return out


# Recorded before the cases run, so the group cases have a day to check against.
SETUP = [["roll", *DAY, "--group", "Rot", "--dice", "2", "--at", "Zug", "--time", "12:40", "--roll-id", "phone-1"]]


def main() -> int:
    """Print the table."""
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        print("| bad input | exit | message |")
        print("|---|---|---|")
        env = {"PLANNER_CACHE": str(tmp / "cache"), "PLANNER_STATE": str(tmp / "state.sqlite"),
               "PATH": "/usr/bin:/bin"}
        for argv in SETUP:
            subprocess.run([sys.executable, "-m", "planner", *argv], capture_output=True, env=env, check=True)
        for desc, argv in cases(tmp) + hostile_cases(tmp):
            p = subprocess.run([sys.executable, "-m", "planner", *argv], capture_output=True, text=True, cwd=ROOT,
                               env=env)
            msg = p.stderr.strip().replace(str(tmp) + "/", "").replace(str(ROOT.parent) + "/", "../")
            msg = re.sub(r"case\d+/", "", msg).replace("|", "\\|")
            desc = desc.replace("|", "\\|")
            print(f"| {desc} | {p.returncode} | `{msg}` |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
