"""A full disk for one command: ``planner`` run in a fresh process in which a folder is a small tmpfs filled up to
the last few bytes, in a mount namespace of its own (``unshare --user --map-root-user --mount``: no root needed
on a kernel that allows user namespaces). The folder outside is never touched: the tmpfs lives as long as the
command, so what the command left there is listed from inside, once it ended."""

from __future__ import annotations

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
