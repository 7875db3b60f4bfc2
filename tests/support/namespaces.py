"""Faults of the machine for real, in a mount namespace of the command's own (``unshare --user --map-root-user
--mount``: no root needed on a kernel that allows user namespaces; root's own file permissions are no test, it
ignores them, but a read-only mount holds for it too):

* a full disk (:func:`planner_on_full_disk`): a folder is a small tmpfs filled up to the last few bytes; the
  folder outside is never touched, the tmpfs lives as long as the command, so what the command left there is
  listed from inside once it ended;
* a read-only folder (:func:`planner_in_read_only_folder`): the folder bound onto itself read-only.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from tests.support import ROOT

LEFT = "@@ files left:"
_SCRIPT = ('mount -t tmpfs -o size=1m tmpfs "$1" && head -c "$2" /dev/zero > "$1/fill" 2>/dev/null; dir="$1"; '
           f'shift 2; "$@"; rc=$?; echo "{LEFT}"; cd "$dir" && find . -mindepth 1 ! -name fill; exit $rc')


def planner_on_full_disk(folder: Path, argv: list[str], env: dict, *, room: int = 0
                         ) -> tuple[subprocess.CompletedProcess, list[str]]:
    """Run ``planner argv`` with ``folder`` a 1 MiB disk of which about ``room`` bytes are free; returns the run
    (its stdout without the listing) and the paths it left in ``folder`` (``./name``, sorted; the filler not)."""
    folder.mkdir(parents=True, exist_ok=True)
    p = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", _SCRIPT, "sh", str(folder),
                        str((1 << 20) - room), sys.executable, "-m", "planner", *argv],
                       capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    out, _, left = p.stdout.partition(LEFT)
    return subprocess.CompletedProcess(p.args, p.returncode, out, p.stderr), sorted(left.split())


def planner_in_read_only_folder(folder: Path, runs: list[list[str]], env: dict, results: Path
                                ) -> list[subprocess.CompletedProcess]:
    """Run ``planner argv`` for each of ``runs``, one after the other, with ``folder`` read-only (a bind mount:
    writes fail with EROFS, for root too); their outputs are kept in ``results`` (a writable folder elsewhere)."""
    results.mkdir(parents=True, exist_ok=True)
    lines = ['mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" || exit 97']
    for i, argv in enumerate(runs):
        cmd = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "planner", *argv])
        lines.append(f'{cmd} > "$2/out{i}" 2> "$2/err{i}"; echo $? > "$2/rc{i}"')
    p = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", "\n".join(lines), "sh",
                        str(folder), str(results)], capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    assert p.returncode == 0, p.stderr  # 97: the folder could not be made read-only
    return [subprocess.CompletedProcess(argv, int((results / f"rc{i}").read_text()), (results / f"out{i}").read_text(),
                                        (results / f"err{i}").read_text()) for i, argv in enumerate(runs)]
