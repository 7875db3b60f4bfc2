"""The handout's join page: one QR code per group (its join link for the phone app), A4, six to a page.

The links come from the JSON ``planner game new --json`` printed (the database keeps only the tokens' hashes,
so the links cannot be made again later: the organiser saves that JSON). QR codes are made by ``segno`` and
drawn by matplotlib as real vector squares (sharp at any print resolution); names are real text.
"""

from __future__ import annotations

import io
import json
import textwrap
from pathlib import Path
from typing import NamedTuple

import numpy as np
import segno
from matplotlib import rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

from planner import SOURCE_CREDIT
from planner.errors import InputError
from planner.util import userfiles
from planner.util.atomic import atomic_write_bytes
from planner.util.i18n import _

A4_PORTRAIT = (8.27, 11.69)
MARGIN = 0.06  # of the page width, left and right: a heading stays inside what printers print
PER_PAGE = 6  # 2 columns x 3 rows: a code of ~7 cm, easy to scan from a table
_RC = {"pdf.fonttype": 42, "font.family": "DejaVu Sans", "font.size": 10}


MAX_LINKS_FILE = 1 << 20  # the JSON of 40 groups is about 8 KB
MAX_URL = 1000  # characters of a join link: its QR code must stay scannable (the planner's are under 100)


class JoinLinks(NamedTuple):
    """A saved ``planner game new --json``: the game's id, its groups' join links, its name (empty when the file
    has none) and what it is played on (``{feed, game, date}``; empty in a file written before it was saved)."""

    game: str
    groups: list[tuple[str, str]]
    name: str
    played_on: dict[str, str]


def read_links(path: str | Path) -> JoinLinks:
    """The links of a saved ``planner game new --json`` output (a bounded regular file; names and links checked
    before any page is drawn)."""
    text = userfiles.read_text(path, "--links", limit=MAX_LINKS_FILE)
    try:
        doc = json.loads(text)
        groups = [(g["name"], g["url"]) for g in doc["groups"]]
        game = doc["game"]
        game_name = doc.get("name") or ""
        played = doc.get("played_on") or {}
    except RecursionError:
        raise InputError(_("--links {path}: not the JSON of 'planner game new --json' (nested too "
                           "deeply)").format(path=path)) from None
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise InputError(_("--links {path}: not the JSON of 'planner game new --json' ({reason})").format(
            path=path, reason=" ".join(str(exc).split())[:100])) from None
    if not isinstance(game, str) or not game.isprintable() or not 0 < len(game) <= 60:
        raise InputError(_("--links {path}: not the JSON of 'planner game new --json' (its game id is not a short "
                           "text)").format(path=path))
    if not isinstance(game_name, str) or not game_name.isprintable() or len(game_name) > 100:
        raise InputError(_("--links {path}: not the JSON of 'planner game new --json' (its game name is not a "
                           "short text)").format(path=path))
    if not groups:
        raise InputError(_("--links {path}: no groups in it").format(path=path))
    for name, url in groups:
        if not isinstance(name, str) or not name.isprintable() or not 0 < len(name) <= 60:
            raise InputError(_("--links {path}: a group name is not a text of 1 to 60 printable "
                               "characters").format(path=path))
        if not isinstance(url, str) or not url.startswith(("http://", "https://")) or len(url) > MAX_URL \
                or not url.isprintable() or " " in url:
            raise InputError(_("--links {path}: group {name}: its link is not an http(s) URL of at most {n} "
                               "characters").format(path=path, name=repr(name), n=MAX_URL))
    if not isinstance(played, dict) or not all(
            isinstance(played.get(k), str | None) and len(played.get(k) or "") <= 4096 for k in ("feed", "game", "date")):
        raise InputError(_("--links {path}: not the JSON of 'planner game new --json' (its feed, game file and date "
                           "are not texts)").format(path=path))
    return JoinLinks(game, groups, game_name, {k: played[k] for k in ("feed", "game", "date") if played.get(k)})


def qr_matrix(url: str) -> np.ndarray:
    """The QR code of ``url`` as a 0/1 array with its quiet zone (1 = dark)."""
    qr = segno.make(url, error="m", micro=False)
    return np.array([list(row) for row in qr.matrix_iter(scale=1, border=4)], dtype=np.uint8)


def fit_text(fig: Figure, y: float, text: str, size: float, *, x: float = 0.5, span: float = 1 - 2 * MARGIN,
             weight: str = "normal", va: str = "top", smallest: float = 8) -> float:
    """Text centred at ``x`` and at height ``y`` (figure fractions; ``va`` says which edge ``y`` is) that fits
    into ``span`` of the page width: shrunk down to ``smallest`` points, then wrapped onto more lines. Returns the
    height (figure fraction) of its far edge (the bottom of a top-aligned text)."""
    width = fig.get_figwidth() * fig.dpi * span
    renderer = fig.canvas.get_renderer()
    lines = [text]
    t = fig.text(x, y, text, ha="center", va=va, fontsize=size, weight=weight)
    while t.get_window_extent(renderer).width > width:
        if size > smallest:
            size = max(smallest, size - 0.5)
        else:  # wrap: each line as long as fits (a word longer than the line is cut by textwrap too)
            chars = max(8, int(len(max(lines, key=len)) * width / t.get_window_extent(renderer).width))
            lines = textwrap.wrap(text, chars, break_long_words=True)
        t.set_fontsize(size)
        t.set_text("\n".join(lines))
    height = t.get_window_extent(renderer).height / (fig.get_figheight() * fig.dpi)
    return y - height if va == "top" else y + height


def write_join_pages(title: str, links: list[tuple[str, str]], pdf_path: str | Path) -> int:
    """Write the A4 pages with one QR code per group to ``pdf_path``; returns the number of pages."""
    pages = 0
    buf = io.BytesIO()
    with rc_context(_RC), PdfPages(buf) as pdf:
        for start in range(0, len(links), PER_PAGE):
            fig = Figure(figsize=A4_PORTRAIT)
            FigureCanvasAgg(fig)  # a renderer to measure the headings with
            y = fit_text(fig, 0.975, title, 16, weight="bold", smallest=11)
            fit_text(fig, y - 0.006, _("Scan your group's code to open the game on your phone."), 11)
            for k, (name, url) in enumerate(links[start:start + PER_PAGE]):
                col, row = k % 2, k // 2
                ax = fig.add_axes((0.09 + col * 0.45, 0.64 - row * 0.3, 0.37, 0.24))
                ax.imshow(qr_matrix(url), cmap="gray_r", interpolation="nearest", vmin=0, vmax=1)
                ax.set_axis_off()
                fit_text(fig, 0.64 - row * 0.3 + 0.242, name, 14, x=0.09 + col * 0.45 + 0.185, span=0.42,
                         weight="bold", va="bottom", smallest=9)
                # the link in print too: a phone that cannot scan types it
                fit_text(fig, 0.64 - row * 0.3 - 0.002, url, 8, x=0.09 + col * 0.45 + 0.185, span=0.42, smallest=6.5)
            fig.text(0.5, 0.02, _("Each code opens one group's page; keep it to your group. {source}").format(
                source=_(SOURCE_CREDIT)), ha="center", fontsize=7, color="#555")
            pdf.savefig(fig)
            pages += 1
    # The codes are the groups' keys: the file is private (0600) like the state, and written atomically.
    atomic_write_bytes(pdf_path, buf.getvalue(), private=True)
    return pages
