"""The handout's join page (``planner handout --links GAME.json``): one QR code per group that a phone can scan.

The PDF is rasterised by poppler (pdftoppm) and the codes read back by OpenCV's QR detector: each must give
exactly its group's join link; the group names are searchable text.
"""

from __future__ import annotations

import json
import subprocess

import cv2

from planner.cli import main
from planner.maps.join_codes import PER_PAGE, write_join_pages
from tests.support.inline_day import day_argv, demo_day


def decode_pages(pdf, tmp_path) -> list[set[str]]:
    subprocess.run(["pdftoppm", "-r", "110", "-png", str(pdf), str(tmp_path / "page")], check=True)
    out = []
    for png in sorted(tmp_path.glob("page-*.png")):
        img = cv2.imread(str(png))
        found = set()
        for k in range(PER_PAGE):  # one code at a time: its cell of the 2 x 3 grid
            h, w = img.shape[:2]
            col, row = k % 2, k // 2
            cell = img[int(h * (0.06 + row * 0.3)):int(h * (0.38 + row * 0.3)), int(w * col / 2):int(w * (col + 1) / 2)]
            text, _, _ = cv2.QRCodeDetector().detectAndDecode(cell)
            if text:
                found.add(text)
        out.append(found)
    return out


def test_join_pages_scan_back_to_each_groups_link(tmp_path):
    links = [(f"Gruppe {i}", f"https://game.example/join?t=tok{i:02d}-" + "x" * 40) for i in range(1, 8)]
    links[2] = ("<b>Rot</b> & Blau", links[2][1])
    pdf = tmp_path / "join.pdf"
    assert write_join_pages("SBB-Monopoly", links, pdf) == 2
    assert oct(pdf.stat().st_mode & 0o777) == "0o600"  # the links are the groups' keys
    pages = decode_pages(pdf, tmp_path)
    assert pages == [{u for _, u in links[:PER_PAGE]}, {u for _, u in links[PER_PAGE:]}]
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert all(name in text for name, _ in links)


def test_each_code_has_its_link_printed_beside_it(tmp_path):
    """A phone that cannot scan types the link: it is printed under its code (wrapped when long), in the code's
    column."""
    links = [(f"Gruppe {i}", f"https://game.example/join?t=tok{i:02d}-" + "y" * 40) for i in range(1, 4)]
    pdf = tmp_path / "join.pdf"
    write_join_pages("SBB-Monopoly", links, pdf)
    import re

    box = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    width = float(re.search(r'<page width="([\d.]+)"', box).group(1))
    words = [(float(x0), float(y0), w) for x0, y0, w in
             re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="[\d.]+">([^<]*)</word>', box)]
    columns = ["".join(w for _, _, w in sorted((y, x, w) for x, y, w in words if (x >= width / 2) == right))
               for right in (False, True)]
    assert links[0][1] in columns[0] and links[1][1] in columns[1] and links[2][1] in columns[0]
    assert decode_pages(pdf, tmp_path) == [{u for _, u in links}]  # the printed link does not spoil the scan


def test_handout_links_option(tmp_path, capsys):
    game = {"game": "ab12cd34", "organiser": {"url": "u", "token": "t"},
            "groups": [{"name": "Rot", "url": "http://127.0.0.1:8000/join?t=abc", "token": "abc"}]}
    (tmp_path / "game.json").write_text(json.dumps(game))
    out = tmp_path / "handout.pdf"
    day = day_argv(demo_day(tmp_path / "day"))  # the day's own pages are tests/organiser/test_handout.py's
    rc = main(["handout", *day, "--no-png", "--out", str(out), "--links", str(tmp_path / "game.json"), "--json"])
    assert rc == 0
    info = json.loads(capsys.readouterr().out)
    assert info["join_pdf"] == str(tmp_path / "handout-join.pdf")
    assert decode_pages(info["join_pdf"], tmp_path) == [{"http://127.0.0.1:8000/join?t=abc"}]
    (tmp_path / "bad.json").write_text("{}")
    assert main(["handout", *day, "--no-png", "--out", str(out), "--force", "--links",
                 str(tmp_path / "bad.json")]) == 2
    assert capsys.readouterr().err.startswith("planner: error: --links ")


def test_long_titles_and_names_fit_on_the_page(tmp_path):
    """The heading (game title and id) and each group's name stay inside the page and do not overlap: shrunk,
    then wrapped (the title was once cut at both edges)."""
    import html as html_lib
    import re

    title = "Samstag der grossen Reise durch die ganze Nordwestschweiz mit allen Freunden 2026 (game ab12cd34)"
    links = [("Rot", "https://game.example/join?t=a"), ("Die sehr lange Gruppe mit einem Namen von 60 Zeichen!!" +
                                                        "x" * 6, "https://game.example/join?t=b")]
    pdf = tmp_path / "join.pdf"
    write_join_pages(title, links, pdf)
    html = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    width = float(re.search(r'<page width="([\d.]+)"', html).group(1))
    words = [(float(a), float(b), float(c), float(d), w) for a, b, c, d, w in
             re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', html)]
    assert words and all(0.05 * width <= x0 and x1 <= 0.95 * width for x0, _y0, x1, _y1, _w in words)
    text = html_lib.unescape(" ".join(w for *_, w in words))
    assert title in text and links[1][0] in text and "Scan your group's code" in text
    boxes = [b[:4] for b in words]
    overlapping = [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:]
                   if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]]
    assert overlapping == []
    assert decode_pages(pdf, tmp_path) == [{u for _, u in links}]
