"""The machine's pace: how long one fixed piece of work takes on this machine right now.

This virtual machine's speed changes by 2-3.5x between phases (the same code, minutes or hours apart), so a
figure in milliseconds says little alone. Every benchmark's JSON carries the pace read when it was written
(:func:`bench.write_results`), and docs/measured.md gives figures with the pace they were measured at: two figures
compare fairly only at a similar pace, or as figure / pace.

The work is what the planner's commands and the game lab do most (bytecode with dicts, tuples and small
objects, and statements on an in-memory SQLite database), never the planner's own code, so that a change of
the code cannot move the reference. Run: ``.venv/bin/python -m bench.pace``.
"""

from __future__ import annotations

import sqlite3
import time

REPEAT = 5


def _work() -> int:
    """A fixed amount of interpreter and SQLite work (0.45-0.55 s on this machine's slow phase of 2026-12-03);
    returns a checksum, so that nothing of it can be left out."""
    total = 0
    table: dict[tuple[int, int], int] = {}
    for i in range(120_000):
        key = (i % 977, i % 13)
        table[key] = table.get(key, 0) + i
        total += len(str(i)) + (i * 7) % 11
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, k TEXT, v INTEGER)")
    for i in range(4_000):
        with conn:
            conn.execute("INSERT INTO t (k, v) VALUES (?, ?)", (f"k{i % 50}", i))
        total += conn.execute("SELECT count(*) FROM t WHERE k = ?", (f"k{i % 50}",)).fetchone()[0]
    conn.close()
    return total + len(table)


def pace_ms(repeat: int = REPEAT) -> float:
    """The best of ``repeat`` runs of the fixed work, in milliseconds of wall time (lower is faster)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        _work()
        best = min(best, time.perf_counter() - t0)
    return round(best * 1000, 1)


if __name__ == "__main__":
    print(f"machine pace: {pace_ms()} ms (the fixed work of bench/pace.py, best of {REPEAT})")
