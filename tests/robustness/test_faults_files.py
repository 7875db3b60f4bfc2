"""Files written that nobody asked for, memory and hangs: a feed URL, downloads over the limit or too
slow, cache members that are links or FIFOs, feed folders linking out, a zip bomb in transfers.txt, --links.

Downloads are served from loopback HTTP servers; the feeds are the day written in tests/support/play_day.py and
the BLT fixture."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
import zipfile
from pathlib import Path

import pytest

from planner.cli import main
from planner.errors import PlannerError
from planner.gtfs import download as dl
from tests.support import FIXTURES, ROOT, assert_one_line_error
from tests.support.download_server import RangeHandler, serving

pytestmark = pytest.mark.long  # one worker runs a module (--dist loadfile); this one early

DAY: list[str] = []  # the day's --feed, --date and --game (filled by ``_day``)


@pytest.fixture(scope="module", autouse=True)
def _day(play_argv):
    DAY[:] = play_argv


def _feed_bytes() -> bytes:
    """The day's zipped feed, as a server sends it."""
    return Path(DAY[1]).read_bytes()


def test_a_feed_url_is_downloaded_into_the_cache_not_into_feeds(tmp_path, monkeypatch, capsys):
    feeds = tmp_path / "feeds"
    monkeypatch.setenv("PLANNER_FEEDS", str(feeds))
    with serving(tmp_path, RangeHandler, _feed_bytes()) as url:
        assert main(["feed-info", "--feed", url, "--json"]) == 0
        info = json.loads(capsys.readouterr().out)
        assert info["stops"] > 0
        assert not feeds.exists()  # nothing there that later commands would take as their default feed
        cached = list((Path(os.environ["PLANNER_CACHE"]) / "url-feeds").rglob("*.zip"))
        assert [p.name for p in cached] == ["GTFS_FP2019_20190118.zip"]
        assert main(["feed-info", "--feed", url, "--json"]) == 0  # the second time from the cache
        assert json.loads(capsys.readouterr().out) == info


class _Unannounced(RangeHandler):
    """Sends the file without saying how long it is (the size check can only count what arrives)."""

    def do_GET(self):  # noqa: N802 - http.server API
        data = Path(self.translate_path(self.path)).read_bytes()
        self.send_response(200)
        self.end_headers()
        self.wfile.write(data)
        self.close_connection = True


def test_a_download_over_the_size_limit_leaves_no_part_file(tmp_path, monkeypatch):
    monkeypatch.setattr(dl, "MAX_BYTES", 10_000)  # the real limit (4 GiB) is too big to send here
    assert len(_feed_bytes()) > 2 * dl.MAX_BYTES
    out = tmp_path / "feeds"
    with serving(tmp_path, _Unannounced, _feed_bytes()) as url, \
            pytest.raises(PlannerError, match="more than 0 MiB"):
        dl.download(url, out_dir=out, progress=False)
    assert list(out.iterdir()) == []


class _Trickle(RangeHandler):
    """Announces the file, then sends one byte every 0.2 s (each read is within the read timeout); gives up
    after 20 s so that a download without a deadline fails this test instead of hanging it."""

    def do_GET(self):  # noqa: N802 - http.server API
        data = Path(self.translate_path(self.path)).read_bytes()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        stop = time.monotonic() + 20
        try:
            for i in range(len(data)):
                if time.monotonic() > stop:
                    break
                self.wfile.write(data[i:i + 1])
                self.wfile.flush()
                time.sleep(0.2)
        except OSError:
            pass  # the client hung up: what the deadline is for
        self.close_connection = True


def test_a_download_that_trickles_is_cut_at_its_deadline(tmp_path, monkeypatch):
    monkeypatch.setattr(dl, "DEADLINE", 2)
    out = tmp_path / "feeds"
    with serving(tmp_path, _Trickle, _feed_bytes()) as url, \
            pytest.raises(PlannerError, match="not finished within 2 s"):
        dl.download(url, out_dir=out, progress=False)
    assert [p.name for p in out.iterdir()] == ["GTFS_FP2019_20190118.zip.part"]  # kept, to resume


# ---- the cache --------------------------------------------------------------------------------------

def _stations(env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "planner", "stations", *DAY, "--json"], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=120)


@pytest.fixture(scope="module")
def built_cache(tmp_path_factory, _day) -> tuple[Path, str]:
    """A cache the day was ingested into by a fresh process (cold), and that process's answer: the tests
    below plant their fault in a copy of it."""
    root = tmp_path_factory.mktemp("built-cache")
    env = {**os.environ, "PLANNER_CACHE": str(root / "cache"), "PLANNER_STATE": str(root / "state.sqlite")}
    first = _stations(env)
    assert first.returncode == 0, first.stderr
    return root / "cache", first.stdout


def _copy_of(built: Path, tmp_path: Path) -> dict:
    """The environment of a fresh process on a copy of ``built`` (files, links and times as they are)."""
    shutil.copytree(built, tmp_path / "cache", symlinks=True)
    return {**os.environ, "PLANNER_CACHE": str(tmp_path / "cache")}


@pytest.mark.parametrize("plant", ["link to /dev/zero", "FIFO", "link to a FIFO"])
@pytest.mark.parametrize("member", ["stop_times.parquet", "meta.json"])
def test_a_cache_member_that_is_a_link_or_fifo_is_never_read(member, plant, built_cache, tmp_path):
    """A cache member planted as a link to /dev/zero (memory filled) or a FIFO (a hang): the entry is set
    aside and rebuilt; the answer is the same (in a fresh process with a deadline, so a hang fails)."""
    built, answer = built_cache
    env = _copy_of(built, tmp_path)
    (entry,) = (tmp_path / "cache" / "timetables").iterdir()
    target = entry / member
    target.unlink()
    if plant == "link to /dev/zero":
        target.symlink_to("/dev/zero")
    elif plant == "FIFO":
        os.mkfifo(target)
    else:
        os.mkfifo(tmp_path / "fifo")
        target.symlink_to(tmp_path / "fifo")
    again = _stations(env)
    assert again.returncode == 0 and again.stdout == answer, again.stderr
    assert (entry / member).is_file() and not (entry / member).is_symlink()  # rebuilt


def test_a_content_hash_memo_linked_to_dev_zero_is_not_read(built_cache, tmp_path):
    env = _copy_of(built_cache[0], tmp_path)
    memos = list((tmp_path / "cache" / "content-hashes").iterdir())
    assert memos
    for m in memos:
        m.unlink()
        m.symlink_to("/dev/zero")
    again = _stations(env)
    assert again.returncode == 0, again.stderr
    assert all(m.is_file() and not m.is_symlink() for m in memos)  # recomputed and written anew


# ---- feeds ------------------------------------------------------------------------------------------

def test_a_feed_folder_member_linked_out_of_the_folder_is_not_read(tmp_path, capsys):
    secret = tmp_path / "secret.txt"
    secret.write_text("root:SECRET-HASH:19000:0:99999:7:::\n")
    feed = tmp_path / "feed"
    feed.mkdir()
    for f in (FIXTURES / "blt").iterdir():
        (feed / f.name).write_bytes(f.read_bytes())
    (feed / "stops.txt").unlink()
    (feed / "stops.txt").symlink_to(secret)
    rc = main(["stations", "--feed", str(feed), "--game", "none", "--date", "2026-05-02"])
    err = capsys.readouterr().err
    assert_one_line_error(rc, err, "stops.txt", "link out of the feed folder")
    assert "SECRET" not in err


def _bomb(path: Path, mb: int) -> None:
    """The BLT feed with a transfers.txt of ``mb`` MiB between stops that are not in it (compresses ~1000:1)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        for f in (FIXTURES / "blt").iterdir():
            if f.name != "transfers.txt":
                zf.write(f, f.name)
        with zf.open("transfers.txt", "w", force_zip64=True) as fh:
            fh.write(b"from_stop_id,to_stop_id,transfer_type,min_transfer_time\n")
            block = b"elsewhere:1,elsewhere:2,2,120\n" * (1 << 15)
            for _ in range((mb << 20) // len(block) + 1):
                fh.write(block)


# The child's own peak (VmHWM), not ru_maxrss: Linux puts the pre-exec high-water mark, the pytest worker's
# memory, into ru_maxrss at execve, which would hide the child's growth under the worker's size.
_PEAK = ("import re, sys; from planner.cli import main; rc = main(sys.argv[1:]); sys.stdout.flush(); "
         "hwm = re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1); "
         "print(rc, hwm, file=sys.stderr)")


def _peak_kib(tmp_path: Path, feed: Path) -> int:
    env = {**os.environ, "PLANNER_CACHE": str(tmp_path / f"cache-{feed.name}")}
    p = subprocess.run([sys.executable, "-c", _PEAK, "stations", "--feed", str(feed), "--game", "none", "--date",
                        "2026-05-02", "--json"], capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    rc, kib = p.stderr.split()[-2:]
    assert rc == "0", p.stderr
    return int(kib)


def test_a_huge_transfers_member_is_streamed_in_bounded_memory(tmp_path):
    """256 MiB of transfers.txt in a zip of a few hundred KB: read block by block (it took ~12x its size)."""
    bomb = tmp_path / "bomb.zip"
    _bomb(bomb, 256)
    assert bomb.stat().st_size < 2 << 20
    grown = _peak_kib(tmp_path, bomb) - _peak_kib(tmp_path, FIXTURES / "blt")
    assert grown < (256 << 10) // 2, f"peak memory grew by {grown >> 10} MiB for a 256 MiB member"


# ---- --links ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["100k-deep JSON", "a 5,000-character URL", "/dev/zero", "FIFO"])
def test_handout_checks_links_before_writing_anything(kind, tmp_path, capsys):
    links = tmp_path / "game.json"
    if kind == "100k-deep JSON":
        links.write_text("[" * 100_000)
    elif kind == "a 5,000-character URL":
        links.write_text(json.dumps({"game": "ab12", "groups": [{"name": "Rot", "url": "https://g.example/"
                                                                 + "a" * 5000}]}))
    elif kind == "/dev/zero":
        links = Path("/dev/zero")
    else:
        os.mkfifo(links)
    out = tmp_path / "out" / "h.pdf"
    done: list[int] = []
    t = threading.Thread(target=lambda: done.append(main(["handout", *DAY, "--links", str(links), "--out",
                                                          str(out)])), daemon=True)
    t.start()
    t.join(120)  # a FIFO read would block for ever: the thread then never ends
    assert done, "handout --links did not return"
    assert_one_line_error(done[0], capsys.readouterr().err, "--links")
    assert not out.parent.exists()  # no handout written before --links was found wrong
