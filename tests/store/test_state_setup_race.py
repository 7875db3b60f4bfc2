"""Many processes creating one fresh state file at once (planner/store/db.py, ``StateDB`` set-up): each one's
write is there. Once in CI one of six same-minute buyers was missing (tests/ledger/test_ledger_cli.py): a process read the
file's versions before another's creation committed and its tables after, and took the new file for another
program's database; a lock SQLite's busy handler does not wait for (the journal-mode switch) fails the same way."""

from __future__ import annotations

from tools.stress_state_setup import race

PROCESSES = 12
FILES = 20  # fresh files, one race each, for the price of one start of the processes


def test_many_processes_setting_up_one_fresh_state_file_each_write_it(tmp_path):
    paths = [str(tmp_path / f"state-{i}.sqlite") for i in range(FILES)]
    failed, missing = race(paths, PROCESSES)
    assert failed == []
    assert missing == {path: set() for path in paths}
