"""The bytes a phone moves idling one game hour on the group's page (issue 41: at most 80 KB an hour).

A real ``planner serve`` over loopback on the Zug day; group Rot stands at Zug from 10:00 (another group owns
stations, so its answer carries a fee) and nothing else happens in the game for an hour. The phone follows the
page's own policy (planner/web/static/fresh.js and group.js): it opens with the group's state, the ledger's answer
for the group now, the trains and next's way on; then it asks the game's change mark in a long poll (the server
answers after 50 s when nothing changed) one after the other, and asks its state and the ledger again only when
its clock reaches the answer's ``next_change`` (:func:`ask_again` is fresh.js's ``askAgain``), with the browser's
``If-None-Match`` for an answer it holds for the same address. Every byte of each HTTP request and answer is
counted as it crosses the socket (request line, headers a phone's Chromium sends, the answer's headers, the gzip
body); TCP/IP and TLS framing are not. The long polls are sent with ``wait=0`` so the hour takes seconds: each
then stands for 50 s of the hour, and carries 7 bytes more than the page's.

``python -m bench.bench_idle`` prints the table and writes bench/out/idle.json.
"""

from __future__ import annotations

import gzip
import json
import socket
import tempfile
import time
from pathlib import Path

import requests

from bench import write_results
from planner.web.security import COOKIE
from tests.support.webserver import free_port, serve, web_env, web_game

HOUR = 3600
LONG_POLL = 50  # seconds the server holds a long poll while nothing changes (planner/web/responses.py LONG_POLL)
START = 10 * 3600  # 10:00, the idle hour's start
PACE = 0.15  # seconds between two requests of the compressed hour
BUDGET = 80 * 1024  # issue 41: at most 80 KB an hour
# what a phone's Chromium sends with each fetch of the page (besides Host, Cookie and If-None-Match)
BROWSER = ("User-Agent: Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) "
           "Chrome/131.0.0.0 Mobile Safari/537.36\r\nsec-ch-ua: \"Chromium\";v=\"131\", \"Not_A Brand\";v=\"24\"\r\n"
           "sec-ch-ua-mobile: ?1\r\nsec-ch-ua-platform: \"Android\"\r\npriority: u=1, i\r\nAccept: application/json\r\nAccept-Encoding: gzip, deflate, br, "
           "zstd\r\nAccept-Language: de-CH,de;q=0.9\r\nSec-Fetch-Site: same-origin\r\nSec-Fetch-Mode: cors\r\n"
           "Sec-Fetch-Dest: empty\r\nConnection: keep-alive\r\n")


def ask_again(now: int, asked: int | None, nxt: int | None) -> bool:
    """fresh.js's ``askAgain`` (minutes after midnight): never asked, the clock set back, or at the next change."""
    if asked is None:
        return True
    return now < asked or (nxt is not None and nxt > asked and now >= nxt)


def clock(t: int) -> str:
    return f"{t // 3600:02d}:{t % 3600 // 60:02d}"


class Phone:
    """One kept-alive HTTP/1.1 connection that counts every byte both ways, with a browser's cache of ETags."""

    def __init__(self, port: int, token: str):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.port = port
        self.cookie = f"{COOKIE}={token}"
        self.etags: dict[str, tuple[str, object]] = {}  # address -> (its ETag, its answer)
        self.sent = self.received = self.requests = self.not_modified = 0

    def get(self, path: str) -> object:
        """GET ``path`` as the page's fetch does (the browser revalidates an answer it holds); its JSON."""
        extra = f"If-None-Match: {self.etags[path][0]}\r\n" if path in self.etags else ""
        req = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n{BROWSER}Cookie: {self.cookie}\r\n{extra}\r\n"
        self.sock.sendall(req.encode())
        self.sent += len(req)
        self.requests += 1
        status, headers, body = self._answer()
        if status == 304:
            self.not_modified += 1
            return self.etags[path][1]
        assert status == 200, (status, path, body[:200])
        data = json.loads(gzip.decompress(body) if headers.get("content-encoding") == "gzip" else body)
        if "etag" in headers:
            self.etags[path] = (headers["etag"], data)
        return data

    def _answer(self) -> tuple[int, dict[str, str], bytes]:
        buf = b""
        while b"\r\n\r\n" not in buf:
            buf += self._recv()
        head, body = buf.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        headers = {k.strip().lower(): v.strip() for k, v in (x.split(":", 1) for x in lines[1:])}
        size = int(headers.get("content-length", 0))
        while len(body) < size:
            body += self._recv()
        self.received += len(head) + 4 + size
        return int(lines[0].split()[1]), headers, body[:size]

    def _recv(self) -> bytes:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        return chunk


def idle_hour(phone: Phone, game: str) -> dict:
    """The page opened at 10:00, then one game hour with nothing happening in the game."""
    base = f"/api/games/{game}/groups/1"
    asked: int | None = None
    refreshes: list[str] = []
    place = None

    def refresh(t: int) -> int | None:
        nonlocal place
        now = clock(t)
        state = phone.get(f"{base}?time={now}")
        st = state["status"]
        key = json.dumps([st["position"], (st["rolls"] or [{}])[-1].get("seq"), len(st["positions"]), None])
        if key != place:  # group.js's fetchPlace: next and the trains once per change of the group's place
            place = key
            phone.get(f"{base}/trains?time={now}")
            phone.get(f"{base}/next?time={now}")
        ledger = phone.get(f"{base}/ledger?time={now}")
        refreshes.append(now)
        nxt = ledger["now"].get("next_change")
        return int(nxt[:2]) * 60 + int(nxt[3:]) if nxt else None

    nxt = refresh(START)
    asked = START // 60
    opened = phone.sent + phone.received
    mark = phone.get(f"/api/games/{game}/changes")["changes"]
    polls = 1
    for second in range(0, HOUR + 1):
        if second and second % LONG_POLL == 0:  # the long poll answered after 50 s: the page asks the next at once
            time.sleep(PACE)  # the server's rate limit (10 a second) holds for a phone sending an hour in seconds
            assert phone.get(f"/api/games/{game}/changes?since={mark}&wait=0")["changes"] == mark
            polls += 1
        if second % 60 == 0 and ask_again((START + second) // 60, asked, nxt):  # fresh.js's tick (each second)
            asked = (START + second) // 60
            nxt = refresh(START + second)
    return {"opened_bytes": opened, "refreshes": refreshes, "long_polls": polls}


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="bench-idle-") as tmp:
        env = web_env(Path(tmp))
        port = free_port()
        game = web_game(env, "Rot,Blau", base=f"http://127.0.0.1:{port}")
        with serve(env, port=port) as srv:
            def post(number: int, path: str, body: dict) -> None:
                r = requests.post(f"{srv.url}/api/games/{game['game']}/groups/{number}{path}", json=body, timeout=60,
                                  headers={"Authorization": f"Bearer {game['groups'][number - 1]['token']}"})
                assert r.status_code == 200, r.text

            post(2, "/position", {"at": "Zug", "time": "09:00"})
            post(2, "/ledger", {"event": "buy", "station": "Zug", "time": "09:05"})
            post(1, "/position", {"at": "Zug", "time": "10:00"})
            phone = Phone(srv.port, game["groups"][0]["token"])
            run = idle_hour(phone, game["game"])
            phone.sock.close()
    total = phone.sent + phone.received
    hour = total - run["opened_bytes"]
    res = {"idle_hour_bytes": hour, "idle_hour_kb": round(hour / 1024, 1), "budget_kb": BUDGET // 1024,
           "met": hour <= BUDGET, "page_opened_bytes": run["opened_bytes"], "requests": phone.requests,
           "not_modified": phone.not_modified, "long_polls": run["long_polls"], "refreshes_at": run["refreshes"],
           "sent_bytes": phone.sent, "received_bytes": phone.received,
           "before_issue_41_kb_estimate": round(HOUR / 4 * 3.6, 0)}
    write_results("idle", res)
    print("| a phone idling one game hour (Zug, 10:00-11:00) | value |\n|---|---|")
    for k in ("idle_hour_kb", "budget_kb", "met", "page_opened_bytes", "requests", "not_modified", "long_polls",
              "refreshes_at", "before_issue_41_kb_estimate"):
        print(f"| {k.replace('_', ' ')} | {res[k]} |")
    return 0 if res["met"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
