"""Plain aligned text tables (the readable output of commands and reports)."""

from __future__ import annotations


def format_table(rows: list[dict], columns: list[str], headers: list[str] | None = None, width: int = 80) -> str:
    """A plain aligned text table within ``width`` columns (the widest cells are cut with "…")."""
    headers = headers or columns
    cells = [[("" if r.get(c) is None else str(r.get(c))) for c in columns] for r in rows]
    widths = [max([len(h)] + [len(row[i]) for row in cells]) for i, h in enumerate(headers)]
    while sum(widths) + 2 * (len(widths) - 1) > width:
        i = max(range(len(widths)), key=lambda k: widths[k] - len(headers[k]))
        if widths[i] <= len(headers[i]):
            break  # only headers left: nothing sensible to cut
        widths[i] -= 1
    cells = [[c if len(c) <= w else c[: w - 1] + "…" for c, w in zip(row, widths, strict=True)] for row in cells]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells]
    return "\n".join(lines)
