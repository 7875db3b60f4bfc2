"""A real-time URL whose server trickles (a byte every few tenths of a second, each read within the read timeout)
is cut at the request's total deadline, in the body and in the headers: ``route --realtime URL`` answers on the
timetable with one warning naming the URL and the deadline, and the phone app's poller keeps its last good feed
and says why. Served by real HTTP servers on loopback; the deadline is lowered to 2 s for the test. The route is
asked on a timetable written here: S1 Zug 12:45 - Rotkreuz, S2 Rotkreuz - Wohlen AG 13:30."""

from __future__ import annotations

import http.server
import json
import threading
import time
from contextlib import contextmanager

import pytest

from planner.cli import main
from planner.realtime import feed as rtfeed
from planner.realtime.live import LiveFeed, read_status
from tests.support.inline_day import day_argv, inline_day, stop_times_txt, stops_txt

GIVE_UP = 20  # seconds after which a trickling handler stops (so that a client without a deadline fails, not hangs)


class _TrickleBody(http.server.BaseHTTPRequestHandler):
    """Announces 1000 bytes, then sends one every 0.3 s."""

    def do_GET(self):  # noqa: N802 - http.server API
        self.send_response(200)
        self.send_header("Content-Length", "1000")
        self.end_headers()
        _trickle(self.wfile, b"\x0a" * 1000)

    def log_message(self, *args):
        pass


class _TrickleHeaders(http.server.BaseHTTPRequestHandler):
    """Sends its status line and headers one byte every 0.3 s."""

    def do_GET(self):  # noqa: N802 - http.server API
        _trickle(self.wfile, b"HTTP/1.1 200 OK\r\nContent-Length: 4\r\nX-Slow: " + b"x" * 500 + b"\r\n\r\nbody")

    def log_message(self, *args):
        pass


def _trickle(out, data: bytes) -> None:
    stop = time.monotonic() + GIVE_UP
    try:
        for i in range(len(data)):
            if time.monotonic() > stop:
                break
            out.write(data[i:i + 1])
            out.flush()
            time.sleep(0.3)
    except OSError:
        pass  # the client hung up: what the deadline is for


@contextmanager
def _serving(handler):
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}/feed"
    finally:
        srv.shutdown()
        srv.server_close()


@pytest.mark.parametrize("handler", [_TrickleBody, _TrickleHeaders], ids=["body", "headers"])
def test_route_on_a_trickling_url_answers_on_the_timetable_at_the_deadline(handler, capsys, monkeypatch, tmp_path):
    day = inline_day(tmp_path, stops=stops_txt("Zug", "Rotkreuz", "Wohlen AG"),
                     trips="route_id,service_id,trip_id\nS1,SA,s1\nS2,SA,s2\n",
                     stop_times=stop_times_txt(("s1", [("Zug", "12:45", "12:45"), ("Rotkreuz", "13:00", "13:00")]),
                                               ("s2", [("Rotkreuz", "13:05", "13:05"), ("Wohlen AG", "13:30", "13:30")])))
    route = ["route", *day_argv(day), "--from", "Zug", "--to", "Wohlen AG", "--time", "12:40", "--json"]
    monkeypatch.setattr(rtfeed, "DEADLINE", 2)
    with _serving(handler) as url:
        rc = main([*route, "--realtime", url])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["realtime"]["available"] is False
    warned = [w for w in out["warnings"] if url in w]
    assert len(warned) == 1 and "no complete answer within 2 s" in warned[0], out["warnings"]
    assert out["arrival"] == "13:30"  # answered, on the timetable


def test_the_phone_apps_poller_keeps_its_last_feed_when_a_poll_trickles(tmp_path, monkeypatch):
    monkeypatch.setattr(rtfeed, "DEADLINE", 2)
    published = tmp_path / "live.pb"
    published.write_bytes(b"the last good feed")
    with _serving(_TrickleBody) as url:
        status = LiveFeed(url, published).poll_once()
    assert "no complete answer within 2 s" in status["error"] and status["status"] is None
    assert read_status(published)["error"] == status["error"]
    assert published.read_bytes() == b"the last good feed"
