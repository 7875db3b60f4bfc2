"""Print handout (``planner handout``): A4 PDF pages render non-blank, text is searchable, PNGs at 300 dpi."""

from __future__ import annotations

import fcntl
import io
import json
import os
import re
import shutil
import subprocess
from contextlib import redirect_stdout
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from conftest import ZUG
from planner.cli import main
from planner.maps import assets

POPPLER = all(shutil.which(t) for t in ("pdfinfo", "pdftoppm", "pdftotext"))
pytestmark = pytest.mark.skipif(not POPPLER, reason="poppler-utils not installed (make system-deps)")
A4_PT = (595, 842)  # portrait, points


@pytest.fixture(scope="session")
def handout(tmp_path_factory) -> dict:
    """One handout of the demo day (PDF + 300 dpi PNG pages), made once even with pytest-xdist workers."""
    base = tmp_path_factory.getbasetemp()
    root = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "handout"
    root.mkdir(parents=True, exist_ok=True)
    with open(root / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the other worker waits, then reads the result
        if not (root / "result.json").is_file():
            assets.ensure()
            buf = io.StringIO()
            with redirect_stdout(buf):
                rc = main(["handout", "--feed", str(ZUG), "--game", "sbb-monopoly", "--date", "2021-09-11",
                           "--out", str(root / "handout.pdf"), "--json"])
            assert rc == 0
            (root / "result.json").write_text(buf.getvalue(), "utf-8")
    return json.loads((root / "result.json").read_text("utf-8"))


def _pdfinfo(pdf: Path) -> dict[str, str]:
    out = subprocess.run(["pdfinfo", "-f", "1", "-l", "99", str(pdf)], capture_output=True, text=True, check=True)
    return dict(re.findall(r"^([^:]+):\s*(.*)$", out.stdout, flags=re.M))


def test_pages_and_sizes(handout):
    pdf = Path(handout["pdf"])
    info = _pdfinfo(pdf)
    assert int(info["Pages"]) == handout["pages"] == 2  # the map, one station-list page for 69 stations
    sizes = [tuple(round(float(x)) for x in re.findall(r"[\d.]+", info[f"Page    {k} size"])[:2])
             for k in range(1, 3)]
    assert sizes[0] == A4_PT[::-1]  # the map: A4 landscape
    assert sizes[1] == A4_PT  # the list: A4 portrait
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
    page2 = text.split("\f")[1]
    assert re.search(r"Zürich Oerlikon\s+★ 2\s+regional\s+1'000", page2)
    assert re.search(r"Zug\s+IC/EC\s+4'000", page2)
    # the game file's price override; (issue 10) regional: in this extract only S26 stop there in game hours
    assert re.search(r"Olten\s+regional\s+1'000", page2)
    assert "Z – 15 station(s), 5 group(s)" in page2
    assert "G – 1 station(s), no group (needs 3)" in page2


def test_png_pages_at_300_dpi(handout):
    assert len(handout["png"]) == handout["pages"]
    first = Image.open(handout["png"][0])
    assert abs(first.size[0] - 3508) <= 2 and abs(first.size[1] - 2480) <= 2  # A4 landscape at 300 dpi
    assert round(first.info["dpi"][0]) == 300
    px = np.asarray(first.convert("L").reduce(8))
    assert (px < 200).mean() > 0.01
