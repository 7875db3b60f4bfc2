"""The SYNTHETIC full variant-A game day (:mod:`tools.synth_area`) for the benchmarks: written once per benchmark
process into the system's temporary folder (a synthetic feed is never written into the repository), with how long
the one command took."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATE = "2026-06-13"
GAME = "sbb-monopoly"
_WRITTEN: dict[str, object] = {}


def area_feed() -> tuple[Path, float]:
    """The feed folder and the seconds ``python -m tools.synth_area`` took to write it (in a fresh process, as a user
    runs it; written again per benchmark process, so it is always this code's day)."""
    if "feed" not in _WRITTEN:
        t0 = time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "tools.synth_area", "--game", GAME, "--out", str(Path(tempfile.gettempdir()) / "sbb-planner-bench")],
                             cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()
        _WRITTEN["feed"] = Path(out)
        _WRITTEN["seconds"] = round(time.perf_counter() - t0, 1)
    return _WRITTEN["feed"], _WRITTEN["seconds"]  # type: ignore[return-value]
