"""Fuzzing of the files users write: game files, legs, batch and owners files (as test_fuzz_feeds does for
feeds). Seeded mutations of valid files; every outcome is an answer or one clear line, never exit 3. The day is
the real-time demo's, written in tests/support/inline_day.py.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
import re
from pathlib import Path

import pytest

from planner.cli import main
from planner.errors import PlannerError
from planner.gamefile.game import load_game
from tests.support import ROOT
from tests.support.inline_day import day_argv, demo_day

DAY: list[str] = []  # the demo day's --feed, --date and --game, filled for each test


@pytest.fixture(autouse=True)
def _demo_day(tmp_path):
    DAY[:] = day_argv(demo_day(tmp_path / "day"))
    yield
    DAY.clear()


GAMES = [(ROOT / "planner" / "games" / f"{g}.toml").read_text("utf-8") for g in ("sbb-monopoly", "nordwestschweiz")]
IR70 = "IR70-1029"  # Zug 10:29 - Rotkreuz - Luzern: over the toll line Luzern–Rotkreuz

# TOML values of every type and edge (as text), to put where a valid value was.
VALUES = ["nan", "inf", "-inf", "-1", "0", "1", "61", "100000000000", "1.5", "-0.0", "true", "false", '""', '"x"',
          '"Zug"', '"12:99"', '"25:00"', "[]", "[1, \"a\"]", "[[1]]", '["Zug", 2]', "{}", "{ a = 1 }",
          '{ "Olten" = "x" }', "1979-05-27", "[" * 40 + "]" * 40, '"' + "x" * 5000 + '"']


_KEY = re.compile(r'^\s*[\w"]+\s*=')
_INNER = re.compile(r'(\w+) = ("[^"]*"|-?[\d.]+)')


def mutate_toml(rng: random.Random, text: str) -> str:
    """One to three edits: a value replaced, a line dropped, duplicated or cut, bytes inserted."""
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines))
        op = rng.random()
        inner = list(_INNER.finditer(lines[i]))
        if op < 0.6 and _KEY.match(lines[i]) and not lines[i].lstrip().startswith("{"):
            key = lines[i].split("=", 1)[0]
            lines[i] = f"{key}= {rng.choice(VALUES)}"
        elif op < 0.6 and inner:  # one value inside an inline table or array
            m = rng.choice(inner)
            lines[i] = lines[i][: m.start(2)] + rng.choice(VALUES) + lines[i][m.end(2):]
        elif op < 0.7:
            del lines[i]
        elif op < 0.8:
            lines.insert(i, lines[i])
        elif op < 0.9:
            lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
        else:
            lines[i] = lines[i] + rng.choice(["\x00", "\ufeff", "]", "[", "{", "\"", "#", "é", "\r"])
    return "\n".join(lines)


def _one_line(err: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("planner: error: ") and "internal error" not in lines[0], err
    return lines[0]


@pytest.mark.parametrize("seed", range(4))
def test_fuzzed_game_files(tmp_path, seed):
    rng = random.Random(seed)
    accepted = 0
    for case in range(100):
        text = mutate_toml(rng, GAMES[case % 2])
        path = tmp_path / f"g{case}.toml"
        path.write_text(text, "utf-8", errors="surrogatepass")
        try:
            g = load_game(path)
        except PlannerError as exc:
            msg = str(exc)
            assert msg.startswith(f"game file {path}") and "\n" not in msg.strip(), msg
            continue
        accepted += 1
        # What the rules divide by, index or compare with is sane in any accepted game.
        assert g.clock.start < g.clock.end and g.clock.start <= g.clock.dice_from <= g.clock.end
        assert g.dice.free_minutes >= 1 and g.bonus.minutes and g.toll_fees and g.tunnel_multipliers
        assert g.letter_group_size >= 1 and len(g.polygon) >= 3
        assert all(math.isfinite(x) for x in (g.default_change_minutes, g.ring_tolerance_m))
        assert all(isinstance(s, str) and s for t in g.dice.targets for s in t.stations)
    assert accepted > 0  # the mutations also leave valid files, which must still load


def _fuzz_csv(rng: random.Random, header: str, rows: list[str]) -> bytes:
    text = header + "\n" + "\n".join(rng.sample(rows, k=rng.randint(0, len(rows)))) + "\n"
    op = rng.random()
    if op < 0.15:
        return text.encode("latin-1", errors="replace")
    if op < 0.25:
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 600)))
    if op < 0.35:
        return text.replace(",", rng.choice([";", "\t", ",,", '"'])).encode()
    if op < 0.45:
        return (text + "Zug," + "x" * rng.choice([100, 20_000, 200_000]) + ",10:00,10:30\n").encode()
    if op < 0.55:
        return text.replace("\n", rng.choice(["\r", "\r\n", "\n\n", "\x00\n"])).encode()
    if op < 0.65:
        cut = rng.randrange(len(text) + 1)
        return text[:cut].encode()
    if op < 0.75:
        return ("\ufeff" + text.replace("Zug", rng.choice(["%s%n", "-", ".", "\u200b", "Zugg", "Ba", "'"]))).encode()
    return text.encode()


LEGS = ["Zug,Luzern,10:03,10:25", "Luzern,Rotkreuz,10:40,10:55", "Zug,Baar,12:25,12:03", "Zug,Zug,10:00,10:00",
        "Rotkreuz,Zug,25:00,25:30", "Zug,Luzern,10:61,11:00", "Zug,Luzern,,", "Zug,Luzern,10:03"]
BATCH = ["Zug,Luzern,10:00", "Baar,Rotkreuz,12:30,", "Zug,Luzern,10:00,no.such.trip", "Zug,Nowhere,10:00",
         "Zug,Luzern,99:99", "Zug,Luzern,", ",,"]


@pytest.mark.parametrize("kind", ["legs", "batch", "owners"])
def test_fuzzed_user_files(kind, tmp_path, capsys):
    rng = random.Random(kind)
    for case in range(30):
        path = tmp_path / f"{kind}{case}"
        if kind == "legs":
            path.write_bytes(_fuzz_csv(rng, "from,to,departure,arrival", LEGS))
            argv = ["zugzwang", *DAY, "--check", str(path)]
        elif kind == "batch":
            path.write_bytes(_fuzz_csv(rng, "from,to,time,trip", BATCH))
            argv = ["route", *DAY, "--batch", str(path)]
        else:
            base = '[owners]\n"Luzern–Rotkreuz" = "group 2"\n"Olten-Aarau" = "group 1"\n"Zug" = "group 3"\n'
            path.write_text(mutate_toml(rng, base), "utf-8", errors="surrogatepass")
            argv = ["tolls", *DAY, "--trip", IR70, "--json", "--owners", str(path)]
        rc = main(argv)
        cap = capsys.readouterr()
        assert rc in (0, 1, 2), (rc, cap.err)
        if rc == 2:
            _one_line(cap.err)
            continue
        assert cap.err.strip() == ""
        if kind == "batch":
            for line in cap.out.splitlines():
                json.loads(line)
        elif kind == "owners":
            for c in json.loads(cap.out)["crossings"]:
                assert c["owner"] is None or isinstance(c["owner"], str)


def test_mutations_are_deterministic():
    # The fuzz cases must be the same on every run (a failure is reproducible by its seed).
    assert mutate_toml(random.Random(1), GAMES[0]) == mutate_toml(random.Random(1), GAMES[0])
    assert Path(DAY[DAY.index("--feed") + 1]).is_file()


def test_accepted_fuzzed_games_answer(tmp_path, capsys):
    # A mutated game file the schema accepts must also be answerable: no exit 3 further down.
    rng = random.Random(7)
    original = load_game("sbb-monopoly")
    games: list[Path] = []
    for case in range(400):
        path = tmp_path / f"g{case}.toml"
        path.write_text(mutate_toml(rng, GAMES[0]), "utf-8", errors="surrogatepass")
        try:
            g = load_game(path)
        except PlannerError:
            continue
        if dataclasses.replace(g, source=original.source, digest=original.digest) == original:
            continue  # only a comment changed
        games.append(path)
        if len(games) == 3:
            break
    assert len(games) == 3
    for path in games:
        for argv in (["target", "--at", "Zug", "--time", "13:00", "--roll", "2"], ["bonus", "--at", "Zug", "--time",
                                                                                    "12:40"]):
            rc = main([*argv, *DAY, "--game", str(path), "--json"])
            err = capsys.readouterr().err
            assert rc in (0, 2), err
            if rc == 2:
                _one_line(err)
