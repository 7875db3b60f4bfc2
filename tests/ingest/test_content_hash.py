"""The feed fingerprint's content hash is computed once per file version and remembered in the cache. The feeds
are small ones written here (any bytes of a feed do)."""

from __future__ import annotations

import hashlib
import os
import shutil

import pytest

from planner.config import cache_root
from planner.gtfs.source import FeedSource, content_hash
from tests.support.inline_day import AGENCY, CALENDAR, ROUTES, stop_times_txt, stops_txt, write_feed

pytestmark = pytest.mark.fresh_cache  # each test counts or breaks the cache's own files


def _feed(folder, arrival: str = "12:05"):
    """A feed of one S1 Zug 12:00 - Baar at ``arrival`` (another arrival: another feed)."""
    return write_feed(folder, {
        "agency.txt": AGENCY, "calendar.txt": CALENDAR, "routes.txt": ROUTES, "stops.txt": stops_txt("Zug", "Baar"),
        "trips.txt": "route_id,service_id,trip_id\nS1,SA,s1\n",
        "stop_times.txt": stop_times_txt(("s1", [("Zug", "12:00", "12:00"), ("Baar", arrival, arrival)]))})


def test_hash_is_remembered_per_file_version(tmp_path):
    src = _feed(tmp_path / "src")
    feed = tmp_path / "feed.zip"
    shutil.copyfile(src, feed)
    real = hashlib.sha256(feed.read_bytes()).hexdigest()
    assert content_hash(feed) == real
    memos = list((cache_root() / "content-hashes").iterdir())
    assert len(memos) == 1
    # a later command reads the remembered hash instead of hashing the feed again
    memos[0].write_text("f" * 64, "ascii")
    assert content_hash(feed) == "f" * 64
    # another version of the file (new mtime) is hashed afresh
    st = feed.stat()
    os.utime(feed, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    assert content_hash(feed) == real
    assert len(list((cache_root() / "content-hashes").iterdir())) == 2


def test_fingerprint_is_the_same_feed_under_another_path(tmp_path):
    src, other = _feed(tmp_path / "src"), _feed(tmp_path / "other", arrival="12:06")
    a, b = tmp_path / "a.zip", tmp_path / "b.zip"
    shutil.copyfile(src, a)
    shutil.copyfile(src, b)
    assert FeedSource(a).fingerprint() == FeedSource(b).fingerprint()
    assert FeedSource(other).fingerprint() != FeedSource(a).fingerprint()
