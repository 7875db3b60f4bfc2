"""The feed fingerprint's content hash is computed once per file version and remembered in the cache."""

from __future__ import annotations

import hashlib
import os
import shutil

import pytest

from planner.config import cache_root
from planner.gtfs.source import FeedSource, content_hash
from tests.support import IC2020, ZUG

pytestmark = pytest.mark.fresh_cache  # each test counts or breaks the cache's own files


def test_hash_is_remembered_per_file_version(tmp_path):
    feed = tmp_path / "feed.zip"
    shutil.copyfile(ZUG, feed)
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
    a, b = tmp_path / "a.zip", tmp_path / "b.zip"
    shutil.copyfile(ZUG, a)
    shutil.copyfile(ZUG, b)
    assert FeedSource(a).fingerprint() == FeedSource(b).fingerprint()
    assert FeedSource(IC2020).fingerprint() != FeedSource(a).fingerprint()
