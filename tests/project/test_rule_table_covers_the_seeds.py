"""docs/rules-on-the-phone.md covers every paragraph of both seeds, and names only real commands.

The seeds (the original German rule documents) live in ``../shared/seeds`` (``$PLANNER_SHARED``): ``000_*.txt`` is
variant A (SBB-Monopoly), ``001_*.txt`` variant B (Nordwestschweiz). Each numbered paragraph (``§4.2 Zugzwang:``, the
number alone on its line in variant B's ``§11`` / ``Gebühren-Strecken:``) must have a row of its variant's table
whose first cell names the number and the paragraph's first word (the seeds number two paragraphs "§9.1": the word
tells them apart); so must the unnumbered blocks below. Every backquoted ``planner ...`` command of the page must be
a command (and action) of the real parser, with options that command has, and every card of variant B's game file
must be named by its key.
"""

from __future__ import annotations

import argparse
import re
import tomllib
from functools import cache

import pytest

from planner.cli import build_parser
from tests.support import ROOT, SHARED

pytestmark = pytest.mark.needs_shared  # reads ../shared (tests/project/test_suite_without_shared.py)

DOC = ROOT / "docs" / "rules-on-the-phone.md"
SEEDS = SHARED / "seeds"
VARIANTS = {"A": "000_*.txt", "B": "001_*.txt"}

# The seeds' blocks without a § number (each must start a line of its seed, and have its row).
UNNUMBERED = {
    "A": ["Gestern erzählte ich euch", "Würfelzahl-Bahnhöfe", "Startkapital", "Honorar", "Schulden", "Beispiele",
          "Hier gehts zum vollständigen Regelwerk"],
    "B": ["Nordwestschweiz-Monopoly-Spiel", "Datum:", "Startkapital", "Honorar", "Schulden", "Kanzlei-Kärtchen",
          "Chance-Kärtchen", "Finanzprotokoll", "Schlussabrechnung"],
}

PARAGRAPH = re.compile(r"^§\s*(\d+(?:\.\d+)*)\.?[ \t]*(.*)$", re.MULTILINE)


def seed_text(variant: str) -> str:
    found = sorted(SEEDS.glob(VARIANTS[variant]))
    assert found, f"no seed {VARIANTS[variant]} in {SEEDS} (the seeds live in ../shared; set $PLANNER_SHARED)"
    return found[0].read_text(encoding="utf-8")


def paragraphs(text: str) -> list[tuple[str, str]]:
    """The seed's numbered paragraphs: (number, first word of its text), the text on the next line when the number
    stands alone on its line."""
    out = []
    for m in PARAGRAPH.finditer(text):
        rest = m.group(2).strip()
        if not rest:
            rest = next(line.strip() for line in text[m.end():].splitlines() if line.strip())
        out.append((m.group(1), rest.split()[0].strip(":.,")))
    return out


def first_cells(variant: str) -> list[str]:
    """The first cells of the rows of the page's table for ``variant`` (its "## Variant X" section, up to the
    next heading)."""
    cells, inside = [], False
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            inside = line.startswith(f"## Variant {variant}:")
            continue
        if inside and line.startswith("| ") and not line.startswith("| seed paragraph"):
            cells.append(line[2:].split(" | ")[0])
    return cells


@pytest.mark.parametrize("variant", ["A", "B"])
def test_every_numbered_paragraph_has_its_row(variant: str) -> None:
    found = paragraphs(seed_text(variant))
    assert len(found) >= 30, f"variant {variant}: only {len(found)} paragraphs parsed from the seed"
    cells = first_cells(variant)
    missing = [f"§{num} {word}" for num, word in found
               if not any(re.search(rf"§{re.escape(num)}(?![.\d])", c) and word in c for c in cells)]
    assert missing == [], f"variant {variant}: paragraphs without a row in {DOC.name}"


@pytest.mark.parametrize("variant", ["A", "B"])
def test_every_unnumbered_block_has_its_row(variant: str) -> None:
    lines = [line.strip() for line in seed_text(variant).splitlines()]
    for head in UNNUMBERED[variant]:
        assert any(line.startswith(head) for line in lines), f"variant {variant}: {head!r} starts no line of the seed"
    cells = first_cells(variant)
    missing = [head for head in UNNUMBERED[variant] if not any(head in c for c in cells)]
    assert missing == [], f"variant {variant}: blocks without a row in {DOC.name}"


@cache
def commands() -> dict[tuple[str, ...], argparse.ArgumentParser]:
    """Every command and action of the real parser: ("ledger", "buy") -> its parser."""
    out: dict[tuple[str, ...], argparse.ArgumentParser] = {}

    def walk(parser: argparse.ArgumentParser, path: tuple[str, ...]) -> None:
        out[path] = parser
        for action in parser._actions:  # argparse has no public walk over its subcommands
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, (*path, name))

    walk(build_parser(), ())
    return out


def has_actions(parser: argparse.ArgumentParser) -> bool:
    return any(isinstance(a, argparse._SubParsersAction) for a in parser._actions)


def test_every_command_in_the_table_is_real() -> None:
    spans = re.findall(r"`planner ([^`]+)`", DOC.read_text(encoding="utf-8"))
    assert len(spans) > 50
    known = commands()
    wrong = []
    for span in spans:
        words = span.split()
        path: tuple[str, ...] = ()
        for w in words:
            if (*path, w) in known and has_actions(known[path]):
                path = (*path, w)
            else:
                break
        parser = known[path]
        if not path or has_actions(parser):
            wrong.append(f"planner {span}: not a command{' and action' if path else ''}")
            continue
        options = {o for a in parser._actions for o in a.option_strings}
        for w in words:
            opt = w.strip("[]").split("=")[0]
            if opt.startswith("--") and opt not in options:
                wrong.append(f"planner {span}: {' '.join(path)} has no option {opt}")
    assert wrong == [], "\n".join(wrong)


def test_every_card_of_the_game_file_is_named() -> None:
    game = tomllib.loads((ROOT / "planner" / "games" / "nordwestschweiz.toml").read_text(encoding="utf-8"))
    keys = [c["key"] for c in game["ledger"]["cards"]]
    assert len(keys) == 20
    text = DOC.read_text(encoding="utf-8")
    assert [k for k in keys if f"`{k}`" not in text] == []
