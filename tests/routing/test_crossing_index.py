"""The day's crossing index is kept beside the cached day under a name that follows everything it is computed from:
a changed line data file (or crossing code) never serves the old answer. (The line data is a file written here:
the name depends on the file, not on what is in it.)"""

from __future__ import annotations

import dataclasses
import os

from planner.rail.index import _path
from tests.support.timetable import TimetableBuilder


def _day_cached_in(folder):
    """A tiny day whose cache folder is ``folder`` (the index is kept beside it)."""
    b = TimetableBuilder()
    b.station("A")
    b.station("B")
    b.trip([("A", None, "10:00"), ("B", "10:10", None)])
    tt = b.build()
    return dataclasses.replace(tt, meta={**(tt.meta or {}), "cache": {"path": str(folder)}})


def test_the_index_file_follows_the_line_data(sbb_game, tmp_path, monkeypatch):
    tt = _day_cached_in(tmp_path)
    monkeypatch.setenv("PLANNER_RAIL_CSV", str(tmp_path / "missing.csv"))
    none = _path(tt, sbb_game)  # no line data: a name of its own
    lines = tmp_path / "lines.csv"
    lines.write_text("Name Haltestelle;Linie;KM;Geoposition;BPUIC\nZug;660;0;47.17371, 8.51505;8502204\n", "utf-8")
    monkeypatch.setenv("PLANNER_RAIL_CSV", str(lines))
    first = _path(tt, sbb_game)
    os.utime(lines, ns=(0, 10**9))  # the same file, edited (another modification time)
    second = _path(tt, sbb_game)
    lines.write_text(lines.read_text("utf-8") + "Baar;660;3.2;47.19536, 8.52327;8502206\n", "utf-8")
    os.utime(lines, ns=(0, 10**9))  # another size under the same time
    third = _path(tt, sbb_game)
    copy = tmp_path / "copy.csv"
    copy.write_bytes(lines.read_bytes())
    os.utime(copy, ns=(0, 10**9))
    monkeypatch.setenv("PLANNER_RAIL_CSV", str(copy))  # the same data in another file
    fourth = _path(tt, sbb_game)
    assert None not in (none, first, second, third, fourth) and len({none, first, second, third, fourth}) == 5
    assert all(p.parent == tmp_path for p in (none, first, second, third, fourth))
    assert _path(tt, sbb_game) == fourth  # and the same inputs, the same name
