"""A group's query on a cached day starts without the libraries only organisers' commands need.

Every ``planner`` call is a new process: what it imports is paid on each roll (pandas and networkx are
300 ms of a 0.8 s start, measured with ``python -X importtime``; pyarrow's compute and CSV modules, which only
the ingest reads with, another 0.1 s). The physical line network, maps, exports, the ingest and downloads import
them; a roll or target that reads the kept day and its crossing index must not. (The day: the area day around Zug
written in tests/support/inline_day.py, its toll line Luzern–Rotkreuz on Zug's piece of the line data.)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.support import ROOT
from tests.support.inline_day import area_day, day_argv, write_lines

HEAVY = ("pandas", "networkx", "folium", "geopandas", "gtfs_kit", "requests", "pyarrow.compute", "pyarrow.csv")

_PROBE = """
import json, sys
from planner.cli import main
rc = main(sys.argv[1:])
print(json.dumps({"rc": rc, "heavy": sorted(m for m in HEAVY if m in sys.modules)}))
""".replace("HEAVY", repr(HEAVY))


def _probe(*argv: str) -> dict:
    run = subprocess.run([sys.executable, "-c", _PROBE, *argv], capture_output=True, text=True, cwd=ROOT,
                         env=dict(os.environ), timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.strip().splitlines()
    return {"answer": json.loads("\n".join(lines[:-1])), **json.loads(lines[-1])}


@pytest.fixture
def day(tmp_path, monkeypatch) -> list[str]:
    """The day's --feed, --date and --game (its line data for the subprocesses too)."""
    monkeypatch.setenv("PLANNER_RAIL_CSV", str(write_lines(tmp_path / "lines")))
    return day_argv(area_day(tmp_path))


def test_target_on_a_kept_day_imports_no_organiser_library(day):
    argv = ("target", *day, "--at", "Zug", "--time", "12:40", "--roll", "4", "--json")
    first = _probe(*argv)  # may build the day and its crossing index (that needs the line network)
    again = _probe(*argv)
    assert again["rc"] == 0
    assert again["answer"] == first["answer"]
    assert again["answer"]["target"] == "Affoltern am Albis"
    assert "crossings" in again["answer"]  # the answer did consult the crossing index
    assert again["heavy"] == []
