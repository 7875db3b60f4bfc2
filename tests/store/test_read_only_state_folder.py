"""A state in a folder the planner may not write (a read-only mount, which holds for root too): every command that
only reads answers as in a writable folder, since reading needs no write (the file is opened ``mode=ro``, and
``immutable`` where SQLite's WAL index cannot be made there); a command that records says in one line that it
cannot write there. The day is a timetable written here: hourly S1 Zug - Baar, IR70 Zug - Rotkreuz - Luzern and S2
Rotkreuz - Wohlen AG (a 2's target)."""

from __future__ import annotations

import gc
import os
import sqlite3

import pytest

from planner.cli import main
from tests.support import assert_one_line_error
from tests.support.inline_day import ROUTES, day_argv, inline_day, line_service, stops_txt
from tests.support.namespaces import planner_in_read_only_folder

pytestmark = pytest.mark.long  # one worker runs a module (--dist loadfile); this one early

READS = {
    "ledger status": ["ledger", "status", "--json"],
    "ledger end": ["ledger", "end", "--json"],
    "ledger feed": ["ledger", "feed", "--group", "Rot", "--json"],
    "group status": ["group", "status", "--group", "Rot", "--json"],
    "group list": ["group", "list", "--time", "13:00", "--json"],
    "next": ["next", "--group", "Rot", "--time", "13:00", "--json"],
    "advise": ["advise", "--group", "Rot", "--time", "13:00", "--json"],
    "route --group": ["route", "--group", "Rot", "--time", "13:00", "--json"],
}
WRITES = {
    "roll": ["roll", "--group", "Rot", "--dice", "3", "--time", "14:00"],
    "ledger buy": ["ledger", "buy", "--group", "Rot", "--station", "Baar", "--time", "14:05"],
}


DAY: list[str] = []  # filled by the module's first test (``answered``)


def _write_day(folder) -> list[str]:
    hours = [f"{h:02d}:00" for h in range(6, 22)]
    lines = [line_service("S1", [("Zug", 0), ("Baar", 4)], hours),
             line_service("IR70", [("Zug", 0), ("Rotkreuz", 8), ("Luzern", 21)], hours),
             line_service("S2", [("Rotkreuz", 0), ("Wohlen AG", 30)], hours)]
    return day_argv(inline_day(
        folder, routes=ROUTES, stops=stops_txt("Zug", "Baar", "Rotkreuz", "Luzern", "Wohlen AG"),
        trips="route_id,service_id,trip_id\n" + "".join(t for t, _ in lines),
        stop_times="trip_id,arrival_time,departure_time,stop_id,stop_sequence\n" + "".join(st for _, st in lines)))


@pytest.fixture(scope="module")
def answered(tmp_path_factory, session_cache):
    """A state with a roll and a purchase, as it is left after its last writer closed it (no -wal, no -shm: the
    case that failed), every read command's answer in the writable folder, and their runs in the read-only one."""
    folder = tmp_path_factory.mktemp("ro-state") / "state"
    folder.mkdir()
    state = folder / "groups.sqlite"
    env = {**os.environ, "PLANNER_STATE": str(state), "PLANNER_CACHE": str(session_cache)}
    with pytest.MonkeyPatch.context() as mp:
        for k in ("PLANNER_STATE", "PLANNER_CACHE"):
            mp.setenv(k, env[k])
        DAY[:] = _write_day(tmp_path_factory.mktemp("ro-day"))
        assert main(["roll", *DAY, "--group", "Rot", "--dice", "2", "--at", "Zug", "--time", "12:40"]) == 0
        assert main(["ledger", "buy", *DAY, "--group", "Rot", "--station", "Zug", "--time", "12:41"]) == 0
    gc.collect()  # the commands' connections closed: the last one to close removes -wal and -shm
    conn = sqlite3.connect(state)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    assert sorted(p.name for p in folder.iterdir()) == ["groups.sqlite"]
    before = state.read_bytes()
    runs = planner_in_read_only_folder(folder, [[*argv, *DAY] for argv in [*READS.values(), *WRITES.values()]], env,
                                       tmp_path_factory.mktemp("ro-results"))
    assert state.read_bytes() == before and sorted(p.name for p in folder.iterdir()) == ["groups.sqlite"]
    return env, dict(zip([*READS, *WRITES], runs, strict=True))


@pytest.mark.parametrize("name", list(READS))
def test_a_command_that_only_reads_answers_from_a_read_only_folder(name, answered, capsys, monkeypatch):
    env, runs = answered
    got = runs[name]
    assert got.returncode == 0, got.stderr
    monkeypatch.setenv("PLANNER_STATE", env["PLANNER_STATE"])
    assert main([*READS[name], *DAY]) == 0  # the same question in the writable folder
    assert got.stdout == capsys.readouterr().out


@pytest.mark.parametrize("name", list(WRITES))
def test_a_command_that_records_says_it_cannot_write_there(name, answered):
    got = answered[1][name]
    assert_one_line_error(got.returncode, got.stderr, "cannot write there", "groups.sqlite")
