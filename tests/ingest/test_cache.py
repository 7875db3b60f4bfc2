"""Game-day timetable cache (planner.gtfs.cache): exact round trip, hits, bad entries, keys, concurrent builders."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import multiprocessing as mp
import os
import shutil
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest

from planner import config
from planner.gamefile.game import load_game
from planner.gtfs import cache, cache_files
from planner.gtfs.source import FeedSource
from planner.timetable.model import Timetable
from tests.support import DEMO_DATE, ZUG

CTX = mp.get_context("spawn")
pytestmark = [pytest.mark.fresh_cache, pytest.mark.needs_shared]  # each test counts or breaks the cache's own files


def assert_same(a: Timetable, b: Timetable, *, ignore_cache_meta: bool = False) -> None:
    """Every dataclass field equal: arrays by dtype, shape and bytes; lists and scalars by type and value."""
    for f in dataclasses.fields(Timetable):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray):
            assert isinstance(y, np.ndarray), f.name
            assert (x.dtype, x.shape) == (y.dtype, y.shape), f.name
            assert x.tobytes() == y.tobytes(), f.name  # bitwise: NaN-safe, catches -0.0
            assert y.flags.writeable, f.name
        elif f.name == "meta" and ignore_cache_meta:
            assert {k: v for k, v in x.items() if k != "cache"} == {k: v for k, v in y.items() if k != "cache"}
        else:
            assert type(x) is type(y) and x == y, f.name
            if isinstance(x, list):
                assert [type(v) for v in x] == [type(v) for v in y], f.name


def _entries() -> list[str]:
    root = cache.entries_dir()
    return sorted(p.name for p in root.iterdir()) if root.is_dir() else []


def _build_in_child(feed: str, date_iso: str, barrier, out) -> None:
    import datetime as dt

    game = load_game("sbb-monopoly")
    barrier.wait(60)  # all four start reading at once
    tt = cache.load_or_build(feed, game, dt.date.fromisoformat(date_iso), progress=False)
    out.put((tt.meta["cache"]["status"], tt.meta["cache"]["key"], len(tt.st_stop)))


# ---- layout and round trip -------------------------------------------------------------------------

def test_cache_root_from_env(tmp_path, monkeypatch):
    monkeypatch.setenv("PLANNER_CACHE", str(tmp_path / "c"))
    assert config.cache_root() == tmp_path / "c"
    monkeypatch.delenv("PLANNER_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert config.cache_root() == tmp_path / "xdg" / "sbb-planner"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert config.cache_root() == Path.home() / ".cache" / "sbb-planner"


def test_every_timetable_field_has_a_place():
    """Each field of the Timetable is kept in exactly one place of a cache entry (a scalar of meta.json or one
    parquet group), and the cache's own check agrees."""
    places = [*cache.SCALARS, *(f for group in cache.GROUPS.values() for f in group)]
    fields = {f.name for f in dataclasses.fields(Timetable)}
    assert sorted(places) == sorted(fields), (set(fields) - set(places), set(places) - fields)
    cache._check_fields()  # raises if a field had no place


def test_round_trip_is_exact(zug_tt):
    path = cache.save(zug_tt, "roundtrip")
    assert sorted(p.name for p in path.iterdir()) == sorted(
        [f"{g}.parquet" for g in cache.GROUPS] + ["meta.json"])
    back = cache.load("roundtrip")
    assert back is not None
    assert_same(zug_tt, back)
    assert back.n_trips > 100 and len(back.xfer_from) > 0


def test_round_trip_edge_cases():
    """Empty trips and links, NaN coordinates, non-ASCII names, a trip_offset not starting at 0."""
    tt = Timetable(
        date="2021-09-11", feed_version="", station_id=["8502204", "x"], station_name=["Zürich Oerlikon", "Biel/Bienne"],
        station_lat=np.array([47.41, np.nan]), station_lon=np.array([-0.0, 8.5]),
        station_change=np.array([-1, 180], np.int32), stop_id=["8502204:0:1"], stop_station=np.array([0], np.int32),
        stop_platform=[""], route_id=[], route_name=[], route_type=np.zeros(0, np.int32),
        route_mode=np.zeros(0, np.int8), route_category=[], route_agency=[], trip_id=[], trip_route=np.zeros(0, np.int32),
        trip_headsign=[], trip_short_name=[], trip_offset=np.array([0], np.int64), st_stop=np.zeros(0, np.int32),
        st_arr=np.zeros(0, np.int32), st_dep=np.zeros(0, np.int32), st_pickup=np.zeros(0, bool),
        st_dropoff=np.zeros(0, bool), meta={"feed": "x.zip", "nested": {"a": [1, 2]}, "ü": None},
    )
    cache.save(tt, "edge")
    back = cache.load("edge")
    assert back is not None
    assert_same(tt, back)


def test_missing_entry_is_none():
    assert cache.load("nothing-here") is None


# ---- load_or_build ---------------------------------------------------------------------------------

def test_second_call_is_a_hit(zug_tt, sbb_game):
    first = cache.load_or_build(ZUG, sbb_game, DEMO_DATE, progress=False)
    assert first.meta["cache"]["status"] == "built" and first.meta["cache"]["saved"]
    key = first.meta["cache"]["key"]
    inode = (cache.entries_dir() / key / "stop_times.parquet").stat().st_ino
    second = cache.load_or_build(str(ZUG), sbb_game, DEMO_DATE.isoformat(), progress=False)
    assert second.meta["cache"]["status"] == "hit" and second.meta["cache"]["key"] == key
    assert (cache.entries_dir() / key / "stop_times.parquet").stat().st_ino == inode  # not rewritten
    assert_same(zug_tt, second, ignore_cache_meta=True)
    assert_same(first, second, ignore_cache_meta=True)
    assert _entries() == [key]


def _flip_bytes(entry: Path) -> None:
    p = entry / "stop_times.parquet"
    data = bytearray(p.read_bytes())
    mid = len(data) // 2
    data[mid:mid + 16] = bytes(b ^ 0xFF for b in data[mid:mid + 16])
    p.write_bytes(bytes(data))


def _unreadable_parquet_with_right_hash(entry: Path) -> None:
    junk = b"PAR1 this is not parquet at all PAR1"
    (entry / "trips.parquet").write_bytes(junk)
    meta = json.loads((entry / "meta.json").read_text())
    meta["files"]["trips.parquet"]["sha256"] = hashlib.sha256(junk).hexdigest()
    (entry / "meta.json").write_text(json.dumps(meta))


def _other_schema(entry: Path) -> None:
    meta = json.loads((entry / "meta.json").read_text())
    meta["schema"] = cache.SCHEMA_VERSION + 1
    (entry / "meta.json").write_text(json.dumps(meta))


def _inconsistent_but_hashed(entry: Path) -> None:
    """Valid parquet, right hashes, but the arrays contradict each other (stop index out of range)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    t = pq.read_table(entry / "stop_times.parquet")
    bad = t.set_column(0, "st_stop", pa.array(np.full(t.num_rows, 10**6, np.int32)))
    pq.write_table(bad, entry / "stop_times.parquet")
    meta = json.loads((entry / "meta.json").read_text())
    meta["files"]["stop_times.parquet"]["sha256"] = hashlib.sha256(
        (entry / "stop_times.parquet").read_bytes()).hexdigest()
    (entry / "meta.json").write_text(json.dumps(meta))


CORRUPTIONS = {
    "flipped-bytes": _flip_bytes,
    "missing-file": lambda e: (e / "routes.parquet").unlink(),
    "truncated-meta": lambda e: (e / "meta.json").write_bytes((e / "meta.json").read_bytes()[:40]),
    "missing-meta": lambda e: (e / "meta.json").unlink(),
    "unreadable-parquet": _unreadable_parquet_with_right_hash,
    "other-schema": _other_schema,
    "inconsistent-arrays": _inconsistent_but_hashed,
}


@pytest.mark.parametrize("how", sorted(CORRUPTIONS))
def test_bad_entry_is_rebuilt(how, zug_tt, sbb_game, caplog):
    key = cache.cache_key(FeedSource(ZUG), sbb_game, DEMO_DATE)
    cache.save(zug_tt, key)
    CORRUPTIONS[how](cache.entries_dir() / key)
    with caplog.at_level(logging.WARNING, logger="planner.gtfs.cache"):
        tt = cache.load_or_build(ZUG, sbb_game, DEMO_DATE, progress=False)
    assert tt.meta["cache"]["status"] == "built"
    assert any("unusable" in r.getMessage() and key in r.getMessage() for r in caplog.records)
    assert_same(zug_tt, tt, ignore_cache_meta=True)
    assert _entries() == [key]  # the bad one was set aside and removed, the new one published
    again = cache.load(key)
    assert again is not None
    assert_same(zug_tt, again)


def test_keys(tmp_path, sbb_game, nws_game):
    src = FeedSource(ZUG)
    key = cache.cache_key(src, sbb_game, DEMO_DATE)
    assert key.startswith("2021-09-11_sbb-monopoly_")
    assert key == cache.cache_key(FeedSource(ZUG), sbb_game, "2021-09-11")  # stable
    copy = tmp_path / "copy.zip"
    shutil.copy(ZUG, copy)
    assert cache.cache_key(FeedSource(copy), sbb_game, DEMO_DATE) == key  # same content elsewhere: same key
    # another feed version: same members plus one changed file
    other = tmp_path / "other.zip"
    with zipfile.ZipFile(ZUG) as zin, zipfile.ZipFile(other, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == "feed_info.txt" or info.filename.endswith("/feed_info.txt"):
                data = data.replace(b"20210614", b"20210621")
            zout.writestr(info.filename, data)
        if "feed_info.txt" not in zin.namelist():
            zout.writestr("feed_info.txt", b"feed_publisher_name\nother\n")
    assert cache.cache_key(FeedSource(other), sbb_game, DEMO_DATE) != key
    assert cache.cache_key(src, nws_game, DEMO_DATE) != key
    assert cache.cache_key(src, sbb_game, "2021-09-12") != key


@pytest.mark.parametrize("change, new_day", [
    ({"prices": None, "bonus": None}, False),  # dice table, prices, fees, messages: the same timetable
    ({"max_walk_minutes": 9}, True),
    ({"modes": frozenset({"rail", "bus"})}, True),
    ({"ring_tolerance_m": 1.0}, True),
    ({"exclude_routes": (("SBB", "S1"),)}, True),
    ({"name": "sbb-copy"}, True),
])
def test_the_key_follows_what_shapes_the_timetable_only(sbb_game, change, new_day):
    src = FeedSource(ZUG)
    if "prices" in change:  # other rules and another file: the digest of the file changes, the day's key does not
        other = dataclasses.replace(sbb_game, digest="another file", dice=dataclasses.replace(sbb_game.dice,
                                    targets=sbb_game.dice.targets[:2]), letter_group_bonus=1)
    else:
        other = dataclasses.replace(sbb_game, digest="another file", **change)
    assert (cache.cache_key(src, other, DEMO_DATE) != cache.cache_key(src, sbb_game, DEMO_DATE)) is new_day


def test_the_ingest_reads_only_what_the_key_covers(sbb_game):
    """Every field of the game the ingest reads is in the cache key (``TIMETABLE_FIELDS``, or a property computed
    from them): a field read but not keyed would serve one game's day to another."""
    from planner.gamefile.game import TIMETABLE_FIELDS
    from planner.gtfs.ingest import build_timetable

    read: set[str] = set()

    class Watched:
        def __getattr__(self, name):
            read.add(name)
            return getattr(sbb_game, name)

    tt = build_timetable(FeedSource(ZUG), Watched(), DEMO_DATE, progress=False)
    assert tt.n_trips > 0
    assert {"ring", "modes"} <= read  # the watch sees the ingest's reads
    assert read <= set(TIMETABLE_FIELDS) | {"has_area"}  # has_area: the polygon


def test_other_feed_version_is_built_separately(tmp_path, sbb_game):
    first = cache.load_or_build(ZUG, sbb_game, DEMO_DATE, progress=False)
    other = tmp_path / "other.zip"
    with zipfile.ZipFile(ZUG) as zin, zipfile.ZipFile(other, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            zout.writestr(info.filename, zin.read(info))
        zout.writestr("README.txt", b"re-published\n")
    second = cache.load_or_build(other, sbb_game, DEMO_DATE, progress=False)
    assert second.meta["cache"]["status"] == "built"
    assert second.meta["cache"]["key"] != first.meta["cache"]["key"]
    assert second.meta["feed"] == str(other)
    assert len(_entries()) == 2


def test_save_when_entry_exists_keeps_the_first(zug_tt):
    path = cache.save(zug_tt, "race")
    inode = (path / "meta.json").stat().st_ino
    assert cache.save(zug_tt, "race") == path  # "another process won": ours is dropped
    assert (path / "meta.json").stat().st_ino == inode
    assert _entries() == ["race"]  # no temp dir left behind
    assert cache.load("race") is not None


def test_stale_temp_dirs_are_swept(zug_tt):
    root = cache.entries_dir()
    old, fresh = root / ".tmp-k-old", root / ".tmp-k-fresh"
    for d in (old, fresh):
        d.mkdir(parents=True)
        (d / "stations.parquet").write_bytes(b"half written")
    past = time.time() - cache_files.STALE_TEMP_SECONDS - 60
    os.utime(old, (past, past))
    cache.save(zug_tt, "k")
    assert not old.exists()
    assert fresh.exists()  # may belong to a live writer


def test_unwritable_cache_still_answers(tmp_path, monkeypatch, zug_tt, sbb_game, caplog):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("PLANNER_CACHE", str(blocker / "cache"))
    with caplog.at_level(logging.WARNING, logger="planner.gtfs.cache"):
        tt = cache.load_or_build(ZUG, sbb_game, DEMO_DATE, progress=False)
    assert tt.meta["cache"]["status"] == "built" and tt.meta["cache"]["saved"] is False
    assert any("cannot write" in r.getMessage() for r in caplog.records)
    assert_same(zug_tt, tt, ignore_cache_meta=True)


def test_four_processes_build_one_entry(zug_tt):
    barrier, out = CTX.Barrier(4), CTX.Queue()
    procs = [CTX.Process(target=_build_in_child, args=(str(ZUG), DEMO_DATE.isoformat(), barrier, out))
             for _ in range(4)]
    for p in procs:
        p.start()
    results = [out.get(timeout=180) for _ in procs]
    for p in procs:
        p.join(60)
    assert [p.exitcode for p in procs] == [0] * 4
    keys = {k for _, k, _ in results}
    assert len(keys) == 1
    (key,) = keys
    assert sorted(s for s, _, _ in results) == ["built", "hit", "hit", "hit"]  # the lock: one build
    assert {n for _, _, n in results} == {len(zug_tt.st_stop)}
    assert _entries() == [key]  # exactly one entry, no temp or set-aside dirs
    back = cache.load(key)
    assert back is not None
    assert_same(zug_tt, back, ignore_cache_meta=True)


@pytest.mark.parametrize("key", ["../escape", "a/b", ".hidden", "", "x" * 200])
def test_keys_are_plain_folder_names(key, zug_tt):
    with pytest.raises(ValueError):
        cache.save(zug_tt, key)
    with pytest.raises(ValueError):
        cache.load(key)
