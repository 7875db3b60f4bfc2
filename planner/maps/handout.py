"""Print export for the game day's handout: A4 PDF (area map, rules card, station list) and PNG pages.

Page 1 (A4 landscape) is the area map in the Swiss projection EPSG:2056 (LV95, via pyproj/geopandas):
country, cantons and lakes from the vendored swiss-maps layer, the ring, the day's lines and stations by
category, dice targets with their numbers, toll lines and tunnels, a legend, a scale bar and the source
credit; its labels never overlap (:mod:`planner.maps.labels`). Page 2 (A4 portrait) is the rules card a
player keeps (:mod:`planner.maps.rules_card`). The next pages (A4 portrait) list the buyable stations grouped by initial letter with category and
price, dice targets marked. Text is real text (TrueType fonts embedded), so the PDF is searchable.
"""

from __future__ import annotations

import io
import textwrap
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from matplotlib import rc_context
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

from planner.gamefile.game import Game
from planner.maps.area_page import map_page
from planner.maps.layers import category_label, source_credit, station_points
from planner.maps.rules_card import rules_page
from planner.timetable.model import Timetable
from planner.util.atomic import atomic_write_bytes
from planner.util.i18n import N_, _, format_amount, format_long_date, ngettext
from planner.util.text import fold

A4_PORTRAIT = (8.27, 11.69)
ROWS_PER_COLUMN = 54
SUBTITLE_WRAP = 115  # characters per line of the station pages' subtitle at 8.5 pt
_SHORT = {"IC": "IC/EC", "fast": "IR/RE", "regional": N_("regional")}
_RC = {"pdf.fonttype": 42, "ps.fonttype": 42, "font.family": "DejaVu Sans", "font.size": 9}


@dataclass
class HandoutResult:
    """What was written."""

    pdf: Path
    pages: int
    png: list[Path] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def make_handout(tt: Timetable, game: Game, pdf_path: str | Path, *, png_dpi: int | None = 300) -> HandoutResult:
    """Write the handout PDF (and PNG pages beside it, ``<stem>-p<N>.png``, when ``png_dpi``)."""
    pdf_path = Path(pdf_path)
    pdf_path.parent.mkdir(parents=True, exist_ok=True)
    res = HandoutResult(pdf_path, 0)
    with rc_context(_RC):
        figs = [map_page(tt, game, res.warnings), rules_page(tt, game, source_credit(tt), 2),
                *station_pages(tt, game, first_page=3)]
        # Rendered in memory, then written atomically: a failure leaves no half file (nor a .part) behind.
        buf = io.BytesIO()
        with PdfPages(buf, metadata={"Title": _("{title} – handout {date}").format(title=game.title, date=tt.date),
                                     "Subject": source_credit(tt), "Creator": "sbb-planner"}) as pdf:
            for fig in figs:
                pdf.savefig(fig)
        atomic_write_bytes(pdf_path, buf.getvalue())
        res.pages = len(figs)
        if png_dpi:
            for k, fig in enumerate(figs, 1):
                p = pdf_path.with_name(f"{pdf_path.stem}-p{k}.png")
                buf = io.BytesIO()
                fig.savefig(buf, format="png", dpi=png_dpi, pil_kwargs={"compress_level": 3})  # fast, still small
                atomic_write_bytes(p, buf.getvalue())
                res.png.append(p)
    return res


# ---- pages 2+: the station list -----------------------------------------------------------------------

def station_lines(tt: Timetable, game: Game) -> list[tuple[str, dict | str]]:
    """The list as printed: ``("head", "A – 3 stations, 1 group")`` and ``("row", {...})`` items by letter."""
    pts = station_points(tt, game)
    by_letter: dict[str, list] = defaultdict(list)
    for p in pts:
        by_letter[p.letter].append(p)
    out: list[tuple[str, dict | str]] = []
    size = game.letter_group_size
    for letter in sorted(by_letter):
        rows = sorted(by_letter[letter], key=lambda p: fold(p.name))
        groups = len(rows) // size
        args = {"letter": letter, "n": format_amount(len(rows)), "groups": format_amount(groups), "size": size}
        if groups:
            head = (ngettext("{letter} – {n} station, {groups} group", "{letter} – {n} stations, {groups} group",
                             len(rows)) if groups == 1 else
                    ngettext("{letter} – {n} station, {groups} groups", "{letter} – {n} stations, {groups} groups",
                             len(rows)))
        else:
            head = ngettext("{letter} – {n} station, no group (needs {size})",
                            "{letter} – {n} stations, no group (needs {size})", len(rows))
        out.append(("head", head.format(**args)))
        for p in rows:
            short = _SHORT.get(p.category)
            out.append(("row", {"name": p.name, "category": _(short) if short else category_label(p.category),
                                "price": p.price, "targets": p.targets}))
    return out


def station_pages(tt: Timetable, game: Game, first_page: int = 2) -> list[Figure]:
    """A4 portrait pages, two columns each, of the station list."""
    items = station_lines(tt, game)
    cols: list[list] = []
    cur: list = []
    letter = ""
    for it in items:
        if it[0] == "head":
            letter = str(it[1]).split(" ")[0]
        # a letter heading never ends a column; a letter cut by the column break is named again
        if len(cur) >= ROWS_PER_COLUMN or (it[0] == "head" and len(cur) >= ROWS_PER_COLUMN - 2):
            cols.append(cur)
            cur = [] if it[0] == "head" else [("head", _("{letter} (continued)").format(letter=letter))]
        cur.append(it)
    if cur:
        cols.append(cur)
    if not cols:
        cols = [[]]
    pages = [cols[i:i + 2] for i in range(0, len(cols), 2)]
    figs = []
    n_st = sum(1 for it in items if it[0] == "row")
    for k, page in enumerate(pages, 1):
        fig = Figure(figsize=A4_PORTRAIT)
        fig.text(0.06, 0.965, _("{title} – stations to buy").format(title=game.title), fontsize=15,
                 fontweight="bold", va="top")
        sub = ngettext(
            "{n} station in the game area on {date}, grouped by initial letter: {size} of one letter form a "
            "building group.", "{n} stations in the game area on {date}, grouped by initial letter: {size} of one "
            "letter form a building group.", n_st).format(n=format_amount(n_st), date=format_long_date(tt.date),
                                                          size=game.letter_group_size)
        # wrapped: the German sentence is longer than the page is wide at this size
        fig.text(0.06, 0.945, "\n".join([*textwrap.wrap(sub, SUBTITLE_WRAP), _("★ n = dice target n.")]),
                 fontsize=8.5, color="#444444", va="top", linespacing=1.4)
        for c, col in enumerate(page):
            x = 0.06 + c * 0.46
            fig.text(x, 0.895, _("Station"), fontsize=8, color="#666666", fontweight="bold")
            fig.text(x + 0.27, 0.895, _("Category"), fontsize=8, color="#666666", fontweight="bold")
            fig.text(x + 0.42, 0.895, _("Price"), fontsize=8, color="#666666", fontweight="bold", ha="right")
            y = 0.877
            for kind, val in col:
                if kind == "head":
                    y -= 0.004
                    fig.text(x, y, str(val), fontsize=9.5, fontweight="bold", color="#1f3a5f", va="top")
                else:
                    assert isinstance(val, dict)
                    name = val["name"] + (f"  ★ {'/'.join(map(str, val['targets']))}" if val["targets"] else "")
                    fig.text(x + 0.01, y, name, fontsize=8.5, va="top",
                             fontweight="bold" if val["targets"] else "normal")
                    fig.text(x + 0.27, y, val["category"], fontsize=8, va="top", color="#333333")
                    fig.text(x + 0.42, y, format_amount(val["price"]), fontsize=8.5, va="top", ha="right")
                y -= 0.014
        fig.text(0.94, 0.025, _("{source} · page {page}").format(source=source_credit(tt), page=first_page + k - 1),
                 ha="right", fontsize=7.5, color="#444444")
        figs.append(fig)
    return figs

