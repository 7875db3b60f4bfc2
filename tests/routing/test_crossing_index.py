"""The day's crossing index is kept beside the cached day under a name that follows everything it is computed from:
a changed line data file (or crossing code) never serves the old answer."""

from __future__ import annotations

import dataclasses
import os
import shutil

import pytest

from planner.config import default_rail_csv
from planner.rail.index import _path

pytestmark = pytest.mark.needs_shared  # reads ../shared (tests/project/test_suite_without_shared.py)


def test_the_index_file_follows_the_line_data(zug_tt, sbb_game, tmp_path, monkeypatch):
    tt = dataclasses.replace(zug_tt, meta={**zug_tt.meta, "cache": {"path": str(tmp_path)}})
    first = _path(tt, sbb_game)
    copy = tmp_path / "lines.csv"
    shutil.copyfile(default_rail_csv(), copy)
    monkeypatch.setenv("PLANNER_RAIL_CSV", str(copy))
    second = _path(tt, sbb_game)
    os.utime(copy, ns=(0, 10**9))  # the same file, edited (another modification time)
    third = _path(tt, sbb_game)
    assert first is not None and len({first, second, third}) == 3
    assert all(p.parent == tmp_path for p in (first, second, third))
