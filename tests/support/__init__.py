"""Helpers the tests share that are not fixtures: where the real data lives, and checks many tests make.

Fixtures live in ``tests/conftest.py`` (never imported); plain helpers here, always imported as
``tests.support`` (one name, one module object): :mod:`tests.support.timetable` builds tiny timetables,
:mod:`tests.support.webserver` runs a real ``planner serve``.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("PLANNER_SHARED", ROOT.parent / "shared"))
DATA = SHARED / "data"
ZUG = DATA / "gtfs" / "ch-zug-fp2021.zip"
IC2020 = DATA / "gtfs" / "ch-ic-fp2020.zip"
IC1_2019 = DATA / "gtfs" / "ch-ic1-fp2019.zip"
FIXTURES = ROOT / "tests" / "fixtures"
DEMO_DATE = dt.date(2021, 9, 11)  # a Saturday in the Zug extract
# the Zug day as every command takes it
DAY = ["--feed", str(ZUG), "--date", DEMO_DATE.isoformat()]
# the browser `make system-deps` installs and checks: the `chromium` command on PATH
CHROMIUM = Path(shutil.which("chromium") or "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


def cli_line_starts(kind: str = "error") -> tuple[str, ...]:
    """How the command line starts an error (or a ``warning``) line in each language: ``planner: error: ``,
    ``planner: Fehler: ``, ``planner: erreur : `` (from the catalog, as the command line writes it)."""
    from planner.util.i18n import _, languages, use_language

    out = []
    for lang in languages():  # the tests' pseudo-locale too, when it is enabled
        with use_language(lang):
            out.append("planner: " + _(f"{kind}: {{{kind}}}").format(**{kind: ""}))
    return tuple(out)


def assert_one_line_error(rc: int, err: str, *needles: str, code: int = 2) -> None:
    """A CLI failure as users must see it: exit ``code``, one line ``planner: error: ...`` (in the answers'
    language) holding every needle, no traceback."""
    assert rc == code
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith(cli_line_starts()), lines[0]
    assert "Traceback" not in err
    for n in needles:
        assert n in lines[0], (n, lines[0])
