"""Random days, random interleavings of two phones of one group and the command line (issue 41): no fee is lost or
paid twice, no event outside the rules is written, and the ledger's "now" (the fees due) agrees with its events.

The demo day (tests/support/inline_day.py): Rot owns Zug and Cham; Blau rides S1 trains Baar -> Rotkreuz (Zug +5,
Cham +11 minutes) and taps, at random minutes of each ride, from three doors: two phones and the command line. Each
door is its own connection to one state file (as two phones' requests in the server's threads and a ``planner``
process are), and calls the use case its adapter calls (``record_event``, ``mark_sent``); what a door is refused is
allowed, what it writes is held against the rules. One interleaving also goes through the real server and CLI
(:func:`test_two_phones_and_the_command_line_over_the_real_doors`).
"""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from pathlib import Path

import pytest
import requests
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.errors import InputError
from planner.service import PlaceRequest, Play, implicit_record, set_position
from planner.service.change.ledger_events import LedgerRequest, mark_sent, record_event
from planner.service.questions.ledger_now import ledger_now
from planner.store.state import State
from planner.util.timefmt import fmt_clock
from planner.util.timefmt import parse_clock as T
from tests.support.inline_day import day_argv, demo_day
from tests.support.webserver import run_cli

pytestmark = pytest.mark.long  # one worker runs a module (--dist loadfile)

OWNED = {"Zug": 5, "Cham": 11}  # Rot's stations: minutes after Baar on the S1 to Rotkreuz
RIDES = [(h, m) for h in (10, 11, 12, 13) for m in (1, 31)]
KINDS = ("pay", "pay", "pay", "tax", "draw", "parking", "buy", "sent")
DOORS = ("phone-1", "phone-2", "cli")


@pytest.fixture(scope="module")
def demo(tmp_path_factory, session_cache):
    with pytest.MonkeyPatch.context() as mp:  # (module fixtures come before the tests' own cache)
        mp.setenv("PLANNER_CACHE", str(session_cache))
        return demo_day(tmp_path_factory.mktemp("two-phones-day"))


actions = st.lists(st.tuples(st.sampled_from(DOORS), st.sampled_from(KINDS), st.integers(0, 29),
                             st.sampled_from(("Zug", "Cham", "Rotkreuz", "Baar"))), max_size=10)
days = st.tuples(st.lists(st.sampled_from(RIDES), min_size=1, max_size=2, unique=True).map(sorted), actions)


def _owner_buys(play: Play) -> None:
    set_position(play, "Rot", PlaceRequest("Zug"), T("09:00"))
    record_event(play, LedgerRequest("Rot", "buy", T("09:00"), station="Zug"))
    set_position(play, "Rot", PlaceRequest("Cham"), T("09:20"))
    record_event(play, LedgerRequest("Rot", "buy", T("09:20"), station="Cham"))


def _tap(play: Play, kind: str, t: int, station: str, event_id: str) -> None:
    """One tap of a door (refusals are the rules at work, and allowed)."""
    if kind == "pay":
        record_event(play, LedgerRequest("Blau", "pay", t, station=station, now=t, event_id=event_id))
    elif kind == "tax":
        record_event(play, LedgerRequest("Blau", "tax", t, reason="unscheduled_stop", event_id=event_id))
    elif kind == "draw":
        record_event(play, LedgerRequest("Blau", "draw", t, deck="Chance", event_id=event_id))
    elif kind == "parking":
        record_event(play, LedgerRequest("Blau", "parking_empty", t, dice=(2, 3), event_id=event_id))
    elif kind == "buy":
        record_event(play, LedgerRequest("Blau", "buy", t, station=station, event_id=event_id))
    else:  # the message of its latest event marked sent, at the tap's time
        own = [r for r in play.state.ledger.events(play.day.ledger_rules, play.id) if r.event.group == "Blau"
               and r.event.kind != "join"]
        if own:
            mark_sent(play, "Blau", own[-1].seq, t)


def _play_day(day, path: Path, rides: list[tuple[int, int]], taps: list) -> tuple[int, dict[int, int]]:
    """Play one day on three connections to ``path``: (the last tap's time, each written event's tap time)."""
    doors = {d: State(path) for d in DOORS}
    plays = {d: Play(day, implicit_record(doors[d], day, day.game.name), doors[d]) for d in DOORS}
    _owner_buys(plays["cli"])
    tapped: dict[int, int] = {}
    last = T("09:30")
    for i, (h, m) in enumerate(rides):
        start = T(f"{h:02d}:{m:02d}")
        last = max(last, start)  # the ledger's "now" is at the group's latest entry at the least
        set_position(plays["phone-1"], "Blau", PlaceRequest("Baar"), start - 300)
        set_position(plays["phone-2"], "Blau", PlaceRequest(None, None, f"S1 {fmt_clock(start)} Rotkreuz"), start)
        for j, (door, kind, offset, station) in enumerate(sorted(taps, key=lambda a: a[2])):
            t = start + 60 * offset
            before = _last_seq(plays[door])
            try:
                _tap(plays[door], kind, t, station, f"tap-{i}-{j}-{door}")
            except InputError:
                pass
            for seq in range(before + 1, _last_seq(plays[door]) + 1):
                tapped[seq] = t
            last = max(last, t)
    for s in doors.values():
        s.close()
    return last, tapped


def _last_seq(play: Play) -> int:
    rows = play.state.ledger.events(play.day.ledger_rules, play.id)
    return rows[-1].seq if rows else 0


def _check_day(day, path: Path, rides: list[tuple[int, int]], last: int, tapped: dict[int, int]) -> None:
    with State(path) as state:
        play = Play(day, implicit_record(state, day, day.game.name), state)
        rules = day.ledger_rules
        rows = [r for r in state.ledger.events(rules, play.id) if not r.voided and not r.undone]
        events = [r.event for r in rows if r.event.kind != "join"]
        stops = {(name, T(f"{h:02d}:{m:02d}") + 60 * minutes) for h, m in rides for name, minutes in OWNED.items()}
        fees = [(e.name, e.time) for e in events if e.kind == "fee"]
        # no fee paid twice, each for a stop of the day, never before it (its tap at or after the stop)
        assert not [k for k, n in Counter(fees).items() if n > 1], fees
        assert set(fees) <= stops, (fees, stops)
        assert all(tapped[r.seq] >= r.event.time for r in rows if r.event.kind == "fee" and r.seq in tapped)
        # nothing outside the rules: in the game's hours, a tax once a train and minute, a card once a minute
        assert all(rules.start <= e.time <= rules.end for e in events)
        assert all(rules.start <= r.sent <= rules.end for r in rows if r.sent is not None)
        taxes = [(e.reason, e.trip, e.time // 60) for e in events if e.kind == "parking"]
        draws = [(e.deck, e.time // 60) for e in events if e.kind == "draw"]
        rolls = [(e.name, e.ref or e.time // 60) for e in events if e.kind == "parking_empty"]
        assert len(taxes) == len(set(taxes)) and len(draws) == len(set(draws)) and len(rolls) == len(set(rolls))
        assert not [e for e in events if e.kind == "buy" and e.group == "Blau" and e.name in OWNED]
        # no fee lost: every stop so far is paid or listed as due (at its own time), and nothing paid is listed
        now = ledger_now(play, "Blau", last)
        due = {(f.name, T(f.time)) for f in now.fees_due}
        passed = {s for s in stops if s[1] <= last}
        view = state.ledger.view(rules, play.id)
        if "Blau" in view.out:  # taxes took more than it had: it plays no further (§6), nothing is due of it
            assert now.out and not due
        else:
            assert due | set(fees) == passed and not due & set(fees), (due, fees, passed)
        # money is conserved
        assert sum(view.cash.values()) + view.parking + view.bank == 0
    with State(path) as fresh:  # another connection reads the same "now"
        other = Play(day, implicit_record(fresh, day, day.game.name), fresh)
        assert ledger_now(other, "Blau", last) == now


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(day=days)
def test_two_phones_and_the_command_line_never_lose_or_double_a_fee(demo, day):
    rides, taps = day
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "state.sqlite"
        last, tapped = _play_day(demo, path, rides, taps)
        _check_day(demo, path, rides, last, tapped)


def test_two_phones_and_the_command_line_over_the_real_doors(web_server, demo):
    """One interleaving through the real server (two phones of Blau) and the command line."""
    env = web_server.env
    argv = day_argv(demo)
    game = json.loads(run_cli(env, "game", "new", "--name", "Zwei Telefone", "--groups", "Rot,Blau", *argv,
                              "--json").stdout)
    gid = game["game"]

    def phone(number: int):
        base = f"{web_server.url}/api/games/{gid}/groups/{number}"
        headers = {"Authorization": f"Bearer {game['groups'][number - 1]['token']}"}
        return lambda path, body: requests.post(base + path, json=body, headers=headers, timeout=120)

    def cli(*args: str):
        return run_cli(env, *args, "--game-id", gid, *argv)

    rot, blau_1, blau_2 = phone(1), phone(2), phone(2)
    assert rot("/position", {"at": "Zug", "time": "09:00"}).status_code == 200
    assert rot("/ledger", {"event": "buy", "station": "Zug", "time": "09:00"}).status_code == 200
    assert blau_1("/position", {"at": "Baar", "time": "09:56"}).status_code == 200
    assert blau_2("/position", {"trip": "S1 10:01 Rotkreuz", "time": "10:01"}).status_code == 200
    # the Zug stop (10:06) tapped on both phones and typed at the command line, late, in any order
    codes = [blau_1("/ledger", {"event": "pay", "station": "Zug", "time": "10:09", "now": "10:09",
                                "event_id": "blau-phone-one"}).status_code,
             cli("ledger", "pay", "--group", "Blau", "--station", "Zug", "--time", "10:10").returncode,
             blau_2("/ledger", {"event": "pay", "station": "Zug", "time": "10:11", "now": "10:11",
                                "event_id": "blau-phone-two"}).status_code]
    assert codes == [200, 2, 422]
    for tap, code in ((blau_1, 200), (blau_2, 422)):  # one tax on both phones
        assert tap("/ledger", {"event": "tax", "reason": "unscheduled_stop", "time": "10:15"}).status_code == code
    page = requests.get(f"{web_server.url}/api/games/{gid}/groups/2/ledger?time=10:20",
                        headers={"Authorization": f"Bearer {game['groups'][1]['token']}"}, timeout=120).json()
    own = [(e["kind"], e["time"]) for e in page["messages"] if e["kind"] != "join"]
    assert own == [("fee", "10:06"), ("parking", "10:15")], own
    assert page["now"]["fees_due"] == []
