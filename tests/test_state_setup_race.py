"""Many processes creating one fresh state file at once (planner/store/db.py, ``StateDB`` set-up): each one's
write is there. Once in CI one of six same-minute buyers was missing (tests/test_ledger_cli.py): a process read the
file's versions before another's creation committed and its tables after, and took the new file for another
program's database; a lock SQLite's busy handler does not wait for (the journal-mode switch) fails the same way."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from contextlib import closing

from tests.support import ROOT

PROCESSES = 12
FILES = 20  # fresh files, one race each, for the price of one start of the processes


def test_many_processes_setting_up_one_fresh_state_file_each_write_it(tmp_path):
    paths = [str(tmp_path / f"state-{i}.sqlite") for i in range(FILES)]
    procs = [subprocess.Popen([sys.executable, "-m", "tests.support.state_writer", f"g{n}", *paths], cwd=ROOT,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for n in range(PROCESSES)]
    for _path in paths:
        ready = [p for p in procs if p.stdout.readline() == "ready\n"]  # done with the file before, waiting
        for p in ready:  # go: all at once on the next fresh file
            p.stdin.write("go\n")
            p.stdin.flush()
    failed = [(n, p.stderr.read().strip()) for n, p in enumerate(procs) if p.wait(timeout=300) != 0]
    assert failed == []
    want = {f"g{n}" for n in range(PROCESSES)}
    for path in paths:
        with closing(sqlite3.connect(path)) as conn:
            got = {g for (g,) in conn.execute("SELECT grp FROM ledger_events WHERE kind = 'income'")}
        assert got == want, path
