"""Print handout (``planner handout``): A4 PDF pages render non-blank, text is searchable, PNGs at 300 dpi."""

from __future__ import annotations

import fcntl
import html
import io
import json
import os
import re
import shutil
import subprocess
from contextlib import redirect_stdout
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from planner.cli import main
from planner.maps import assets
from tests.support import ZUG

pytestmark = pytest.mark.needs_shared  # reads ../shared (tests/project/test_suite_without_shared.py)

POPPLER = all(shutil.which(t) for t in ("pdfinfo", "pdftoppm", "pdftotext"))


@pytest.fixture(autouse=True)
def _poppler_installed():
    """The house rule is no skipped tests: a missing poppler-utils fails here, saying how to get it."""
    assert POPPLER, "poppler-utils not installed: run `make system-deps`"


A4_PT = (595, 842)  # portrait, points


def _make(tmp_path_factory, game: str) -> dict:
    """One handout of the demo day for ``game`` (PDF + 300 dpi PNG pages), made once even with pytest-xdist."""
    base = tmp_path_factory.getbasetemp()
    root = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / f"handout-{game}"
    root.mkdir(parents=True, exist_ok=True)
    with open(root / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the other worker waits, then reads the result
        if not (root / "result.json").is_file():
            assets.ensure()
            buf = io.StringIO()
            with redirect_stdout(buf):
                rc = main(["handout", "--feed", str(ZUG), "--game", game, "--date", "2021-09-11",
                           "--out", str(root / "handout.pdf"), "--json"])
            assert rc == 0
            (root / "result.json").write_text(buf.getvalue(), "utf-8")
    return json.loads((root / "result.json").read_text("utf-8"))


@pytest.fixture(scope="session")
def handout(tmp_path_factory) -> dict:
    """The SBB-Monopoly handout of the demo day."""
    return _make(tmp_path_factory, "sbb-monopoly")


@pytest.fixture(scope="session")
def nws_handout(tmp_path_factory) -> dict:
    """The Nordwestschweiz handout of the demo day (few of its stations are in the Zug extract)."""
    return _make(tmp_path_factory, "nordwestschweiz")


@dataclass(frozen=True)
class Word:
    """A word of a PDF page and its box (points, origin top left), as ``pdftotext -bbox`` reports it."""

    text: str
    x0: float
    y0: float
    x1: float
    y1: float


def words(pdf: str | Path, page: int) -> list[Word]:
    """The words of one page of ``pdf``."""
    out = subprocess.run(["pdftotext", "-bbox", "-f", str(page), "-l", str(page), str(pdf), "-"],
                         capture_output=True, text=True, check=True).stdout
    found = re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', out)
    return [Word(html.unescape(t), float(a), float(b), float(c), float(d)) for a, b, c, d, t in found]


def overlapping(ws: list[Word], tol: float = 0.3) -> list[tuple[str, str]]:
    """Pairs of words whose boxes overlap by more than ``tol`` points both ways."""
    out = []
    for i, a in enumerate(ws):
        for b in ws[i + 1:]:
            if min(a.x1, b.x1) - max(a.x0, b.x0) > tol and min(a.y1, b.y1) - max(a.y0, b.y0) > tol:
                out.append((a.text, b.text))
    return out


def _pdfinfo(pdf: Path) -> dict[str, str]:
    out = subprocess.run(["pdfinfo", "-f", "1", "-l", "99", str(pdf)], capture_output=True, text=True, check=True)
    return dict(re.findall(r"^([^:]+):\s*(.*)$", out.stdout, flags=re.M))


def test_pages_and_sizes(handout):
    pdf = Path(handout["pdf"])
    info = _pdfinfo(pdf)
    # the map, the rules card, one station-list page for 69 stations
    assert int(info["Pages"]) == handout["pages"] == 3
    sizes = [tuple(round(float(x)) for x in re.findall(r"[\d.]+", info[f"Page    {k} size"])[:2])
             for k in range(1, 4)]
    assert sizes[0] == A4_PT[::-1]  # the map: A4 landscape
    assert sizes[1] == sizes[2] == A4_PT  # the rules card and the list: A4 portrait
    assert info["Title"].startswith("SBB-Monopoly")


def test_every_page_renders_non_blank(handout, tmp_path):
    subprocess.run(["pdftoppm", "-r", "40", "-png", handout["pdf"], str(tmp_path / "page")], check=True)
    pages = sorted(tmp_path.glob("page-*.png"))
    assert len(pages) == handout["pages"]
    for p in pages:
        px = np.asarray(Image.open(p).convert("L"))
        ink = float((px < 200).mean())
        assert ink > 0.01, (p.name, ink)  # text and drawing, not an empty page
    # the map page: mostly drawn area (land, lakes, lines), not paper
    px = np.asarray(Image.open(pages[0]).convert("RGB")).astype(int)
    lake = (np.abs(px - np.array([0xA9, 0xD3, 0xF2])).max(axis=2) < 12).mean()
    land = (np.abs(px - np.array([0xF6, 0xF3, 0xEA])).max(axis=2) < 6).mean()
    assert lake > 0.003 and land > 0.3, (lake, land)


def test_text_is_searchable(handout):
    text = subprocess.run(["pdftotext", "-layout", handout["pdf"], "-"], capture_output=True, text=True,
                          check=True).stdout
    for s in ("SBB-Monopoly – game area", "Source: opentransportdata.swiss", "Luzern–Rotkreuz", "Hauenstein",
              "Zürich Oerlikon", "Emmenbrücke", "Affoltern am Albis", "Arth-Goldau", "stations to buy",
              "EPSG:2056", "km"):
        assert s in text, s
    page2 = text.split("\f")[2]  # the station list (page 3)
    assert re.search(r"Zürich Oerlikon\s+★ 2\s+regional\s+1,000", page2)
    assert re.search(r"Zug\s+IC/EC\s+4,000", page2)
    # the game file's price override; regional: in this extract only S26 stop there in game hours
    assert re.search(r"Olten\s+regional\s+1,000", page2)
    assert "Z – 15 stations, 5 groups" in page2
    assert "G – 1 station, no group (needs 3)" in page2


def test_png_pages_at_300_dpi(handout):
    assert len(handout["png"]) == handout["pages"]
    first = Image.open(handout["png"][0])
    assert abs(first.size[0] - 3508) <= 2 and abs(first.size[1] - 2480) <= 2  # A4 landscape at 300 dpi
    assert round(first.info["dpi"][0]) == 300
    px = np.asarray(first.convert("L").reduce(8))
    assert (px < 200).mean() > 0.01


@pytest.mark.parametrize("game", ["sbb-monopoly", "nordwestschweiz"])
def test_map_labels_do_not_overlap(handout, nws_handout, game):
    h = handout if game == "sbb-monopoly" else nws_handout
    ws = words(h["pdf"], 1)
    names = {w.text for w in ws}
    assert overlapping(ws) == []
    # the labels are there: targets, toll lines, fast-train stations (categories from the trains in game hours,
    # Olten, Dulliken, Däniken and Schönenwerd are regional in this extract and carry no label)
    want = {"sbb-monopoly": {"Thalwil", "Baar", "Rotkreuz", "Emmenbrücke", "Wohlen", "Olten–Aarau", "Luzern–Rotkreuz",
                             "Affoltern", "Albis"},
            "nordwestschweiz": {"Olten", "Aarau", "Adlertunnel", "Basel", "SBB–Muttenz"}}[game]
    assert want <= names, want - names
    assert not [w for w in h["warnings"] if "labels left out" in w]


def _page1(h: dict) -> str:
    return subprocess.run(["pdftotext", "-f", "1", "-l", "1", "-layout", h["pdf"], "-"], capture_output=True,
                          text=True, check=True).stdout


def test_the_legend_says_what_the_area_outline_is(handout, nws_handout):
    text = _page1
    assert "game area (ring)" in text(handout)
    nws = text(nws_handout)
    assert "ring" not in nws and "game area (polygon of the game file)" in nws


def _page_text(pdf: str, page: int) -> str:
    """The page's words in reading order, one space between (wrapped lines joined)."""
    return " ".join(subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-layout", pdf, "-"],
                                   capture_output=True, text=True, check=True).stdout.split())


def test_rules_card_sbb_monopoly(handout, sbb_game):
    text = _page_text(handout["pdf"], 2)
    assert "SBB-Monopoly – rules card" in text and "page 2" in text
    assert "Game 09:00–17:55 on Saturday, September 11, 2021; dice from 12:30" in text
    # the dice table: every number with its stations; those the Zug extract lacks marked
    assert re.search(r"1\s+Sissach† · Biel/Bienne† · Wolhusen† · Sihlbrugg†", text)
    assert re.search(r"2\s+Wohlen AG · Zürich Oerlikon · Herzogenbuchsee† · Konolfingen†", text)
    assert re.search(r"6\s+60 minutes free movement", text) and "white" not in text
    # toll lines and tunnels with their prices and fees
    assert re.search(r"Luzern–Rotkreuz\s+Luzern – Rotkreuz\s+4,000", text)
    assert re.search(r"Heitersberg\s+Mellingen Heitersberg – Killwangen-Spreitenbach\s+3,000", text)
    assert "500 / 1,000 / 2,000 / 4,000 when the owner has 1 / 2 / 3 / 4" in text
    assert "times 80 (owner has 1 tunnel) or 200 (owner has 2 tunnels)" in text
    assert re.search(r"receives 4,000; 8,000 instead\s+when the train the group sits in", text)
    # the game has the rule, so the card prints it
    assert sbb_game.window is not None and sbb_game.window.minutes == 29
    assert "29-minute rule" in text and "take a train departing by t + 29 min" in text


def test_rules_card_nordwestschweiz(nws_handout):
    text = _page_text(nws_handout["pdf"], 2)
    assert "Game 09:01–15:30 on Saturday, September 11, 2021; dice rules from 11:00, first roll at 11:30" in text
    assert "The dice rules apply from 11:00. Roll two dice (white = tens, coloured = ones) for the first time at 11:30" in text
    assert "any way at most 20 minutes longer" in text and "Roll again 5 minutes before reaching the target" in text
    assert re.search(r"21\s+Bretzwil, Dorf†", text) and re.search(r"16\s+Aarau\s", text)
    assert re.search(r"55\s+tunnel Adlertunnel", text) and re.search(r"61–66\s+60 minutes free movement \(white 6\)", text)
    assert re.search(r"Hölstein–Niederdorf\s+Hölstein, Station – Niederdorf, Station\s+4,000", text)
    assert "minute rule" not in text  # variant B has no such rule
    # the Waldenburgerbahn is off the SBB network and not in the Zug extract: said as such, not "outside the area"
    assert ("Hölstein–Niederdorf: not drawn: off the SBB line network, and Hölstein, Station, Niederdorf, Station "
            "not in this timetable") in nws_handout["warnings"]
    assert re.search(r"departure or an arrival\s+at :00/:01", text)


def test_the_minute_rule_comes_from_the_game(sbb_game, zug_tt):
    import dataclasses

    from planner.gamefile.rules import ChangeWindow
    from planner.maps.rules_card import card

    titles = [s.title for s in card(zug_tt, sbb_game)]
    assert titles == ["Times", "Dice", "Toll lines", "Tunnels", "Stations: building and fees", "Full hour",
                      "29-minute rule"]
    twenty = dataclasses.replace(sbb_game, window=ChangeWindow(20))
    sections = {s.title: s for s in card(zug_tt, twenty)}
    assert "20-minute rule" in sections and "29-minute rule" not in sections
    assert "t + 20 min" in sections["20-minute rule"].paragraphs[0]
    assert not any("minute rule" in s.title for s in card(zug_tt, dataclasses.replace(sbb_game, window=None)))
