"""Feed download: resumable, atomic, progress-free in tests; served from a local HTTP server (no internet)."""

from __future__ import annotations

import datetime as dt
import functools
import http.server
import threading
from pathlib import Path

import pytest

from planner.errors import PlannerError
from planner.gtfs.download import dataset_ids, download
from tests.support import IC1_2019
from tests.support.download_server import RangeHandler, serving

pytestmark = pytest.mark.needs_shared  # reads ../shared (tests/project/test_suite_without_shared.py)


@pytest.fixture()
def server(tmp_path):
    root = tmp_path / "www"
    root.mkdir()
    (root / "GTFS_FP2019_20190118.zip").write_bytes(IC1_2019.read_bytes())
    handler = functools.partial(RangeHandler, directory=str(root))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    RangeHandler.sent = []
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def test_download_and_resume(server, tmp_path):
    out = tmp_path / "feeds"
    url = f"{server}/GTFS_FP2019_20190118.zip"
    data = IC1_2019.read_bytes()
    out.mkdir()
    (out / "GTFS_FP2019_20190118.zip.part").write_bytes(data[:100_000])  # an interrupted download
    path = download(url, out_dir=out, progress=False)
    assert path.name == "GTFS_FP2019_20190118.zip" and path.read_bytes() == data
    assert RangeHandler.sent == [len(data) - 100_000]  # only the rest was fetched
    assert not (out / "GTFS_FP2019_20190118.zip.part").exists()
    assert download(url, out_dir=out, progress=False) == path  # already there: nothing fetched
    assert len(RangeHandler.sent) == 1


def test_download_failure_is_one_line(tmp_path):
    with pytest.raises(PlannerError, match="download failed"):
        download("http://127.0.0.1:9/GTFS_FP2026_20260101.zip", out_dir=tmp_path, progress=False)
    assert not any(tmp_path.iterdir()) or all(p.suffix == ".part" for p in tmp_path.iterdir())


def test_dataset_ids_follow_timetable_year():
    assert dataset_ids(dt.date(2026, 6, 1)) == ["timetable-2026-gtfs2020"]
    assert dataset_ids(dt.date(2026, 12, 20)) == ["timetable-2027-gtfs2020", "timetable-2026-gtfs2020"]


class _TruncatingHandler(RangeHandler):
    """Announces the whole file but sends only half of it, then closes (a dropped connection)."""

    def do_GET(self):  # noqa: N802 - http.server API
        data = Path(self.translate_path(self.path)).read_bytes()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data[: len(data) // 2])
        self.close_connection = True


def test_truncated_download_is_never_published(tmp_path):
    out = tmp_path / "feeds"
    with serving(tmp_path, _TruncatingHandler, IC1_2019.read_bytes()) as url, pytest.raises(PlannerError,
                                                                                              match="download"):
        download(url, out_dir=out, progress=False)
    assert not (out / "GTFS_FP2019_20190118.zip").exists()  # only the .part, to resume


def test_complete_download_of_a_damaged_zip_is_refused(tmp_path):
    data = bytearray(IC1_2019.read_bytes())
    data[len(data) // 3] ^= 0xFF  # inside a member's compressed data: its CRC fails
    out = tmp_path / "feeds"
    with serving(tmp_path, RangeHandler, bytes(data)) as url, pytest.raises(PlannerError,
                                                                               match="not a readable GTFS zip"):
        download(url, out_dir=out, progress=False)
    assert not any(out.iterdir())  # neither published nor kept to resume


def test_damaged_final_file_is_refused_by_name(server, tmp_path):
    out = tmp_path / "feeds"
    out.mkdir()
    final = out / "GTFS_FP2019_20190118.zip"
    final.write_bytes(IC1_2019.read_bytes()[:50_000])  # what an old planner published after a dropped connection
    with pytest.raises(PlannerError, match=f"{final}.*damaged"):
        download(f"{server}/GTFS_FP2019_20190118.zip", out_dir=out, progress=False)
    assert RangeHandler.sent == []
